package org.boxoffice.mapstore;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

            assertEquals(9, applied);
            assertEquals(List.of("booking_seats", "bookings", "events", "holds", "idempotency_replies",
                    "payment_events", "payments",
                    "seat_events", "seat_transitions", "seats", "show_blocks", "show_sections", "shows", "ticket_mail", "venues",
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
