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
import org.boxoffice.domain.TicketOutbox;

import static org.boxoffice.mapstore.PostgresInventoryRepository.timestamp;

/**
 * The ticket-mail outbox on PostgreSQL (table {@code ticket_mail}, written by
 * {@link PostgresBookingRepository#book}). A claim is one statement that leases due rows with
 * {@code FOR UPDATE SKIP LOCKED}, so dispatchers on several members never take the same mail at
 * once, and a dispatcher that dies mid-send only delays its mails by the lease. Thread-safe.
 */
public final class PostgresTicketOutbox implements TicketOutbox {

    private static final int MAX_ERROR = 500;

    private final DataSource dataSource;

    public PostgresTicketOutbox(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource);
    }

    @Override
    public List<TicketMail> claim(int max, long now, long leaseMillis) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                UPDATE ticket_mail SET attempts = attempts + 1, due_at = ?
                WHERE mail_id IN (SELECT mail_id FROM ticket_mail
                                  WHERE sent_at IS NULL AND NOT failed AND due_at <= ?
                                  ORDER BY due_at LIMIT ? FOR UPDATE SKIP LOCKED)
                RETURNING mail_id, booking_id, recipient, attempts""")) {
            ps.setObject(1, timestamp(now + leaseMillis), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setObject(2, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setInt(3, max);
            List<TicketMail> mails = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    mails.add(new TicketMail(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getInt(4)));
                }
            }
            return mails;
        } catch (SQLException e) {
            throw new DatabaseException("claiming ticket mails", e);
        }
    }

    @Override
    public void sent(long mailId, long now) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "UPDATE ticket_mail SET sent_at = ?, last_error = NULL WHERE mail_id = ? AND sent_at IS NULL")) {
            ps.setObject(1, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setLong(2, mailId);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new DatabaseException("marking ticket mail " + mailId + " sent", e);
        }
    }

    @Override
    public void failed(long mailId, String error, long retryAt, boolean giveUp) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "UPDATE ticket_mail SET last_error = ?, due_at = ?, failed = ? WHERE mail_id = ? AND sent_at IS NULL")) {
            ps.setString(1, error == null ? "unknown error"
                    : error.length() > MAX_ERROR ? error.substring(0, MAX_ERROR) : error);
            ps.setObject(2, timestamp(retryAt), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setBoolean(3, giveUp);
            ps.setLong(4, mailId);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new DatabaseException("recording a failed send of ticket mail " + mailId, e);
        }
    }
}
