package org.boxoffice.mapstore;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Real PostgreSQL for tests: one embedded server per test JVM, started on first use and stopped
 * (its temporary directory deleted) by a shutdown hook; each caller gets a database of its own.
 *
 * <p>The first call migrates a template database with {@link Migrations}; every database after
 * that is a copy of it ({@code CREATE DATABASE ... TEMPLATE}), which is much faster than
 * migrating each one. Shipped in the test-jar for the app's tests:
 *
 * <pre>{@code
 * static HikariDataSource db = TestDatabase.newDataSource();   // @BeforeAll
 * db.close();                                                 // @AfterAll (or left to the hook)
 * }</pre>
 *
 * Thread-safe. The server runs with the production settings of {@link EmbeddedDatabase}, so timings
 * measured on it mean something.
 */
public final class TestDatabase {

    private static final String TEMPLATE = "bx_template";
    private static final int DEFAULT_POOL = 4;
    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static final List<HikariDataSource> POOLS = new CopyOnWriteArrayList<>();
    private static EmbeddedDatabase server;

    private TestDatabase() {
    }

    /** A fresh, migrated database with a pool of {@value #DEFAULT_POOL} connections. */
    public static HikariDataSource newDataSource() {
        return newDataSource(DEFAULT_POOL);
    }

    /** A fresh, migrated database with a pool of {@code poolSize}; closed at exit if the caller does not. */
    public static HikariDataSource newDataSource(int poolSize) {
        HikariDataSource pool = DataSources.pooled(newSettings(poolSize));
        POOLS.add(pool);
        return pool;
    }

    /** Settings for a fresh, migrated database, for tests that build their pool the production way. */
    public static DbSettings newSettings(int poolSize) {
        return create(true, poolSize);
    }

    /** Settings for a fresh database with no schema at all (for migration tests). */
    public static DbSettings newEmptySettings() {
        return create(false, 2);
    }

    /** The shared server, started if need be. */
    public static synchronized EmbeddedDatabase server() {
        if (server == null) {
            server = startServer();
        }
        return server;
    }

    private static DbSettings create(boolean migrated, int poolSize) {
        EmbeddedDatabase db = server();
        String name = "test_" + COUNTER.incrementAndGet() + "_" + ProcessHandle.current().pid();
        execute(db, "CREATE DATABASE " + name + " OWNER " + db.user() + (migrated ? " TEMPLATE " + TEMPLATE : ""));
        return new DbSettings(db.jdbcUrl(name), db.user(), db.password(), poolSize);
    }

    private static EmbeddedDatabase startServer() {
        Path dir;
        try {
            dir = Files.createTempDirectory("boxoffice-test-pg");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        EmbeddedDatabase db = EmbeddedDatabase.start(dir.resolve("data"), 0);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            POOLS.forEach(HikariDataSource::close);
            db.close();
            deleteRecursively(dir);
        }, "test-database-cleanup"));
        execute(db, "CREATE DATABASE " + TEMPLATE + " OWNER " + db.user());
        PGSimpleDataSource template = new PGSimpleDataSource();
        template.setUrl(db.jdbcUrl(TEMPLATE));
        // as the service's role, like production: the copies' tables are the service's
        template.setUser(db.user());
        template.setPassword(db.password());
        // unpooled: a template may have no open connections while it is copied
        Migrations.migrate(template);
        return db;
    }

    private static void execute(EmbeddedDatabase db, String sql) {
        try (Connection c = db.adminConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new DatabaseException(sql, e);
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temp directory is not worth failing a test run for
        }
    }
}
