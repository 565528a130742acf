package org.boxoffice.mapstore;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The outbox's retention on a real PostgreSQL: only messages sent before the cut are deleted, in batches. */
class PostgresMessageRetentionTest {

    private static final long DAY = 86_400_000L;
    private static final long NOW = 1_900_000_000_000L;
    private static com.zaxxer.hikari.HikariDataSource db;

    @BeforeAll
    static void database() {
        db = TestDatabase.newDataSource(4);
        TestShows.save(new PostgresCatalogRepository(db), TestShows.small("mr-1"));
    }

    @AfterAll
    static void close() {
        db.close();
    }

    /** Writes {@code n} messages with subjects {@code prefix-i}: sent at {@code sentAt} (null: not yet), failed or not. */
    private static void messages(String prefix, int n, Long sentAt, boolean failed) throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement("""
                INSERT INTO messages (kind, channel, subject, show_id, account_id, due_at, sent_at, failed)
                SELECT 'HOLD_LAPSED', 'PAGE', ? || '-' || i, 'mr-1', 'fan', to_timestamp(?::bigint / 1000.0),
                       to_timestamp(?::bigint / 1000.0), ?
                FROM generate_series(1, ?) i""")) {
            ps.setString(1, prefix);
            ps.setLong(2, NOW - 60 * DAY);
            if (sentAt == null) {
                ps.setNull(3, java.sql.Types.BIGINT);
            } else {
                ps.setLong(3, sentAt);
            }
            ps.setBoolean(4, failed);
            ps.setInt(5, n);
            ps.executeUpdate();
        }
    }

    private static List<String> left() throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT split_part(subject, '-', 1), count(*) FROM messages GROUP BY 1 ORDER BY 1");
             ResultSet rs = ps.executeQuery()) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1) + " " + rs.getLong(2));
            }
            return out;
        }
    }

    @Test
    void messagesSentBeforeTheCut_areDeleted_inBatches_andNothingElse() throws SQLException {
        int many = PostgresMessageRetention.BATCH * 2 + 7;
        messages("old", many, NOW - 40 * DAY, false);
        messages("recent", 3, NOW - 2 * DAY, false);
        messages("unsent", 2, null, false);
        messages("failed", 2, null, true);
        PostgresMessageRetention retention = new PostgresMessageRetention((DataSource) db);

        assertEquals(many, retention.deleteSentBefore(NOW - 30 * DAY));
        assertEquals(List.of("failed 2", "recent 3", "unsent 2"), left());
        assertEquals(0, retention.deleteSentBefore(NOW - 30 * DAY), "a second run finds nothing");
    }
}
