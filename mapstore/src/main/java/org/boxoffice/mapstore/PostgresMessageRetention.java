package org.boxoffice.mapstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Objects;
import javax.sql.DataSource;
import org.boxoffice.domain.MessageRetention;

import static org.boxoffice.mapstore.PostgresInventoryRepository.timestamp;

/**
 * Keeps the {@code messages} outbox (migration V18) from growing for ever: messages sent before a
 * moment are deleted, a batch per statement so no one transaction holds many rows. Messages not sent
 * yet, and messages given up ({@code failed}, kept for whoever looks into why), stay. Safe on every
 * member at once: a row is deleted once, whoever gets there first. Thread-safe; one pooled
 * connection per batch.
 *
 * <p>Deleting a sent message lets a message of the same (kind, subject, channel) be written again;
 * no fact is told again that late (a booking's tickets are written when it is made, a lapse by the
 * one update that ends the hold, an offer's notice only while the offer is open), so keeping sent
 * messages a day or more is enough to keep each notice once.
 */
public final class PostgresMessageRetention implements MessageRetention {

    /** Rows deleted per statement. */
    public static final int BATCH = 1_000;

    private final DataSource dataSource;

    public PostgresMessageRetention(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource);
    }

    @Override
    public int deleteSentBefore(long sentBefore) {
        int deleted = 0;
        int batch;
        do {
            batch = deleteBatch(sentBefore);
            deleted += batch;
        } while (batch == BATCH);
        return deleted;
    }

    private int deleteBatch(long sentBefore) {
        // SKIP LOCKED: a row a dispatcher is marking right now is left for the next round
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                DELETE FROM messages WHERE mail_id IN (
                    SELECT mail_id FROM messages WHERE sent_at < ? ORDER BY mail_id LIMIT ? FOR UPDATE SKIP LOCKED)""")) {
            ps.setObject(1, timestamp(sentBefore), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setInt(2, BATCH);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new DatabaseException("deleting messages sent before " + sentBefore, e);
        }
    }
}
