package org.boxoffice.mapstore;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;
import java.util.Optional;
import javax.sql.DataSource;
import org.boxoffice.domain.AccountAllowance;
import org.boxoffice.domain.HoldRecord;
import org.boxoffice.domain.HoldStatus;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.RefereeStats;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.StaleInventoryException;
import org.boxoffice.domain.Transition;

/**
 * Seat inventory on PostgreSQL: the referee the grid's write-through store calls before it puts a
 * new block value in memory.
 *
 * <p>{@link #apply} goes through the {@link GroupCommit}: the transitions in flight from all
 * partitions are applied together, in one call of {@code apply_seat_transitions} (defined in
 * {@code db/migration/R__group_commit.sql}) on one pooled connection in autocommit mode: the whole batch as a few set-based statements,
 * or, when one of its transitions is stale or already applied, each transition in its own
 * subtransaction, so each either moves every seat of its transition or none, and a stale one
 * fails alone. A transition that is
 * alone in the queue is one call of {@code apply_seat_transition}. {@code apply} returns only once
 * its transition is committed. Thread-safe. Every other method borrows one connection and returns
 * it before returning. {@link #close} stops the group commit's threads.
 *
 * <p>Failures: a stale grid copy is a {@link StaleInventoryException}; anything else the database
 * reports is a {@link DatabaseException}.
 */
public final class PostgresInventoryRepository implements InventoryRepository, RefereeStats, AutoCloseable {

    /** The SQLSTATE apply_seat_transition raises when seat rows moved on. */
    public static final String STALE_SQLSTATE = "BX409";

    /** The SQLSTATE of the notice apply_seat_transitions sends when a batch went one transition at a time. */
    static final String ONE_BY_ONE_SQLSTATE = "BX411";

    private static final String APPLY = "SELECT apply_seat_transition(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    private static final String APPLY_MANY =
            "SELECT apply_seat_transitions(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    /**
     * Committer threads: one. The stores that arrive while it commits make its next batch. Two
     * committers were measured worse (stampede at 2,000 attempts/s: batches of 3.7 ms against 1.7 ms
     * of the same size, hold p95 25 ms against 10 ms; at 4,000/s equal or worse and 8-25 % more
     * PostgreSQL CPU per durable hold): two batch transactions at once contend inside PostgreSQL
     * for the same index pages and WAL flushes, and the machine's cores, for no extra commits.
     * Batches stay under 64 transitions, the subtransactions PostgreSQL tracks per transaction
     * without overflowing.
     */
    private static final int COMMITTERS = 1;
    private static final int MAX_BATCH = 48;

    private static final String LOAD = """
            SELECT idx, state, hold_id, holder, epoch_ms(held_until), booking_id, version
            FROM seats WHERE show_id = ? AND block_id = ? ORDER BY idx""";

    private static final String FIND_HOLD = """
            SELECT hold_id, show_id, account_id, seat_ids, epoch_ms(expires_at), status,
                   epoch_ms(created_at), total_cents, currency, area, coalesce(quantity, 0)
            FROM holds WHERE hold_id = ?""";

    private static final String LAPSED_BLOCKS = """
            SELECT DISTINCT show_id, block_id FROM seats
            WHERE state = 'HELD' AND held_until < ? ORDER BY show_id, block_id""";

    /**
     * Allowances of many accounts at once: for each (show, account), by its position {@code i}, the
     * account's HELD seats grouped by hold (with the hold's status, in the order they lapse) and its
     * SOLD seats. The lateral subquery runs once per key on the holder index, whatever the number
     * of keys.
     */
    private static final String ALLOWANCES = """
            SELECT k.i, a.state, a.hold_id, a.seats, a.held_until, a.status
            FROM unnest(?::text[], ?::text[]) WITH ORDINALITY AS k(show_id, holder, i)
            CROSS JOIN LATERAL (
                SELECT s.state, s.hold_id, count(*)::int AS seats, epoch_ms(max(s.held_until)) AS held_until,
                       h.status, min(s.held_until) AS first_until
                FROM seats s LEFT JOIN holds h ON h.hold_id = s.hold_id
                WHERE s.show_id = k.show_id AND s.holder = k.holder AND s.state IN ('HELD', 'SOLD')
                GROUP BY s.state, s.hold_id, h.status
                UNION ALL
                -- admissions by count: a hold's live parts, as its seats above
                SELECT CASE WHEN p.status = 'SOLD' THEN 'SOLD' ELSE 'HELD' END, h.hold_id, sum(p.quantity)::int,
                       epoch_ms(h.expires_at), h.status, h.expires_at
                FROM holds h JOIN admission_hold_parts p ON p.hold_id = h.hold_id
                WHERE h.account_id = k.holder AND h.show_id = k.show_id AND h.area IS NOT NULL AND p.status <> 'ENDED'
                GROUP BY p.status, h.hold_id, h.expires_at, h.status) a
            ORDER BY k.i, a.first_until, a.hold_id""";

