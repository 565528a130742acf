package org.boxoffice.bench;

import org.boxoffice.mapstore.EmbeddedDatabase;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.OptionalLong;

/**
 * The one PostgreSQL of a bench run: the service's referee and the baselines' only store, so both
 * sides of the comparison write to the same server with the same settings. Either an embedded one
 * the bench starts in its work folder, or the one given with {@code --db-url}.
 */
class Database implements AutoCloseable {

    private final String url;
    private final String user;
    private final String password;
    private final EmbeddedDatabase embedded;

    private Database(String url, String user, String password, EmbeddedDatabase embedded) {
        this.url = url;
        this.user = user;
        this.password = password;
        this.embedded = embedded;
    }

    static Database embedded(Path directory) {
        return embedded(directory, false);
    }

    /**
     * @param statements whether the server counts every statement ({@code pg_stat_statements}, read
     *                   by {@link #statementTotals()}): a small cost on every statement, so only the
     *                   cluster bench, which compares the database's work at 1 and N members, asks for it
     */
    static Database embedded(Path directory, boolean statements) {
        EmbeddedDatabase db = EmbeddedDatabase.start(directory, 0,
                statements ? EmbeddedDatabase.STATEMENT_STATISTICS : java.util.Map.of());
        return new Database(db.jdbcUrl(), db.user(), db.password(), db);
    }

    /**
     * An empty database of its own on the same embedded server (same settings, same processes
     * measured), for a system that must not inherit this one's rows: in the cluster bench each size
     * of cluster would otherwise expire the holds the size before it left, as they lapse. With
     * {@code --db-url} there is no server of ours to make one on: this database is shared.
     */
    Database fresh(String name) {
        if (embedded == null) {
            return this;
        }
        return new Database(embedded.createDatabase(name), user, password, embedded) {
            @Override
            public void close() {
                // the server belongs to the database it was made from
            }
        };
    }

    static Database external(String url, String user, String password) {
        return new Database(url, user, password, null);
    }

    String url() {
        return url;
    }

    String user() {
        return user;
    }

    String password() {
        return password;
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    /**
     * Flushes dirty pages before a measured run, so no run pays for the previous run's checkpoint.
     * Needs a superuser: the embedded server runs it as its own; elsewhere, without one, it is skipped.
     */
    void checkpoint() {
        if (embedded != null) {
            embedded.checkpoint();     // the service's role is no superuser; the embedded server's own is
            return;
        }
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("CHECKPOINT");
        } catch (SQLException e) {
            System.err.println("bench: CHECKPOINT skipped (" + e.getMessage() + ")");
        }
    }

    /** Every statement's totals so far (embedded server only; empty elsewhere): see {@link EmbeddedDatabase#statementTotals()}. */
    java.util.List<EmbeddedDatabase.StatementTotals> statementTotals() {
        if (embedded == null) {
            return java.util.List.of();
        }
        try {
            // this database's own: the sizes of the cluster bench each have one on the same server
            String path = java.net.URI.create(url.substring("jdbc:".length())).getPath();
            return embedded.statementTotals(path == null || path.length() < 2 ? null : path.substring(1));
        } catch (RuntimeException e) {
            System.err.println("bench: pg_stat_statements not read (" + e.getMessage() + ")");
            return java.util.List.of();
        }
    }

    /**
     * The statements that took the most of the database's time between two readings of
     * {@link #statementTotals()}, in words: calls, milliseconds in all and per call, and the
     * statement's first words.
     */
    static String topStatements(java.util.List<EmbeddedDatabase.StatementTotals> before,
                                java.util.List<EmbeddedDatabase.StatementTotals> after, int n) {
        java.util.Map<String, double[]> start = new java.util.HashMap<>();
        for (EmbeddedDatabase.StatementTotals t : before) {
            start.merge(t.query(), new double[] {t.calls(), t.millis()}, (a, b) -> new double[] {a[0] + b[0], a[1] + b[1]});
        }
        java.util.Map<String, double[]> run = new java.util.HashMap<>();
        for (EmbeddedDatabase.StatementTotals t : after) {
            double[] s = start.getOrDefault(t.query(), new double[2]);
            run.merge(t.query(), new double[] {t.calls() - s[0], t.millis() - s[1]},
                    (a, b) -> new double[] {a[0] + b[0], a[1] + b[1]});
        }
        double total = run.values().stream().mapToDouble(v -> v[1]).sum();
        StringBuilder b = new StringBuilder(String.format(java.util.Locale.ROOT,
                "PostgreSQL statements in the measured run: %,.0f ms of execution in all; the most:", total));
        run.entrySet().stream().filter(e -> e.getValue()[0] > 0)
                .sorted((x, y) -> Double.compare(y.getValue()[1], x.getValue()[1])).limit(n)
                .forEach(e -> {
                    String query = e.getKey().replaceAll("\\s+", " ").strip();
                    b.append(String.format(java.util.Locale.ROOT, "%n    %,8.0f ms %,9.0f calls %7.3f ms a call  %s",
                            e.getValue()[1], e.getValue()[0], e.getValue()[1] / e.getValue()[0],
                            query.substring(0, Math.min(110, query.length()))));
                });
        return b.toString();
    }

    /** The postmaster's pid, when this machine runs it (embedded): its backends' CPU is measured. */
    OptionalLong postmasterPid() {
        if (embedded == null) {
            return OptionalLong.empty();
        }
        try {
            String first = Files.readAllLines(embedded.dataDirectory().resolve("postmaster.pid")).get(0).trim();
            return OptionalLong.of(Long.parseLong(first));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * The settings that decide whether an acknowledged commit survives a crash, as the server runs
     * them ({@code SHOW}), plus any per-database or per-role overrides: every system of a run writes
     * to this one server, and neither the service nor the baseline server changes them per session.
     */
    java.util.Map<String, String> durabilitySettings() {
        java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (String name : new String[]{"fsync", "synchronous_commit", "full_page_writes", "wal_sync_method", "commit_delay"}) {
                try (java.sql.ResultSet rs = s.executeQuery("SHOW " + name)) {
                    m.put(name, rs.next() ? rs.getString(1) : "?");
                }
            }
            try (java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_db_role_setting")) {
                m.put("perDatabaseOrRoleOverrides", rs.next() ? rs.getString(1) : "?");
            }
        } catch (SQLException e) {
            m.put("error", e.getMessage());
        }
        return m;
    }

    String describe() {
        return embedded != null ? "embedded PostgreSQL on port " + embedded.port() + " (synchronous_commit on)" : url;
    }

    @Override
    public void close() {
        if (embedded != null) {
            embedded.close();
        }
    }
}
