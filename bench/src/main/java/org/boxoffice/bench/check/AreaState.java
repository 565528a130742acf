package org.boxoffice.bench.check;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A general-admission area as PostgreSQL has it after a run, for {@link AreaChecker}: its capacity,
 * the admissions its counter says are taken, and every hold of the area with what the referee
 * still counts for it.
 *
 * @param taken admissions held or sold by the area's counter (Boxoffice: its stripes' {@code taken};
 *              a baseline: capacity minus what its rows have left)
 */
public record AreaState(int capacity, long taken, List<AreaChecker.HoldRow> holds) {

    public AreaState {
        holds = List.copyOf(holds);
    }

    /** Boxoffice's tables: {@code admission_areas}, {@code admission_stripes}, {@code holds} and their parts per stripe. */
    public static AreaState boxoffice(Connection c, String showId, String area) throws SQLException {
        return inOneSnapshot(c, () -> loadBoxoffice(c, showId, area));
    }

    /** The baseline schema's tables: the area's counter rows and the holds by count. */
    public static AreaState baseline(Connection c, String showId, String area) throws SQLException {
        return inOneSnapshot(c, () -> loadBaseline(c, showId, area));
    }

    private interface Load {
        AreaState get() throws SQLException;
    }

    /**
     * The counter and the holds as of one moment: a claim still committing (an answer the generator
     * gave up waiting for) would otherwise land between the two reads and set them apart.
     */
    private static AreaState inOneSnapshot(Connection c, Load load) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        int isolation = c.getTransactionIsolation();
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        try {
            return load.get();
        } finally {
            c.rollback();
            c.setTransactionIsolation(isolation);
            c.setAutoCommit(autoCommit);
        }
    }

    private static AreaState loadBoxoffice(Connection c, String showId, String area) throws SQLException {
        int capacity;
        long taken;
        try (PreparedStatement s = c.prepareStatement("""
                SELECT a.capacity, (SELECT coalesce(sum(taken), 0) FROM admission_stripes s
                                    WHERE s.show_id = a.show_id AND s.area = a.area)
                FROM admission_areas a WHERE a.show_id = ? AND a.area = ?""")) {
            s.setString(1, showId);
            s.setString(2, area);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("no area " + area + " in show " + showId);
                }
                capacity = rs.getInt(1);
                taken = rs.getLong(2);
            }
        }
        // what a hold keeps: its parts that still count on a stripe (held or sold), not the ENDED ones
        return new AreaState(capacity, taken, holds(c, """
                SELECT h.hold_id, h.status, h.quantity,
                       coalesce(sum(p.quantity) FILTER (WHERE p.status <> 'ENDED'), 0),
                       (extract(epoch FROM h.created_at) * 1000)::bigint
                FROM holds h LEFT JOIN admission_hold_parts p ON p.hold_id = h.hold_id
                WHERE h.show_id = ? AND h.area = ?
                GROUP BY h.hold_id""", showId, area));
    }

    private static AreaState loadBaseline(Connection c, String showId, String area) throws SQLException {
        int capacity;
        long taken;
        try (PreparedStatement s = c.prepareStatement("""
                SELECT sum(capacity), sum(capacity) - sum(remaining) FROM baseline.area_counters
                WHERE show_id = ? AND area = ?""")) {
            s.setString(1, showId);
            s.setString(2, area);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                capacity = rs.getInt(1);
                taken = rs.getLong(2);
            }
        }
        return new AreaState(capacity, taken, holds(c, """
                SELECT hold_id, status, quantity, CASE WHEN status = 'ACTIVE' THEN quantity ELSE 0 END,
                       (extract(epoch FROM created_at) * 1000)::bigint
                FROM baseline.holds WHERE show_id = ? AND area = ?""", showId, area));
    }

    private static List<AreaChecker.HoldRow> holds(Connection c, String sql, String showId, String area) throws SQLException {
        List<AreaChecker.HoldRow> holds = new ArrayList<>();
        try (PreparedStatement h = c.prepareStatement(sql)) {
            h.setString(1, showId);
            h.setString(2, area);
            try (ResultSet rs = h.executeQuery()) {
                while (rs.next()) {
                    holds.add(new AreaChecker.HoldRow(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getLong(5)));
                }
            }
        }
        return holds;
    }
}
