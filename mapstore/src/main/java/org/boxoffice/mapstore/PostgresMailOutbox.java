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
import java.util.function.UnaryOperator;
import org.boxoffice.domain.MailOutbox;
import org.boxoffice.domain.MailOutbox.Message;
import org.boxoffice.domain.MailOutbox.OfferMail;
import org.boxoffice.domain.MailOutbox.TicketMail;

import static org.boxoffice.mapstore.PostgresInventoryRepository.strings;
import static org.boxoffice.mapstore.PostgresInventoryRepository.timestamp;

/**
 * A mail outbox on PostgreSQL, one table per kind of mail: {@code ticket_mail} (written with the
 * booking by {@link PostgresBookingRepository#book}), {@code waitlist_mail} (written with the
 * offer by {@link PostgresWaitlistRepository#offered}) and {@code messages}, one outbox per channel
 * (written with the booking, by the hold's lapse, with a waitlist offer, by {@link PostgresContactRepository#noteLapsingOffers}).
 * The tables share the outbox columns
 * ({@code mail_id, recipient, attempts, due_at, sent_at, failed, last_error, created_at}); a kind adds only how
 * its claimed rows are read.
 *
 * <p>A claim is one statement that leases due rows with {@code FOR UPDATE SKIP LOCKED}, so
 * dispatchers on several members never take the same mail at once, and a dispatcher that dies
 * mid-send only delays its mails by the lease. Thread-safe.
 */
public final class PostgresMailOutbox<M extends MailOutbox.Mail> implements MailOutbox<M> {

    private static final int MAX_ERROR = 500;

    private final DataSource dataSource;
    private final String kind;
    private final String claimSql;
    private final String sentSql;
    private final String sentManySql;
    private final String failedSql;
    private final PostgresBookingRepository.Row<M> row;

    /**
     * @param claimed a query over {@code claimed} (the rows just leased, all columns of
     *                {@code table}) whose rows {@code row} reads
     */
    private PostgresMailOutbox(DataSource dataSource, String table, String kind, String claimed,
                               PostgresBookingRepository.Row<M> row) {
        this(dataSource, table, "true", kind, claimed, row);
    }

    /** @param which the rows of {@code table} this outbox holds, an SQL condition */
    private PostgresMailOutbox(DataSource dataSource, String table, String which, String kind, String claimed,
                               PostgresBookingRepository.Row<M> row) {
        this.dataSource = Objects.requireNonNull(dataSource);
        this.kind = kind;
        this.claimSql = """
                WITH claimed AS (
                    UPDATE %1$s SET attempts = attempts + 1, due_at = ?
                    WHERE mail_id IN (SELECT mail_id FROM %1$s
                                      WHERE sent_at IS NULL AND NOT failed AND due_at <= ? AND %2$s
                                      ORDER BY due_at LIMIT ? FOR UPDATE SKIP LOCKED)
                    RETURNING *)
                """.formatted(table, which) + claimed;
        this.sentSql = "UPDATE " + table + " SET sent_at = ?, last_error = NULL WHERE mail_id = ? AND sent_at IS NULL";
        this.sentManySql = "UPDATE " + table + " SET sent_at = ?, last_error = NULL WHERE mail_id = ANY (?) AND sent_at IS NULL";
        // created_at and now() are both PostgreSQL's clock: a member's clock does not move a deadline
        this.failedSql = "UPDATE " + table + " SET last_error = ?, due_at = ?,"
                + " failed = created_at <= now() - ? * interval '1 millisecond'"
                + " WHERE mail_id = ? AND sent_at IS NULL RETURNING failed";
        this.row = row;
    }

    /** Ticket mails, table {@code ticket_mail}. */
    public static PostgresMailOutbox<TicketMail> ticketMails(DataSource dataSource) {
        return new PostgresMailOutbox<>(dataSource, "ticket_mail", "ticket mail",
                "SELECT mail_id, booking_id, recipient, attempts FROM claimed",
                rs -> new TicketMail(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getInt(4)));
    }

    /** Offer mails, table {@code waitlist_mail}; the offer's show, seats and expiry come from its waitlist entry. */
    public static PostgresMailOutbox<OfferMail> offerMails(DataSource dataSource) {
        return new PostgresMailOutbox<>(dataSource, "waitlist_mail", "offer mail", """
                SELECT m.mail_id, m.entry_id, m.hold_id, e.show_id, e.account_id, m.recipient, e.seat_ids,
                       coalesce(epoch_ms(e.offer_expires_at), 0), m.attempts, e.area, e.quantity
                FROM claimed m JOIN waitlist_entries e ON e.entry_id = m.entry_id""",
                rs -> new OfferMail(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getString(5),
                        rs.getString(6), List.of(strings(rs.getArray(7))), rs.getString(10), rs.getInt(11), rs.getLong(8),
                        rs.getInt(9)));
    }

