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

            assertEquals(7, applied);
            assertEquals(List.of("booking_seats", "bookings", "events", "holds", "idempotency_replies",
                    "payment_events", "payments",
                    "seat_events", "seats", "show_blocks", "show_sections", "shows", "ticket_mail", "venues",
                    "waitlist_entries", "waitlist_mail"), names(ds, """
                    SELECT table_name FROM information_schema.tables
                    WHERE table_schema = 'public' AND table_name <> 'flyway_schema_history' ORDER BY 1"""));
            assertEquals(List.of("apply_seat_transition", "epoch_ms", "seat_transition_applied"), names(ds, """
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
