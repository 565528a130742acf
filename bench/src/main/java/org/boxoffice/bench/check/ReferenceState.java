package org.boxoffice.bench.check;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A show's seat and hold rows as PostgreSQL has them, for {@link RunChecker}. Boxoffice's
 * tables and the baselines' have the same columns for this purpose; only the schema differs.
 */
public record ReferenceState(Map<String, RunChecker.SeatRow> seats, Map<String, RunChecker.HoldRow> holds) {

    /** Boxoffice's own tables (Flyway migrations in mapstore). */
    public static ReferenceState boxoffice(Connection c, String showId) throws SQLException {
        return load(c, "", showId);
    }

    /** The baseline schema's tables. */
    public static ReferenceState baseline(Connection c, String showId) throws SQLException {
        return load(c, "baseline.", showId);
    }

    private static ReferenceState load(Connection c, String schema, String showId) throws SQLException {
        Map<String, RunChecker.SeatRow> seats = new HashMap<>();
        Map<String, RunChecker.HoldRow> holds = new HashMap<>();
        try (PreparedStatement s = c.prepareStatement(
                "SELECT seat_id, state, hold_id FROM " + schema + "seats WHERE show_id = ?");
             PreparedStatement h = c.prepareStatement("SELECT hold_id, status, seat_ids, "
                     + "(extract(epoch FROM expires_at) * 1000)::bigint FROM " + schema + "holds WHERE show_id = ?")) {
            s.setString(1, showId);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    seats.put(rs.getString(1), new RunChecker.SeatRow(rs.getString(1), rs.getString(2), rs.getString(3)));
                }
            }
            h.setString(1, showId);
            try (ResultSet rs = h.executeQuery()) {
                while (rs.next()) {
                    Array ids = rs.getArray(3);
                    holds.put(rs.getString(1), new RunChecker.HoldRow(rs.getString(1), rs.getString(2),
                            List.of((String[]) ids.getArray()), rs.getLong(4)));
                }
            }
        }
        return new ReferenceState(seats, holds);
    }
}