    /** Allowance reads in flight at once share one query, up to this many keys. */
    private static final int MAX_ALLOWANCE_BATCH = 64;

    private static final String[] NO_STRINGS = new String[0];

    /** One account in one show: the key of an allowance read. */
    private record AccountInShow(String showId, String accountId) {
    }

    private final DataSource dataSource;
    private final GroupCommit groupCommit;
    private final GroupLoad<AccountInShow, AccountAllowance> allowanceReads;
    private final LongAdder oneByOne = new LongAdder();

    public PostgresInventoryRepository(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource);
        this.groupCommit = new GroupCommit(new GroupCommit.Referee() {
            @Override
            public void applyOne(GroupCommit.Step step) {
                applyAlone(step);
            }

            @Override
            public int[] applyMany(List<GroupCommit.Step> steps, Predicate<int[]> keep) throws SQLException {
                return applyTogether(steps, keep);
            }
        }, COMMITTERS, MAX_BATCH);
        this.allowanceReads = new GroupLoad<>("referee-allowance-reads", this::allowancesTogether, MAX_ALLOWANCE_BATCH);
    }

    @Override
    public void apply(SeatBlock next) {
        if (!next.transitions().isEmpty()) {
            groupCommit.apply(next);
        }
    }

    @Override
    public GroupCommitStats groupCommitStats() {
        GroupCommit.Stats s = groupCommit.stats();
        return new GroupCommitStats(s.batches(), s.transitions(), s.largestBatch(), oneByOne.sum(), s.commitNanos());
    }

    @Override
    public void onBatch(BatchObserver observer) {
        groupCommit.onBatch(observer);
    }

    @Override
    public void close() {
        groupCommit.close();
        allowanceReads.close();
    }

    /** Whether apply_seat_transitions noticed that it had to apply its batch one transition at a time. */
    private static boolean saidOneByOne(SQLWarning warning) {
        for (SQLWarning w = warning; w != null; w = w.getNextWarning()) {
            if (ONE_BY_ONE_SQLSTATE.equals(w.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    /** One transition in its own statement and transaction. */
    void applyAlone(GroupCommit.Step next) {
        Transition t = next.transition();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(APPLY)) {
            boolean holding = t.newStatus() == SeatState.Status.HELD;
            ps.setString(1, next.showId());
            ps.setInt(2, next.blockId());
            ps.setString(3, t.kind().name());
            ps.setObject(4, t.seats());
            ps.setObject(5, t.expectedVersions());
            ps.setArray(6, c.createArrayOf("text", names(t.oldStatuses())));
            ps.setArray(7, c.createArrayOf("text", t.oldHoldIds()));
            ps.setString(8, t.newStatus().name());
            ps.setString(9, t.holdId());
            ps.setString(10, t.accountId());
            ps.setObject(11, holding ? timestamp(t.expiresAt()) : null, Types.TIMESTAMP_WITH_TIMEZONE);
            if (t.bookingId() != 0) {
                ps.setLong(12, t.bookingId());
            } else {
                ps.setNull(12, Types.BIGINT);
            }
            ps.setString(13, t.actor());
            ps.setString(14, t.reason());
            ps.setObject(15, timestamp(t.at()), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setArray(16, c.createArrayOf("text", t.holdSeatIds() == null ? NO_STRINGS : t.holdSeatIds()));
            ps.setArray(17, c.createArrayOf("text", t.endedHoldIds().toArray(NO_STRINGS)));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
            }
        } catch (SQLException e) {
            if (STALE_SQLSTATE.equals(e.getSQLState())) {
                throw new StaleInventoryException(next.showId() + "/" + next.blockId() + ": " + t
                        + " refused: " + e.getMessage());
            }
            throw new DatabaseException("applying " + t + " to " + next.showId() + "/" + next.blockId(), e);
        }
    }

    /** The transitions of {@code blocks} in one statement (see {@link #applyTogether(List, Predicate)}). */
    int[] applyTogether(List<SeatBlock> blocks) throws SQLException {
        return applyTogether(blocks.stream().flatMap(b -> GroupCommit.Step.of(b).stream()).toList(), null);
    }

    /**
     * Many transitions in one statement (see {@code apply_seat_transitions}); per transition its
     * result. With {@code keep}, in a transaction committed only if {@code keep} accepts the results
     * (else rolled back, and null returned); without, the statement commits on its own.
     */
    int[] applyTogether(List<GroupCommit.Step> batch, Predicate<int[]> keep) throws SQLException {
        BatchColumns columns = BatchColumns.of(batch);
        try (Connection c = dataSource.getConnection()) {
            if (keep == null) {
                return applyTogether(c, columns);
            }
            return Transactions.committedIf(c, t -> applyTogether(t, columns), keep);
        }
    }

    private int[] applyTogether(Connection c, BatchColumns b) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(APPLY_MANY)) {
            ps.setArray(1, c.createArrayOf("text", b.shows()));
            ps.setArray(2, c.createArrayOf("int4", b.blocks()));
            ps.setArray(3, c.createArrayOf("text", b.kinds()));
            ps.setArray(4, c.createArrayOf("int4", b.seatCounts()));
            ps.setArray(5, c.createArrayOf("int4", b.idx().toArray()));
            ps.setArray(6, c.createArrayOf("int4", b.expected().toArray()));
            ps.setArray(7, c.createArrayOf("text", b.oldStates().toArray()));
            ps.setArray(8, c.createArrayOf("text", b.oldHolds().toArray()));
            ps.setArray(9, c.createArrayOf("text", b.newStates()));
            ps.setArray(10, c.createArrayOf("text", b.holdIds()));
            ps.setArray(11, c.createArrayOf("text", b.holders()));
            ps.setArray(12, c.createArrayOf("timestamptz", b.heldUntil()));
            ps.setArray(13, c.createArrayOf("int8", b.bookings()));
            ps.setArray(14, c.createArrayOf("text", b.actors()));
            ps.setArray(15, c.createArrayOf("text", b.reasons()));
            ps.setArray(16, c.createArrayOf("timestamptz", b.ats()));
            ps.setArray(17, c.createArrayOf("int4", b.holdSeatCounts()));
            ps.setArray(18, c.createArrayOf("text", b.holdSeats().toArray()));
            ps.setArray(19, c.createArrayOf("int4", b.endedCounts()));
            ps.setArray(20, c.createArrayOf("text", b.ended().toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                Integer[] results = (Integer[]) rs.getArray(1).getArray();
                if (saidOneByOne(ps.getWarnings())) {
                    oneByOne.increment();
                }
                int[] out = new int[b.shows().length];
                for (int i = 0; i < out.length; i++) {
                    out[i] = results[i];
                }
                return out;
            }
        }
    }

    /** The arguments of {@code apply_seat_transitions} for a batch: per transition, and per seat, hold seat and ended hold. */
    private record BatchColumns(String[] shows, Integer[] blocks, String[] kinds, Integer[] seatCounts, List<Integer> idx,
                                List<Integer> expected, List<String> oldStates, List<String> oldHolds, String[] newStates,
                                String[] holdIds, String[] holders, String[] heldUntil, Long[] bookings, String[] actors,
                                String[] reasons, String[] ats, Integer[] holdSeatCounts, List<String> holdSeats,
                                Integer[] endedCounts, List<String> ended) {
        static BatchColumns of(List<GroupCommit.Step> batch) {
            int n = batch.size();
            BatchColumns b = new BatchColumns(new String[n], new Integer[n], new String[n], new Integer[n], new ArrayList<>(),
                    new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new String[n], new String[n], new String[n],
                    new String[n], new Long[n], new String[n], new String[n], new String[n], new Integer[n],
                    new ArrayList<>(), new Integer[n], new ArrayList<>());
            for (int i = 0; i < n; i++) {
                GroupCommit.Step next = batch.get(i);
                Transition t = next.transition();
                b.shows[i] = next.showId();
                b.blocks[i] = next.blockId();
                b.kinds[i] = t.kind().name();
                b.seatCounts[i] = t.seats().length;
                for (int k = 0; k < t.seats().length; k++) {
                    b.idx.add(t.seats()[k]);
                    b.expected.add(t.expectedVersions()[k]);
                    b.oldStates.add(t.oldStatuses()[k].name());
                    b.oldHolds.add(t.oldHoldIds()[k]);
                }
                b.newStates[i] = t.newStatus().name();
                b.holdIds[i] = t.holdId();
                b.holders[i] = t.accountId();
                b.heldUntil[i] = t.newStatus() == SeatState.Status.HELD ? Instant.ofEpochMilli(t.expiresAt()).toString() : null;
                b.bookings[i] = t.bookingId() != 0 ? t.bookingId() : null;
                b.actors[i] = t.actor();
                b.reasons[i] = t.reason();
                b.ats[i] = Instant.ofEpochMilli(t.at()).toString();
                String[] hs = t.holdSeatIds() == null ? NO_STRINGS : t.holdSeatIds();
                b.holdSeatCounts[i] = hs.length;
                b.holdSeats.addAll(Arrays.asList(hs));
                java.util.Set<String> endedHolds = t.endedHoldIds();
                b.endedCounts[i] = endedHolds.size();
                b.ended.addAll(endedHolds);
            }
            return b;
        }
    }

    @Override
    public Optional<SeatBlock> load(String showId, int blockId) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(LOAD)) {
            ps.setString(1, showId);
            ps.setInt(2, blockId);
            // blocks are a few thousand seats at most; grow as needed
            List<SeatState> seats = new ArrayList<>(1024);
            int[] versions = new int[1024];
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int idx = rs.getInt(1);
                    if (idx != seats.size()) {
                        throw new IllegalStateException("block " + showId + "/" + blockId
                                + " has no seat row for index " + seats.size());
                    }
                    seats.add(state(rs));
                    if (idx == versions.length) {
                        versions = Arrays.copyOf(versions, versions.length * 2);
                    }
                    versions[idx] = rs.getInt(7);
                }
            }
            if (seats.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(SeatBlock.restore(showId, blockId, seats.toArray(SeatState[]::new),
                    Arrays.copyOf(versions, seats.size())));
        } catch (SQLException e) {
            throw new DatabaseException("loading block " + showId + "/" + blockId, e);
        }
    }

    private static SeatState state(ResultSet rs) throws SQLException {
        return switch (SeatState.Status.valueOf(rs.getString(2))) {
            case AVAILABLE -> new SeatState.Available();
            case HELD -> new SeatState.Held(rs.getString(3), rs.getString(4), rs.getLong(5));
            case SOLD -> new SeatState.Sold(rs.getLong(6));
            case BLOCKED -> new SeatState.Blocked();
        };
    }

    @Override
    public Optional<HoldRecord> findHold(String holdId) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(FIND_HOLD)) {
            ps.setString(1, holdId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new HoldRecord(rs.getString(1), rs.getString(2), rs.getString(3),
                        List.of(strings(rs.getArray(4))), rs.getLong(5), HoldStatus.valueOf(rs.getString(6)), rs.getLong(7),
                        rs.getLong(8), rs.getString(9), rs.getString(10), rs.getInt(11)));
            }
        } catch (SQLException e) {
            throw new DatabaseException("finding hold " + holdId, e);
        }
    }

    /**
     * One seat's audit trail: the transitions that name it (found through the GIN index on
     * {@code seat_keys}), each unnested to the seat's own row. Same shape as the {@code seat_events} view.
     */
    private static final String HISTORY = """
            SELECT t.transition_id * 1024 + u.n, t.show_id, u.seat_id, t.at, t.actor, t.kind, t.reason,
                   coalesce(t.hold_id, u.old_hold), t.booking_id, u.old_state, t.new_state,
                   u.old_version, u.old_version + 1
            FROM seat_transitions t
            CROSS JOIN LATERAL unnest(t.seat_ids, t.old_states, t.old_holds, t.old_versions)
                 WITH ORDINALITY AS u(seat_id, old_state, old_hold, old_version, n)
            WHERE seat_keys(t.show_id, t.seat_ids) @> ARRAY[? || '|' || ?] AND t.show_id = ? AND u.seat_id = ?
            ORDER BY 1""";

    @Override
    public java.util.Map<Integer, Long> versionSums(String showId) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT block_id, sum(version) FROM seats WHERE show_id = ? GROUP BY block_id")) {
            ps.setString(1, showId);
            java.util.Map<Integer, Long> sums = new java.util.HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    sums.put(rs.getInt(1), rs.getLong(2));
                }
            }
            return sums;
        } catch (SQLException e) {
            throw new DatabaseException("reading the seat versions of show " + showId, e);
        }
    }

    @Override
    public List<org.boxoffice.domain.SeatEvent> history(String showId, String seatId) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(HISTORY)) {
            ps.setString(1, showId);
            ps.setString(2, seatId);
            ps.setString(3, showId);
            ps.setString(4, seatId);
            List<org.boxoffice.domain.SeatEvent> events = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long booking = rs.getLong(9);
                    Long bookingId = rs.wasNull() ? null : booking;
                    events.add(new org.boxoffice.domain.SeatEvent(rs.getLong(1), rs.getString(2), rs.getString(3),
                            rs.getTimestamp(4).getTime(), rs.getString(5), rs.getString(6), rs.getString(7),
                            rs.getString(8), bookingId, rs.getString(10), rs.getString(11),
                            rs.getInt(12), rs.getInt(13)));
                }
            }
            return events;
        } catch (SQLException e) {
            throw new DatabaseException("reading the history of seat " + seatId, e);
        }
    }

    @Override
    public List<BlockId> blocksWithHoldsLapsedBefore(long lapsedBefore) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(LAPSED_BLOCKS)) {
            ps.setObject(1, timestamp(lapsedBefore), Types.TIMESTAMP_WITH_TIMEZONE);
            List<BlockId> blocks = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    blocks.add(new BlockId(rs.getString(1), rs.getInt(2)));
                }
            }
            return blocks;
        } catch (SQLException e) {
            throw new DatabaseException("finding blocks with lapsed holds", e);
        }
    }

    /**
     * Counts from the seat rows, not the hold rows, so a hold that lost seats (to an admin block,
     * say) counts only what it still holds. Only ACTIVE holds count; lapsed ones are left in with
     * their expiry for {@link AccountAllowance} to discount. Reads asked for at once (the map
     * loader's, from many partitions, in an on-sale's first seconds) share one query.
     */
    @Override
    public AccountAllowance allowance(String showId, String accountId) {
        return allowanceReads.load(new AccountInShow(showId, accountId));
    }

    @Override
    public AllowanceReadStats allowanceReadStats() {
        GroupLoad.Stats s = allowanceReads.stats();
        return new AllowanceReadStats(s.batches(), s.keys());
    }

    /** The allowances of {@code keys}, in one query. */
    private Map<AccountInShow, AccountAllowance> allowancesTogether(List<AccountInShow> keys) {
        String[] shows = new String[keys.size()];
        String[] accounts = new String[keys.size()];
        for (int i = 0; i < shows.length; i++) {
            shows[i] = keys.get(i).showId();
            accounts[i] = keys.get(i).accountId();
        }
        List<List<AccountAllowance.HoldEntry>> holds = new ArrayList<>(keys.size());
        int[] sold = new int[keys.size()];
        for (int i = 0; i < shows.length; i++) {
            holds.add(new ArrayList<>());
        }
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(ALLOWANCES)) {
            ps.setArray(1, c.createArrayOf("text", shows));
            ps.setArray(2, c.createArrayOf("text", accounts));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int i = (int) rs.getLong(1) - 1;
                    if ("SOLD".equals(rs.getString(2))) {
                        sold[i] += rs.getInt(4);
                    } else if ("ACTIVE".equals(rs.getString(6))) {
                        holds.get(i).add(new AccountAllowance.HoldEntry(rs.getString(3), rs.getInt(4), rs.getLong(5)));
                    }
                }
            }
        } catch (SQLException e) {
            throw new DatabaseException("reading the allowances of " + keys.size() + " accounts", e);
        }
        Map<AccountInShow, AccountAllowance> out = new HashMap<>(keys.size() * 2);
        for (int i = 0; i < shows.length; i++) {
            out.put(keys.get(i), new AccountAllowance(holds.get(i), sold[i]));
        }
        return out;
    }

    static OffsetDateTime timestamp(long epochMillis) {
        return OffsetDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
    }

    static String[] strings(Array array) throws SQLException {
        return array == null ? NO_STRINGS : (String[]) array.getArray();
    }

    private static String[] names(SeatState.Status[] statuses) {
        String[] names = new String[statuses.length];
        for (int i = 0; i < statuses.length; i++) {
            names[i] = statuses[i].name();
        }
        return names;
    }
}
