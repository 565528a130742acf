package org.boxoffice.bench.check;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A show's bookings, live tickets and money as PostgreSQL has them (the V3 checkout tables), for
 * {@link BookingChecker}. Read in one repeatable-read transaction, so the sums and the rows agree
 * with each other while settlements go on.
 *
 * @param bookingsByHold     every booking of the show, by the hold it was paid from
 * @param liveBookingsBySeat the bookings whose ticket for the seat is live
 */
public record BookingState(Map<String, BookingRow> bookingsByHold, Map<String, List<Long>> liveBookingsBySeat,
                           Money money) {

    public record BookingRow(long bookingId, String holdId, String status, List<String> seatIds, long amountCents) {
    }

    /**
     * The show's payments in cents.
     *
     * @param capturedCents attempts the provider captured
     * @param refundedCents of those, refunded (refunds are of the whole attempt)
     * @param confirmedCents CONFIRMED bookings
     * @param unsettled     captured attempts not yet booked or rejected, plus refunds asked for and not made
     */
    public record Money(long capturedCents, long refundedCents, long confirmedCents, long unsettled) {

        public boolean conserved() {
            return capturedCents - refundedCents == confirmedCents;
        }

        /** Nothing more will move by itself: every settlement and refund has finished. */
        public boolean settled() {
            return unsettled == 0;
        }
    }

    public static BookingState load(Connection c, String showId) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        int isolation = c.getTransactionIsolation();
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        try {
            Map<String, BookingRow> bookings = new HashMap<>();
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT booking_id, hold_id, status, seat_ids, amount_cents FROM bookings WHERE show_id = ?")) {
                s.setString(1, showId);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        bookings.put(rs.getString(2), new BookingRow(rs.getLong(1), rs.getString(2), rs.getString(3),
                                List.of((String[]) rs.getArray(4).getArray()), rs.getLong(5)));
                    }
                }
            }
            Map<String, List<Long>> live = new HashMap<>();
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT seat_id, booking_id FROM booking_seats WHERE show_id = ? AND live")) {
                s.setString(1, showId);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        live.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getLong(2));
                    }
                }
            }
            Money money;
            try (PreparedStatement s = c.prepareStatement("""
                    SELECT coalesce(sum(amount_cents) FILTER (WHERE status = 'CAPTURED'), 0),
                           coalesce(sum(amount_cents) FILTER (WHERE status = 'CAPTURED' AND refund = 'REFUNDED'), 0),
                           (SELECT coalesce(sum(amount_cents), 0) FROM bookings WHERE show_id = ? AND status = 'CONFIRMED'),
                           count(*) FILTER (WHERE (status = 'CAPTURED' AND settlement IN ('NONE', 'SETTLING'))
                                                  OR refund = 'REQUESTED')
                    FROM payments WHERE show_id = ?""")) {
                s.setString(1, showId);
                s.setString(2, showId);
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    money = new Money(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4));
                }
            }
            c.commit();
            return new BookingState(bookings, live, money);
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
            c.setTransactionIsolation(isolation);
        }
    }
}
