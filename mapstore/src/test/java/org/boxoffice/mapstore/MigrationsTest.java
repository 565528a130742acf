package org.boxoffice.mapstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigrationsTest {

    @Test
    void migrate_createsTheInventorySchemaAndTheTransitionFunction_onAnEmptyDatabase() throws SQLException {
        try (HikariDataSource ds = DataSources.pooled(TestDatabase.newEmptySettings())) {
            int applied = Migrations.migrate(ds);

            assertEquals(28, applied); // 22 versioned, then 6 repeatable
            assertEquals(List.of("account_contacts", "admission_areas", "admission_hold_parts", "admission_stripes", "booking_seats", "bookings", "demo_secrets", "events", "gate_scans", "holds",
                    "idempotency_replies", "messages", "payment_events", "payments", "referee",
                    "seat_events", "seat_transitions", "seats", "show_blocks", "show_gate_keys", "show_sections", "shows", "spent_challenges",
                    "ticket_mail", "ticket_transfers", "venues", "waiting_room_admissions", "waiting_room_places", "waiting_rooms",
                    "waitlist_entries", "waitlist_mail"), names(ds, """
                    SELECT table_name FROM information_schema.tables
                    WHERE table_schema = 'public' AND table_name <> 'flyway_schema_history' ORDER BY 1"""));
            assertEquals(List.of("apply_admission_batch", "apply_admission_change", "apply_seat_transition", "apply_seat_transitions",
                    "apply_seat_transitions_one_by_one", "check_admission_capacity", "create_admission_area",
                    "epoch_ms", "move_admission_capacity", "note_lapsed_hold", "resize_admission_area", "seat_keys",
                    "seat_transition_applied"), names(ds, """
                    SELECT routine_name FROM information_schema.routines
                    WHERE routine_schema = 'public' ORDER BY 1"""));
        }
    }

    /**
     * A database made by a release before the functions and views moved to repeatable migrations
     * (the versioned chain alone, as every existing demo data folder holds it) migrates without a
     * complaint from Flyway's validation, and ends with the same functions and views as a new one.
     */
    @Test
    void migrate_bringsADatabaseOfTheVersionedChainAlone_toTheSchemaOfANewOne(@TempDir Path oldRelease) throws Exception {
        try (HikariDataSource old = DataSources.pooled(TestDatabase.newEmptySettings());
             HikariDataSource fresh = DataSources.pooled(TestDatabase.newEmptySettings())) {
            int versioned = releasedUpTo(old, oldRelease, "16");
            execute(old, "INSERT INTO seat_transitions (show_id, block_id, at, actor, kind, reason, hold_id, new_state, "
                    + "seat_ids, idxs, old_states, old_holds, old_versions) VALUES ('s1', 0, now(), 'acc-1', 'HOLD', "
                    + "'hold', 'h1', 'HELD', '{A-1-1}', '{0}', '{AVAILABLE}', '{NULL}', '{0}')");

            int now = Migrations.migrate(old);
            Migrations.migrate(fresh);

            assertEquals(14, versioned);
            assertEquals(14, now, "only the later versioned migrations (V18 to V25) and the repeatable ones were pending");
            assertEquals(0, Migrations.migrate(old));
            assertEquals(definitions(fresh), definitions(old));
            assertEquals(List.of("HOLD h1 0->1"), names(old, """
                    SELECT kind || ' ' || hold_id || ' ' || old_version || '->' || new_version
                    FROM seat_events WHERE show_id = 's1' AND seat_id = 'A-1-1'"""));
        }
    }

    /**
     * Released versioned migrations never change: Flyway compares each one's checksum with the one
     * recorded in every database it ran on, and refuses to start on a mismatch. Functions and
     * views change in the repeatable migrations ({@code R__*.sql}) instead.
     */
    @Test
    void versionedMigrations_keepTheChecksumsTheyWereReleasedWith() {
        try (HikariDataSource ds = DataSources.pooled(TestDatabase.newEmptySettings())) {
            Map<String, Integer> checksums = new TreeMap<>();
            for (MigrationInfo m : Flyway.configure().dataSource(ds).locations(Migrations.LOCATION).load().info().all()) {
                if (m.getVersion() != null) {
                    checksums.put(m.getVersion().getVersion(), m.getChecksum());
                }
            }

            assertEquals(RELEASED, checksums);
        }
    }

    /** The versioned migrations as released, by version: their checksums as Flyway computes them. */
    private static final Map<String, Integer> RELEASED = new TreeMap<>(Map.ofEntries(
            Map.entry("1", 1747105273),
            Map.entry("2", -802849616),
            Map.entry("3", -1693306353),
            Map.entry("4", 1031760448),
            Map.entry("5", 946534025),
            Map.entry("6", -564234030),
            Map.entry("7", -2046284847),
            Map.entry("10", -1605308912),
            Map.entry("11", 170118656),
            Map.entry("12", -1735533465),
            Map.entry("13", -1773019888),
            Map.entry("14", 267509509),
            Map.entry("15", 1434367327),
            Map.entry("16", -1718174000),
            Map.entry("18", -1182397586),
            Map.entry("19", -1140833864),
            Map.entry("20", -777471556),
            Map.entry("21", 248901537),
            Map.entry("22", 1120746638),
            Map.entry("23", -275147675),
            Map.entry("24", 2083862596),
            Map.entry("25", 450881157)));

    /** The last versioned migration released with a function or view in it; none after it may define one. */
    private static final int LAST_WITH_DEFINITIONS = 23;

    /**
     * Functions and views live in the repeatable migrations only, so that a change to one is a change
     * of its one live definition: a versioned migration after {@value #LAST_WITH_DEFINITIONS} that
     * created one would be a second definition, frozen by its checksum. (A versioned migration may
     * still drop one, to change its name, arguments or result.)
     */
    @Test
    void versionedMigrations_afterTheLastReleasedWithOne_defineNoFunctionOrView() throws Exception {
        Pattern definition = Pattern.compile("\\bCREATE\\s+(OR\\s+REPLACE\\s+)?(FUNCTION|PROCEDURE|VIEW|MATERIALIZED\\s+VIEW)\\b",
                Pattern.CASE_INSENSITIVE);
        Path released = Path.of(Migrations.class.getResource("/db/migration").toURI());
        List<String> offending = new ArrayList<>();
        int checked = 0;
        try (Stream<Path> files = Files.list(released)) {
            for (Path f : files.sorted().toList()) {
                Matcher name = Pattern.compile("V(\\d+)__.*\\.sql").matcher(f.getFileName().toString());
                if (!name.matches() || Integer.parseInt(name.group(1)) <= LAST_WITH_DEFINITIONS) {
                    continue;
                }
                checked++;
                String sql = Files.readString(f).replaceAll("--[^\\n]*", "");
                if (definition.matcher(sql).find()) {
                    offending.add(f.getFileName().toString());
                }
            }
        }

        assertTrue(checked > 0, "the rule looks at the migrations after V" + LAST_WITH_DEFINITIONS);
        assertEquals(List.of(), offending, "functions and views go in a repeatable migration (R__*.sql)");
        assertTrue(definition.matcher("create or replace view v as select 1").find(), "the rule finds a view");
    }

    /**
     * A repeatable migration a later release renamed or dropped leaves its applied row in Flyway's
     * history; the start must not stop on it, nor on a newer release's versioned migrations.
     */
    @Test
    void migrate_startsOnADatabaseWhoseHistoryHasRepeatableMigrationsTheScriptsNoLongerHave(@TempDir Path without)
            throws Exception {
        try (HikariDataSource ds = DataSources.pooled(TestDatabase.newEmptySettings())) {
            Migrations.migrate(ds);

            assertEquals(0, Migrations.flyway(ds, "filesystem:" + versionedOnly(without)).migrate().migrationsExecuted);
            Files.delete(without.resolve("V25__admission_takes_together.sql"));
            assertEquals(0, Migrations.flyway(ds, "filesystem:" + without).migrate().migrationsExecuted);
        }
    }

    @Test
    void migrate_appliesNothing_whenTheSchemaIsCurrent() {
        try (HikariDataSource ds = DataSources.pooled(TestDatabase.newEmptySettings())) {
            Migrations.migrate(ds);

            assertEquals(0, Migrations.migrate(ds));
        }
    }

    @Test
    void migrate_keepsTheAuditTrailWrittenSeatBySeat_asOneSeatTransitionsInTheirOrder(@TempDir Path release) throws Exception {
        try (HikariDataSource ds = DataSources.pooled(TestDatabase.newEmptySettings())) {
            releasedUpTo(ds, release, "4");
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.executeUpdate("""
                        INSERT INTO seat_events (show_id, seat_id, block_id, idx, at, actor, kind, reason, hold_id,
                                                 booking_id, old_state, new_state, old_version, new_version)
                        VALUES ('s1', 'A-1-1', 0, 0, now(), 'acc-1', 'HOLD', 'hold', 'h1', NULL, 'AVAILABLE', 'HELD', 0, 1),
                               ('s1', 'A-1-2', 0, 1, now(), 'acc-1', 'HOLD', 'hold', 'h1', NULL, 'AVAILABLE', 'HELD', 0, 1),
                               ('s1', 'A-1-1', 0, 0, now(), 'system:sweeper', 'EXPIRE', 'lapsed', 'h1', NULL, 'HELD', 'AVAILABLE', 1, 2)""");
            }

            Migrations.migrate(ds);

            assertEquals(List.of("HOLD h1 0->1", "EXPIRE h1 1->2"), names(ds, """
                    SELECT kind || ' ' || hold_id || ' ' || old_version || '->' || new_version
                    FROM seat_events WHERE show_id = 's1' AND seat_id = 'A-1-1' ORDER BY event_id"""));
            assertEquals(List.of("3"), names(ds, "SELECT count(*)::text FROM seat_transitions"));
        }
    }

    /**
     * V12 rewrote seat_keys, the audit's GIN index expression, without rebuilding the index: the
     * entries written by the old function must still be found through the index, next to new ones.
     */
    @Test
    void migrate_keepsTheSeatHistoryIndexValid_whenSeatKeysIsRewritten(@TempDir Path release) throws Exception {
        try (HikariDataSource ds = DataSources.pooled(TestDatabase.newEmptySettings())) {
            releasedUpTo(ds, release, "11");
            String insert = """
                    INSERT INTO seat_transitions (show_id, block_id, at, actor, kind, reason, hold_id, new_state, seat_ids,
                                                  idxs, old_states, old_holds, old_versions)
                    VALUES ('s1', 0, now(), 'acc-1', 'HOLD', 'hold', '%s', 'HELD', '{A-1-1,A-1-2}', '{0,1}',
                            '{AVAILABLE,AVAILABLE}', '{NULL,NULL}', '{%d,%d}')""";
            String before = names(ds, "SELECT seat_keys('s1', '{A-1-1,A-1-2}')::text").get(0);
            execute(ds, insert.formatted("h-old", 0, 0));

            Migrations.migrate(ds);
            execute(ds, insert.formatted("h-new", 1, 1));

            assertEquals(before, names(ds, "SELECT seat_keys('s1', '{A-1-1,A-1-2}')::text").get(0));
            assertEquals(List.of("{}"), names(ds, "SELECT seat_keys('s1', '{}')::text"));
            String lookup = "FROM seat_transitions WHERE seat_keys(show_id, seat_ids) @> ARRAY['s1|A-1-2']";
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                c.setAutoCommit(false);
                s.execute("SET LOCAL enable_seqscan = off");
                assertTrue(rows(s, "EXPLAIN SELECT hold_id " + lookup).toString().contains("seat_transitions_seat"),
                        "the history is not looked up through the index");
                assertEquals(List.of("h-old", "h-new"), rows(s, "SELECT hold_id " + lookup + " ORDER BY transition_id"));
                c.rollback();
            }
        }
    }

    private static void execute(HikariDataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }

    private static List<String> rows(Statement s, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }

    private static List<String> names(HikariDataSource ds, String sql) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    /**
     * Migrates {@code ds} as a release up to {@code version} did: with the versioned migrations
     * alone (copied to {@code dir}), as there were no repeatable ones then. Returns how many ran.
     */
    private static int releasedUpTo(HikariDataSource ds, Path dir, String version) throws Exception {
        return Flyway.configure().dataSource(ds).locations("filesystem:" + versionedOnly(dir)).target(version)
                .load().migrate().migrationsExecuted;
    }

    /** The versioned migrations alone, copied to {@code dir}. */
    private static Path versionedOnly(Path dir) throws Exception {
        Path released = Path.of(Migrations.class.getResource("/db/migration").toURI());
        try (Stream<Path> files = Files.list(released)) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("V")).toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        return dir;
    }

    /** Every function's and view's definition in the public schema, as PostgreSQL prints it. */
    private static List<String> definitions(HikariDataSource ds) throws SQLException {
        return names(ds, """
                SELECT pg_get_functiondef(p.oid) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                WHERE n.nspname = 'public'
                UNION ALL
                SELECT 'VIEW ' || viewname || ' ' || definition FROM pg_views WHERE schemaname = 'public'
                ORDER BY 1""");
    }
}
