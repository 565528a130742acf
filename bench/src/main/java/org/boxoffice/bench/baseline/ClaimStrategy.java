package org.boxoffice.bench.baseline;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

/**
 * The two ways a team would claim seats with PostgreSQL alone, each in one short transaction that
 * also writes the hold row. Both lock seat rows in ascending seat id order (an explicit ORDER BY,
 * or the primary key index scan), so two claims never deadlock on each other's seats.
 */
public enum ClaimStrategy {

    /** Lock the seat rows, look at them, update them if all are free. */
    FOR_UPDATE {
        @Override
        List<String> claimSeats(Connection c, String showId, String[] seatIds, String holdId, String accountId,
                                Timestamp until) throws SQLException {
            List<String> unavailable = new ArrayList<>();
            int found = 0;
            try (PreparedStatement lock = c.prepareStatement("""
                    SELECT seat_id, state FROM baseline.seats
                    WHERE show_id = ? AND seat_id = ANY (?) ORDER BY seat_id FOR UPDATE""")) {
                lock.setString(1, showId);
                lock.setArray(2, c.createArrayOf("text", seatIds));
                try (ResultSet rs = lock.executeQuery()) {
                    while (rs.next()) {
                        found++;
                        if (!"AVAILABLE".equals(rs.getString(2))) {
                            unavailable.add(rs.getString(1));
                        }
                    }
                }
            }
            if (found != seatIds.length || !unavailable.isEmpty()) {
                return unavailable;
            }
            try (PreparedStatement update = c.prepareStatement("""
                    UPDATE baseline.seats SET state = 'HELD', hold_id = ?, holder = ?, held_until = ?, version = version + 1
                    WHERE show_id = ? AND seat_id = ANY (?)""")) {
                update.setString(1, holdId);
                update.setString(2, accountId);
                update.setTimestamp(3, until);
                update.setString(4, showId);
                update.setArray(5, c.createArrayOf("text", seatIds));
                update.executeUpdate();
            }
            return null;
        }
    },

    /** Update only the rows still AVAILABLE and count them; fewer than asked means someone was first. */
    CONDITIONAL {
        @Override
        List<String> claimSeats(Connection c, String showId, String[] seatIds, String holdId, String accountId,
                                Timestamp until) throws SQLException {
            try (PreparedStatement update = c.prepareStatement("""
                    UPDATE baseline.seats SET state = 'HELD', hold_id = ?, holder = ?, held_until = ?, version = version + 1
                    WHERE show_id = ? AND seat_id = ANY (?) AND state = 'AVAILABLE'""")) {
                update.setString(1, holdId);
                update.setString(2, accountId);
                update.setTimestamp(3, until);
                update.setString(4, showId);
                update.setArray(5, c.createArrayOf("text", seatIds));
                // which seats were taken is not known here; the caller's neighbourhood query tells
                return update.executeUpdate() == seatIds.length ? null : List.of();
            }
        }
    };

    /**
     * Claims every seat in {@code seatIds} (sorted, distinct) for the hold, inside the caller's
     * transaction; on success also writes the hold row. Returns null when held; otherwise the
     * seats found unavailable (possibly empty when the strategy cannot tell), and the caller
     * rolls back.
     */
    public List<String> claim(Connection c, String showId, String[] seatIds, String holdId, String accountId,
                              Timestamp until) throws SQLException {
        List<String> refused = claimSeats(c, showId, seatIds, holdId, accountId, until);
        if (refused != null) {
            return refused;
        }
        try (PreparedStatement insert = c.prepareStatement("""
                INSERT INTO baseline.holds (hold_id, show_id, account_id, seat_ids, expires_at, status, created_at)
                VALUES (?, ?, ?, ?, ?, 'ACTIVE', now())""")) {
            insert.setString(1, holdId);
            insert.setString(2, showId);
            insert.setString(3, accountId);
            insert.setArray(4, c.createArrayOf("text", seatIds));
            insert.setTimestamp(5, until);
            insert.executeUpdate();
        }
        return null;
    }

    abstract List<String> claimSeats(Connection c, String showId, String[] seatIds, String holdId, String accountId,
                                     Timestamp until) throws SQLException;

    /** The name reports use: {@code pg-for-update}, {@code pg-conditional}. */
    public String systemName() {
        return "pg-" + name().toLowerCase().replace('_', '-');
    }
}
