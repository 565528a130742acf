package org.boxoffice.mapstore;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.boxoffice.domain.DuplicateWaitlistEntryException;
import org.boxoffice.domain.WaitlistEntry;
import org.boxoffice.domain.WaitlistRepository;
import org.boxoffice.domain.WaitlistStanding;
import org.postgresql.util.PSQLException;

import static org.boxoffice.mapstore.PostgresInventoryRepository.strings;
import static org.boxoffice.mapstore.PostgresInventoryRepository.timestamp;

/**
 * Waitlist entries on PostgreSQL (table {@code waitlist_entries}, migrations V4 and V22). The unique index
 * {@code waitlist_one_live_entry} is the referee of "one entry per account and show"; every state
 * change is a single conditional {@code UPDATE}, so concurrent callers agree on one outcome. The
 * offer and its mail are one statement. Thread-safe; every call borrows one pooled connection.
 */
public final class PostgresWaitlistRepository implements WaitlistRepository {

    private static final String UNIQUE_VIOLATION = "23505";
    private static final String ONE_LIVE_ENTRY = "waitlist_one_live_entry";
    private static final String IN_LINE = "('WAITING', 'OFFERING')";
    private static final String LIVE = "('WAITING', 'OFFERING', 'OFFERED')";

    private static final String ENTRY = "e.entry_id, e.show_id, e.account_id, e.quantity, e.section, "
            + "epoch_ms(e.joined_at), e.recipient, e.area";
    private static final String STANDING = ENTRY + ", e.state, e.hold_id, e.seat_ids, "
            + "coalesce(epoch_ms(e.offer_expires_at), 0), e.reason, epoch_ms(e.updated_at), "
            + "CASE WHEN e.state IN " + IN_LINE + " THEN (SELECT count(*) FROM waitlist_entries o WHERE "
            + "o.show_id = e.show_id AND o.state IN " + IN_LINE + " AND o.item_id <= e.item_id) ELSE 0 END";

    private final DataSource dataSource;

