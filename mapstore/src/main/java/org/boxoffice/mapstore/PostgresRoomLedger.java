package org.boxoffice.mapstore;

import org.boxoffice.grid.room.RoomLedger;
import org.boxoffice.grid.room.RoomView;
import org.boxoffice.grid.room.WaitingRoom;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The waiting rooms' ledger on the referee (tables of V13): a room the grid no longer has (after
 * a cold start, or lost with more members than its backups) is rebuilt from these rows with every
 * acknowledged place.
 */
public final class PostgresRoomLedger implements RoomLedger {

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(PostgresRoomLedger.class.getName());

    private final DataSource dataSource;
    private final LongSupplier clock;

    public PostgresRoomLedger(DataSource dataSource, LongSupplier clock) {
        this.dataSource = dataSource;
        this.clock = clock;
    }

    @Override
    public void configured(RoomView r) {
        update("""
                INSERT INTO waiting_rooms (show_id, mode, opens_at_ms, admission_rate, seats_per_buyer, pass_ms,
                                           challenge_difficulty)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (show_id) DO UPDATE SET mode = EXCLUDED.mode, opens_at_ms = EXCLUDED.opens_at_ms,
                    admission_rate = EXCLUDED.admission_rate, seats_per_buyer = EXCLUDED.seats_per_buyer,
                    pass_ms = EXCLUDED.pass_ms, challenge_difficulty = EXCLUDED.challenge_difficulty, updated_at = now()""",
                ps -> {
                    ps.setString(1, r.showId());
                    ps.setString(2, r.mode().name());
                    ps.setLong(3, r.opensAt());
                    ps.setDouble(4, r.ratePerSecond());
                    ps.setDouble(5, r.seatsPerBuyer());
                    ps.setLong(6, r.passMillis());
                    ps.setInt(7, r.challengeDifficulty());
                });
    }

    @Override
    public void joined(String showId, String accountId, long position) {
        update("""
                INSERT INTO waiting_room_places (show_id, account_id, position) VALUES (?, ?, ?)
                ON CONFLICT (show_id, account_id) DO UPDATE SET position = EXCLUDED.position
                    WHERE waiting_room_places.position IS NULL AND EXCLUDED.position IS NOT NULL""",
                ps -> {
                    ps.setString(1, showId);
                    ps.setString(2, accountId);
                    if (position > 0) {
                        ps.setLong(3, position);
                    } else {
                        ps.setNull(3, java.sql.Types.BIGINT);
                    }
                });
    }

    @Override
    public void shuffled(String showId, long seed, List<String> inOrder) {
        long[] positions = new long[inOrder.size()];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = i + 1;
        }
        Transactions.inTransaction(dataSource, "could not write the shuffled pre-queue of " + showId, c -> {
            try (PreparedStatement places = c.prepareStatement("""
                         INSERT INTO waiting_room_places (show_id, account_id, position)
                         SELECT ?, a, p FROM unnest(?::text[], ?::bigint[]) AS t(a, p)
                         ON CONFLICT (show_id, account_id) DO UPDATE SET position = EXCLUDED.position""");
                 PreparedStatement room = c.prepareStatement(
                         "UPDATE waiting_rooms SET shuffle_seed = ?, updated_at = now() WHERE show_id = ?")) {
                places.setString(1, showId);
                places.setArray(2, c.createArrayOf("text", inOrder.toArray()));
                places.setArray(3, c.createArrayOf("bigint", java.util.Arrays.stream(positions).boxed().toArray()));
                places.executeUpdate();
                room.setLong(1, seed);
                room.setString(2, showId);
                room.executeUpdate();
            }
        });
    }

    @Override
    public void admitted(String showId, long upTo, long at) {
        update("""
                INSERT INTO waiting_room_admissions (show_id, admitted_up_to, admitted_at_ms) VALUES (?, ?, ?)
                ON CONFLICT DO NOTHING""",
                ps -> {
                    ps.setString(1, showId);
                    ps.setLong(2, upTo);
                    ps.setLong(3, at);
                });
    }

    @Override
    public WaitingRoom load(String showId) {
        // one snapshot of the three tables
        return Transactions.inSnapshot(dataSource, "could not rebuild the waiting room of " + showId,
                c -> load(c, showId));
    }

    private WaitingRoom load(Connection c, String showId) throws SQLException {
        WaitingRoom.Mode mode;
        long opensAt;
        double rate;
        double seatsPerBuyer;
        long passMillis;
        int difficulty;
        Long seed;
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT mode, opens_at_ms, admission_rate, seats_per_buyer, pass_ms, challenge_difficulty, shuffle_seed
                FROM waiting_rooms WHERE show_id = ?""")) {
            ps.setString(1, showId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                mode = WaitingRoom.Mode.valueOf(rs.getString(1));
                opensAt = rs.getLong(2);
                rate = rs.getDouble(3);
                seatsPerBuyer = rs.getDouble(4);
                passMillis = rs.getLong(5);
                difficulty = rs.getInt(6);
                long s = rs.getLong(7);
                seed = rs.wasNull() ? null : s;
            }
        }
        List<String> preQueue = new ArrayList<>();
        Map<String, Long> positions = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT account_id, position FROM waiting_room_places WHERE show_id = ? ORDER BY joined_at, account_id""")) {
            ps.setString(1, showId);
            ps.setFetchSize(10_000);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long p = rs.getLong(2);
                    if (rs.wasNull()) {
                        preQueue.add(rs.getString(1));
                    } else {
                        positions.put(rs.getString(1), p);
                    }
                }
            }
        }
        List<long[]> admissions = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT admitted_up_to, admitted_at_ms FROM waiting_room_admissions WHERE show_id = ? ORDER BY admitted_up_to""")) {
            ps.setString(1, showId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    admissions.add(new long[] {rs.getLong(1), rs.getLong(2)});
                }
            }
        }
        WaitingRoom room = WaitingRoom.restore(showId, mode, opensAt, rate, seatsPerBuyer, passMillis, difficulty, preQueue,
                positions, seed, admissions, clock.getAsLong());
        LOG.fine(() -> "read the waiting room of " + showId + " from PostgreSQL: " + positions.size() + " places, "
                + preQueue.size() + " in the pre-queue, admitted up to "
                + (admissions.isEmpty() ? 0 : admissions.getLast()[0]));
        return room;
    }

    private interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    private void update(String sql, Binder binder) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            binder.bind(ps);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new DatabaseException("the waiting rooms' ledger refused a write", e);
        }
    }
}
