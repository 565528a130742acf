package org.boxoffice.bench.baseline;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;

/**
 * The two ways a team would sell a general-admission area by count with PostgreSQL alone, each in
 * one short transaction that also writes the hold row ({@code baseline.area_counters}: one row per
 * stripe of an area, its capacity and what it has {@code remaining}).
 */
public enum CountStrategy {

    /**
     * One row per area: {@code UPDATE ... SET remaining = remaining - n WHERE ... AND remaining >= n}.
     * Every claim on the area waits for the row lock of the claim before it, until that commits.
     */
    ONE_ROW {
        @Override
        boolean claimCount(Connection c, String showId, String area, int quantity, int stripes, int start) throws SQLException {
            try (PreparedStatement update = c.prepareStatement("""
                    UPDATE baseline.area_counters SET remaining = remaining - ?
                    WHERE show_id = ? AND area = ? AND stripe = 0 AND remaining >= ?""")) {
                update.setInt(1, quantity);
                update.setString(2, showId);
                update.setString(3, area);
                update.setInt(4, quantity);
                return update.executeUpdate() == 1;
            }
        }
    },

    /**
     * Several rows per area: a claim starts on a random stripe, takes what it can there and moves on
     * to the next stripe that has some left while it still lacks admissions, skipping stripes another
     * claim has locked (never waiting, so two claims never deadlock); all or nothing. Per stripe, the
     * row is locked and read ({@code LIMIT 1 FOR UPDATE SKIP LOCKED}), then decremented by what it gives.
     */
    STRIPED {
        @Override
        boolean claimCount(Connection c, String showId, String area, int quantity, int stripes, int start) throws SQLException {
            int need = quantity;
            try (PreparedStatement next = c.prepareStatement("""
                    SELECT stripe, remaining FROM baseline.area_counters
                    WHERE show_id = ? AND area = ? AND remaining > 0 AND stripe >= ? AND stripe < ?
                    ORDER BY stripe LIMIT 1 FOR UPDATE SKIP LOCKED""");
                 PreparedStatement take = c.prepareStatement("""
                         UPDATE baseline.area_counters SET remaining = remaining - ?
                         WHERE show_id = ? AND area = ? AND stripe = ?""")) {
                // from the random stripe to the last, then from the first to it: two ranges in stripe order
                int[][] ranges = {{start, stripes}, {0, start}};
                for (int[] range : ranges) {
                    int from = range[0];
                    while (need > 0 && from < range[1]) {
                        next.setString(1, showId);
                        next.setString(2, area);
                        next.setInt(3, from);
                        next.setInt(4, range[1]);
                        int stripe;
                        int n;
                        try (ResultSet rs = next.executeQuery()) {
                            if (!rs.next()) {
                                break;
                            }
                            // locked: what it has left cannot move until this transaction ends
                            stripe = rs.getInt(1);
                            n = Math.min(rs.getInt(2), need);
                        }
                        take.setInt(1, n);
                        take.setString(2, showId);
                        take.setString(3, area);
                        take.setInt(4, stripe);
                        take.executeUpdate();
                        need -= n;
                        from = stripe + 1;
                    }
                }
            }
            return need == 0;
        }
    };

    /**
     * Claims {@code quantity} admissions of the area for the hold inside the caller's transaction; on
     * success also writes the hold row. Returns whether it was held; if not, the caller rolls back.
     *
     * @param start the stripe to try first (0 for {@link #ONE_ROW})
     */
    public boolean claim(Connection c, String showId, String area, int quantity, int stripes, int start, String holdId,
                         String accountId, Timestamp until) throws SQLException {
        if (!claimCount(c, showId, area, quantity, stripes, start)) {
            return false;
        }
        try (PreparedStatement insert = c.prepareStatement("""
                INSERT INTO baseline.holds (hold_id, show_id, account_id, seat_ids, expires_at, status, created_at, area, quantity)
                VALUES (?, ?, ?, '{}', ?, 'ACTIVE', now(), ?, ?)""")) {
            insert.setString(1, holdId);
            insert.setString(2, showId);
            insert.setString(3, accountId);
            insert.setTimestamp(4, until);
            insert.setString(5, area);
            insert.setInt(6, quantity);
            insert.executeUpdate();
        }
        return true;
    }

    abstract boolean claimCount(Connection c, String showId, String area, int quantity, int stripes, int start)
            throws SQLException;

    /** The name reports use: {@code pg-one-row}, {@code pg-striped}. */
    public String systemName() {
        return "pg-" + name().toLowerCase().replace('_', '-');
    }

    /** Stripes of an area of this capacity: as Boxoffice's default, one per 25 admissions, at most 16 (one row for {@link #ONE_ROW}). */
    public int stripes(int capacity) {
        return this == ONE_ROW ? 1 : Math.max(1, Math.min(16, capacity / 25));
    }
}
