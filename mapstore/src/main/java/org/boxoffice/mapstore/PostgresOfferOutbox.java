package org.boxoffice.mapstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;
import org.boxoffice.domain.OfferOutbox;

import static org.boxoffice.mapstore.PostgresInventoryRepository.strings;
import static org.boxoffice.mapstore.PostgresInventoryRepository.timestamp;

/**
 * The offer-mail outbox on PostgreSQL (table {@code waitlist_mail}, written by
 * {@link PostgresWaitlistRepository#offered}). Claims lease due rows with
 * {@code FOR UPDATE SKIP LOCKED} in one statement, as the ticket-mail outbox does, so dispatchers
 * on several members never send one mail at once. Thread-safe.
 */
public final class PostgresOfferOutbox implements OfferOutbox {

    private static final int MAX_ERROR = 500;

    private final DataSource dataSource;

    public PostgresOfferOutbox(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource);
    }

    @Override
    public List<OfferMail> claim(int max, long now, long leaseMillis) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                UPDATE waitlist_mail m SET attempts = m.attempts + 1, due_at = ?
                FROM waitlist_entries e
                WHERE m.mail_id IN (SELECT mail_id FROM waitlist_mail
                                    WHERE sent_at IS NULL AND NOT failed AND due_at <= ?
                                    ORDER BY due_at LIMIT ? FOR UPDATE SKIP LOCKED)
                  AND e.entry_id = m.entry_id
                RETURNING m.mail_id, m.entry_id, m.hold_id, e.show_id, e.account_id, m.recipient, e.seat_ids,
                          coalesce(epoch_ms(e.offer_expires_at), 0), m.attempts""")) {
            ps.setObject(1, timestamp(now + leaseMillis), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setObject(2, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setInt(3, max);
            List<OfferMail> mails = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    mails.add(new OfferMail(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6), List.of(strings(rs.getArray(7))), rs.getLong(8),
                            rs.getInt(9)));
                }
            }
            return mails;
        } catch (SQLException e) {
            throw new DatabaseException("claiming offer mails", e);
        }
    }

    @Override
    public void sent(long mailId, long now) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "UPDATE waitlist_mail SET sent_at = ?, last_error = NULL WHERE mail_id = ? AND sent_at IS NULL")) {
            ps.setObject(1, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setLong(2, mailId);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new DatabaseException("marking offer mail " + mailId + " sent", e);
        }
    }

    @Override
    public void failed(long mailId, String error, long retryAt, boolean giveUp) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "UPDATE waitlist_mail SET last_error = ?, due_at = ?, failed = ? WHERE mail_id = ? AND sent_at IS NULL")) {
            ps.setString(1, error == null ? "unknown error"
                    : error.length() > MAX_ERROR ? error.substring(0, MAX_ERROR) : error);
            ps.setObject(2, timestamp(retryAt), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setBoolean(3, giveUp);
            ps.setLong(4, mailId);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new DatabaseException("recording a failed send of offer mail " + mailId, e);
        }
    }
}