    /**
     * The messages of one channel, table {@code messages}; an email without an address of its own
     * goes to {@code defaultAddress} of its account.
     */
    public static PostgresMailOutbox<Message> messages(DataSource dataSource, Message.Channel channel,
                                                       UnaryOperator<String> defaultAddress) {
        return new PostgresMailOutbox<>(dataSource, "messages", "channel = '" + channel.name() + "'",
                channel.name().toLowerCase(java.util.Locale.ROOT) + " message", """
                SELECT m.mail_id, m.kind, m.channel, m.subject, m.show_id, m.account_id, m.recipient,
                       coalesce(epoch_ms(m.expires_at), 0), m.attempts, e.entry_id, e.seat_ids, e.area, e.quantity
                FROM claimed m
                LEFT JOIN waitlist_entries e ON m.kind IN ('OFFER_MADE', 'OFFER_LAPSING', 'HOLD_LAPSED')
                                                AND e.hold_id = m.subject""",
                rs -> {
                    String account = rs.getString(6);
                    String recipient = rs.getString(7);
                    Message.Channel ch = Message.Channel.valueOf(rs.getString(3));
                    rs.getLong(10);
                    Message.Offered offer = rs.wasNull() ? null : new Message.Offered(
                            List.of(strings(rs.getArray(11))), rs.getString(12), rs.getInt(13));
                    return new Message(rs.getLong(1), Message.Kind.valueOf(rs.getString(2)), ch, rs.getString(4),
                            rs.getString(5), account,
                            recipient == null && ch == Message.Channel.EMAIL ? defaultAddress.apply(account) : recipient,
                            rs.getLong(8), offer, rs.getInt(9));
                });
    }

    /**
     * Hands text message {@code mailId}, a notice that went by SMS instead of by email (a lapse, an
     * offer's coming lapse), to the email channel, in one statement: the text is marked failed with
     * {@code why}, and an email of the same notice is written (to the account's address), once. A
     * ticket text, which the ticket mail goes beside, or a message already sent or given up, is left
     * alone. Answers whether the message was handed over (the email may have existed already).
     */
    public static boolean smsToEmail(DataSource dataSource, long mailId, String why) {
        String sql = """
                WITH off AS (
                    UPDATE messages SET failed = true, last_error = ?
                    WHERE mail_id = ? AND channel = 'SMS' AND kind IN ('HOLD_LAPSED', 'OFFER_LAPSING')
                      AND sent_at IS NULL AND NOT failed
                    RETURNING kind, subject, show_id, account_id, expires_at),
                mailed AS (
                    INSERT INTO messages (kind, channel, subject, show_id, account_id, recipient, expires_at, due_at)
                    SELECT kind, 'EMAIL', subject, show_id, account_id, NULL, expires_at, now() FROM off
                    ON CONFLICT ON CONSTRAINT messages_once DO NOTHING)
                SELECT count(*) FROM off""";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, why.length() > MAX_ERROR ? why.substring(0, MAX_ERROR) : why);
            ps.setLong(2, mailId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getLong(1) > 0;
            }
        } catch (SQLException e) {
            throw new DatabaseException("handing text message " + mailId + " to email", e);
        }
    }

    /**
     * The messages not yet sent nor given up, by channel ({@code email}: ticket mails, offer mails and
     * the email messages; {@code sms}; {@code page}), every channel present. One statement, over the
     * outboxes' partial indexes of pending rows.
     */
    public static java.util.Map<String, Backlog> backlog(DataSource dataSource) {
        String sql = """
                SELECT channel, count(*)::int, coalesce(epoch_ms(min(created_at)), 0) FROM (
                    SELECT 'email' AS channel, created_at FROM ticket_mail WHERE sent_at IS NULL AND NOT failed
                    UNION ALL SELECT 'email', created_at FROM waitlist_mail WHERE sent_at IS NULL AND NOT failed
                    UNION ALL SELECT lower(channel), created_at FROM messages WHERE sent_at IS NULL AND NOT failed
                ) pending GROUP BY channel""";
        java.util.Map<String, Backlog> out = new java.util.TreeMap<>();
        for (Message.Channel channel : Message.Channel.values()) {
            out.put(channel.name().toLowerCase(java.util.Locale.ROOT), new Backlog(0, 0));
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.put(rs.getString(1), new Backlog(rs.getInt(2), rs.getLong(3)));
            }
            return out;
        } catch (SQLException e) {
            throw new DatabaseException("counting the messages waiting in the outboxes", e);
        }
    }

    @Override
    public List<M> claim(int max, long now, long leaseMillis) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(claimSql)) {
            ps.setObject(1, timestamp(now + leaseMillis), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setObject(2, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setInt(3, max);
            List<M> mails = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    mails.add(row.map(rs));
                }
            }
            return mails;
        } catch (SQLException e) {
            throw new DatabaseException("claiming " + kind + "s", e);
        }
    }

    @Override
    public void sent(long mailId, long now) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sentSql)) {
            ps.setObject(1, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setLong(2, mailId);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new DatabaseException("marking " + kind + " " + mailId + " sent", e);
        }
    }

    @Override
    public void sent(java.util.Collection<Long> mailIds, long now) {
        if (mailIds.isEmpty()) {
            return;
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sentManySql)) {
            ps.setObject(1, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setArray(2, c.createArrayOf("bigint", mailIds.toArray()));
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new DatabaseException("marking " + mailIds.size() + " " + kind + "s sent", e);
        }
    }

    @Override
    public boolean failed(long mailId, String error, long retryAt, long retryForMillis) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(failedSql)) {
            ps.setString(1, error == null ? "unknown error"
                    : error.length() > MAX_ERROR ? error.substring(0, MAX_ERROR) : error);
            ps.setObject(2, timestamp(retryAt), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setLong(3, Math.max(0, retryForMillis));
            ps.setLong(4, mailId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        } catch (SQLException e) {
            throw new DatabaseException("recording a failed send of " + kind + " " + mailId, e);
        }
    }
}
