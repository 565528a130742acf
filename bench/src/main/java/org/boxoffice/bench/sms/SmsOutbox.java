package org.boxoffice.bench.sms;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;

/**
 * The service's SMS outbox as PostgreSQL has it ({@code messages}, channel {@code SMS}): what was
 * queued for one show (or every show), sent, given up, and the message ids the service sends them
 * under ({@code sms-<mail_id>}, as its dispatcher names them).
 *
 * @param queued     messages written (tickets of a booking, a lapsed hold's notice)
 * @param sent       of those, marked sent
 * @param givenUp    of those, given up after the last attempt
 * @param attempts   sends of them all (each claim by a dispatcher counts one, so attempts less sent is the
 *                   sends that failed or were cut short)
 * @param messageIds the ids the provider sees
 */
public record SmsOutbox(long queued, long sent, long givenUp, long attempts, Set<String> messageIds) {

    /** The prefix the service's SMS dispatcher puts before a message's row id. */
    static final String ID_PREFIX = "sms-";

    /** Every message is either sent or given up. */
    public boolean settled() {
        return sent + givenUp == queued;
    }

    /** How many SMS of {@code showId} were marked sent by {@code epochMillis}. */
    public static long sentBy(Connection c, String showId, long epochMillis) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM messages WHERE channel = 'SMS' AND show_id = ?"
                + " AND sent_at <= to_timestamp(? / 1000.0)")) {
            ps.setString(1, showId);
            ps.setLong(2, epochMillis);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The SMS messages of {@code showId}, or of every show when it is null. */
    public static SmsOutbox read(Connection c, String showId) throws SQLException {
        String sql = "SELECT mail_id, sent_at IS NOT NULL, failed, attempts FROM messages WHERE channel = 'SMS'"
                + (showId == null ? "" : " AND show_id = ?");
        long queued = 0;
        long sent = 0;
        long givenUp = 0;
        long attempts = 0;
        Set<String> ids = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            if (showId != null) {
                ps.setString(1, showId);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    queued++;
                    ids.add(ID_PREFIX + rs.getLong(1));
                    if (rs.getBoolean(2)) {
                        sent++;
                    }
                    if (rs.getBoolean(3)) {
                        givenUp++;
                    }
                    attempts += rs.getInt(4);
                }
            }
        }
        return new SmsOutbox(queued, sent, givenUp, attempts, Set.copyOf(ids));
    }
}
