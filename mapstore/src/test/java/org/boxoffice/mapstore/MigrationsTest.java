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
import org.junit.jupiter.api.Test;

class MigrationsTest {

    @Test
    void migrate_createsTheInventorySchemaAndTheTransitionFunction_onAnEmptyDatabase() throws SQLException {
        try (HikariDataSource ds = DataSources.pooled(TestDatabase.newEmptySettings())) {
            int applied = Migrations.migrate(ds);

            assertEquals(14, applied);
            assertEquals(List.of("booking_seats", "bookings", "demo_secrets", "events", "holds", "idempotency_replies",
                    "payment_events", "payments", "referee",
                    "seat_events", "seat_transitions", "seats", "show_blocks", "show_sections", "shows", "spent_challenges",
                    "ticket_mail", "venues", "waiting_room_admissions", "waiting_room_places", "waiting_rooms",
                    "waitlist_entries", "waitlist_mail"), names(ds, """
                    SELECT table_name FROM information_schema.tables
                    WHERE table_schema = 'public' AND table_name <> 'flyway_schema_history' ORDER BY 1"""));
            assertEquals(List.of("apply_seat_transition", "apply_seat_transitions", "apply_seat_transitions_one_by_one",
                    "epoch_ms", "seat_keys",
                    "seat_transition_applied"), names(ds, """
                    SELECT routine_name FROM information_schema.routines
                    WHERE routine_schema = 'public' ORDER BY 1"""));
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
    void migrate_keepsTheAuditTrailWrittenSeatBySeat_asOneSeatTransitionsInTheirOrder() throws SQLException {
        try (HikariDataSource ds = DataSources.pooled(TestDatabase.newEmptySettings())) {
            org.flywaydb.core.Flyway.configure().dataSource(ds).locations(Migrations.LOCATION).target("4").load().migrate();
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
    void migrate_keepsTheSeatHistoryIndexValid_whenSeatKeysIsRewritten() throws SQLException {
        try (HikariDataSource ds = DataSources.pooled(TestDatabase.newEmptySettings())) {
            org.flywaydb.core.Flyway.configure().dataSource(ds).locations(Migrations.LOCATION).target("11").load().migrate();
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
}