    public PostgresWaitlistRepository(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource);
    }

    // ------------------------------------------------------------------ the grid queue's store

    @Override
    public void enqueue(long itemId, WaitlistEntry entry) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                INSERT INTO waitlist_entries (entry_id, show_id, account_id, quantity, section, recipient, joined_at,
                                              item_id, state, updated_at, area)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'WAITING', ?, ?)
                ON CONFLICT (entry_id) DO UPDATE SET item_id = EXCLUDED.item_id, updated_at = now()
                    WHERE waitlist_entries.state IN ('WAITING', 'OFFERING')
                RETURNING entry_id""")) {
            ps.setLong(1, entry.entryId());
            ps.setString(2, entry.showId());
            ps.setString(3, entry.accountId());
            ps.setInt(4, entry.quantity());
            ps.setString(5, entry.section());
            ps.setString(6, entry.recipient());
            ps.setObject(7, timestamp(entry.joinedAt()), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setLong(8, itemId);
            ps.setObject(9, timestamp(entry.joinedAt()), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setString(10, entry.area());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("waitlist entry " + entry.entryId() + " has left the line");
                }
            }
        } catch (SQLException e) {
            if (UNIQUE_VIOLATION.equals(e.getSQLState()) && e instanceof PSQLException p
                    && p.getServerErrorMessage() != null && ONE_LIVE_ENTRY.equals(p.getServerErrorMessage().getConstraint())) {
                throw new DuplicateWaitlistEntryException("account " + entry.accountId()
                        + " already has a live waitlist entry for show " + entry.showId());
            }
            throw new DatabaseException("enqueueing waitlist entry " + entry.entryId(), e);
        }
    }

    @Override
    public void dequeue(String showId, long itemId) {
        update("removing queue item " + itemId + " of " + showId, """
                UPDATE waitlist_entries SET state = 'REMOVED', reason = 'removed from the grid queue', updated_at = now()
                WHERE show_id = ? AND item_id = ? AND state IN ('WAITING', 'OFFERING')""", showId, itemId);
    }

    @Override
    public Optional<WaitlistEntry> queued(String showId, long itemId) {
        List<WaitlistEntry> found = entries("SELECT " + ENTRY + " FROM waitlist_entries e WHERE e.show_id = ? "
                + "AND e.item_id = ? ORDER BY (e.state IN " + IN_LINE + ") DESC, e.joined_at DESC LIMIT 1", showId, itemId);
        return found.stream().findFirst();
    }

    @Override
    public Map<Long, WaitlistEntry> queued(String showId, Collection<Long> itemIds) {
        Map<Long, WaitlistEntry> out = new LinkedHashMap<>();
        if (itemIds.isEmpty()) {
            return out;
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT DISTINCT ON (e.item_id) e.item_id, " + ENTRY + " FROM waitlist_entries e "
                        + "WHERE e.show_id = ? AND e.item_id = ANY (?) "
                        + "ORDER BY e.item_id, (e.state IN " + IN_LINE + ") DESC, e.joined_at DESC")) {
            ps.setString(1, showId);
            ps.setArray(2, c.createArrayOf("bigint", itemIds.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getLong(1), entry(rs, 2));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new DatabaseException("loading queue items of " + showId, e);
        }
    }

    @Override
    public List<Long> queuedItems(String showId) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT item_id FROM waitlist_entries WHERE show_id = ? AND state IN " + IN_LINE + " ORDER BY item_id")) {
            ps.setString(1, showId);
            List<Long> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getLong(1));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new DatabaseException("loading the waitlist line of " + showId, e);
        }
    }

    // ------------------------------------------------------------------ reads

    @Override
    public List<WaitlistEntry> line(String showId) {
        return entries("SELECT " + ENTRY + " FROM waitlist_entries e WHERE e.show_id = ? AND e.state IN " + IN_LINE
                + " ORDER BY e.item_id", showId);
    }

    @Override
    public Optional<WaitlistStanding> standing(String showId, String accountId) {
        return standings("SELECT " + STANDING + " FROM waitlist_entries e WHERE e.show_id = ? AND e.account_id = ? "
                + "ORDER BY (e.state IN " + LIVE + ") DESC, e.joined_at DESC, e.entry_id DESC LIMIT 1", showId, accountId)
                .stream().findFirst();
    }

    @Override
    public List<WaitlistStanding> offers(String showId) {
        return standings("SELECT " + STANDING + " FROM waitlist_entries e WHERE e.show_id = ? "
                + "AND e.state IN ('OFFERING', 'OFFERED') ORDER BY e.item_id", showId);
    }

    @Override
    public List<WaitlistStanding> offersOf(String accountId) {
        return standings("SELECT " + STANDING + " FROM waitlist_entries e WHERE e.account_id = ? "
                + "AND e.state = 'OFFERED' ORDER BY e.offered_at, e.entry_id", accountId);
    }

    /** One query over the line's partial index, for the metrics. */
    @Override
    public java.util.Map<String, Integer> lineLengths() {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT show_id, count(*)::int FROM waitlist_entries WHERE state IN " + IN_LINE + " GROUP BY show_id");
             ResultSet rs = ps.executeQuery()) {
            java.util.Map<String, Integer> out = new java.util.TreeMap<>();
            while (rs.next()) {
                out.put(rs.getString(1), rs.getInt(2));
            }
            return out;
        } catch (SQLException e) {
            throw new DatabaseException("counting the waitlists' lines", e);
        }
    }

    @Override
    public List<String> showsWithLiveEntries() {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT DISTINCT show_id FROM waitlist_entries WHERE state IN " + LIVE + " ORDER BY show_id");
             ResultSet rs = ps.executeQuery()) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        } catch (SQLException e) {
            throw new DatabaseException("listing shows with waiters", e);
        }
    }

    // ------------------------------------------------------------------ transitions

    @Override
    public boolean beginOffer(long entryId, String holdId, long now) {
        return update("starting an offer for waitlist entry " + entryId, """
                UPDATE waitlist_entries SET state = 'OFFERING', hold_id = ?, updated_at = ?
                WHERE entry_id = ? AND state = 'WAITING'""", holdId, timestamp(now), entryId) == 1;
    }

    @Override
    public boolean offered(long entryId, String holdId, List<String> seatIds, long expiresAt, long now) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                WITH offered AS (
                    UPDATE waitlist_entries
                    SET state = 'OFFERED', seat_ids = ?, offer_expires_at = ?, offered_at = ?, updated_at = ?
                    WHERE entry_id = ? AND state = 'OFFERING' AND hold_id = ?
                    RETURNING entry_id, hold_id, recipient, show_id, account_id, offer_expires_at),
                notice AS (
                    INSERT INTO messages (kind, channel, subject, show_id, account_id, expires_at, due_at)
                    SELECT 'OFFER_MADE', 'PAGE', hold_id, show_id, account_id, offer_expires_at, ? FROM offered
                    ON CONFLICT ON CONSTRAINT messages_once DO NOTHING)
                INSERT INTO waitlist_mail (entry_id, hold_id, recipient, due_at)
                SELECT entry_id, hold_id, recipient, ? FROM offered""")) {
            ps.setArray(1, c.createArrayOf("text", seatIds.toArray()));
            ps.setObject(2, timestamp(expiresAt), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setObject(3, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setObject(4, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setLong(5, entryId);
            ps.setString(6, holdId);
            ps.setObject(7, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setObject(8, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            return ps.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new DatabaseException("recording the offer " + holdId + " of waitlist entry " + entryId, e);
        }
    }

    @Override
    public boolean abandonOffer(long entryId, String holdId, long now) {
        return update("abandoning offer " + holdId, """
                UPDATE waitlist_entries SET state = 'WAITING', hold_id = NULL, updated_at = ?
                WHERE entry_id = ? AND state = 'OFFERING' AND hold_id = ?""", timestamp(now), entryId, holdId) == 1;
    }

    @Override
    public boolean end(long entryId, Collection<WaitlistEntry.State> from, WaitlistEntry.State to, String reason,
                       long now) {
        if (to.live()) {
            throw new IllegalArgumentException(to + " does not end an entry");
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                UPDATE waitlist_entries SET state = ?, reason = ?, updated_at = ?
                WHERE entry_id = ? AND state = ANY (?)""")) {
            ps.setString(1, to.name());
            ps.setString(2, reason);
            ps.setObject(3, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setLong(4, entryId);
            ps.setArray(5, c.createArrayOf("text", from.stream().map(Enum::name).toArray()));
            return ps.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new DatabaseException("ending waitlist entry " + entryId, e);
        }
    }

    @Override
    public int close(String showId, long now) {
        return update("closing the waitlist of " + showId, """
                UPDATE waitlist_entries SET state = 'CLOSED', reason = 'sales closed', updated_at = ?
                WHERE show_id = ? AND state IN ('WAITING', 'OFFERING')""", timestamp(now), showId);
    }

    // ------------------------------------------------------------------ mechanics

    private int update(String what, String sql, Object... params) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, params);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new DatabaseException(what, e);
        }
    }

    private List<WaitlistEntry> entries(String sql, Object... params) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, params);
            List<WaitlistEntry> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(entry(rs, 1));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new DatabaseException("reading waitlist entries", e);
        }
    }

    private List<WaitlistStanding> standings(String sql, Object... params) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, params);
            List<WaitlistStanding> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Array seats = rs.getArray(11);
                    out.add(new WaitlistStanding(entry(rs, 1), WaitlistEntry.State.valueOf(rs.getString(9)),
                            rs.getLong(15), rs.getString(10), seats == null ? List.of() : List.of(strings(seats)),
                            rs.getLong(12), rs.getString(13), rs.getLong(14)));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new DatabaseException("reading waitlist standings", e);
        }
    }

    private static WaitlistEntry entry(ResultSet rs, int first) throws SQLException {
        return new WaitlistEntry(rs.getLong(first), rs.getString(first + 1), rs.getString(first + 2),
                rs.getInt(first + 3), rs.getString(first + 4), rs.getLong(first + 5), rs.getString(first + 6),
                rs.getString(first + 7));
    }

    private static void bind(PreparedStatement ps, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            Object p = params[i];
            if (p instanceof java.time.OffsetDateTime t) {
                ps.setObject(i + 1, t, Types.TIMESTAMP_WITH_TIMEZONE);
            } else {
                ps.setObject(i + 1, p);
            }
        }
    }
}
