package org.boxoffice.mapstore;

import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.AdmissionRepository;
import org.boxoffice.domain.AdmissionStripe;
import org.boxoffice.domain.HoldPolicy;
import org.boxoffice.domain.StaleInventoryException;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * General admission on PostgreSQL (tables in {@code V19__general_admission.sql}, functions in
 * {@code R__general_admission.sql}): the referee the grid's stripe store calls before it puts a new
 * stripe value in memory. Each change is one call of {@code apply_admission_change}: the stripe row,
 * the hold's row and its part move together or not at all. The changes of many stripes in flight at
 * once share one statement and one commit ({@link #apply}: a group commit, as the seats' is), each
 * still decided on its own. Thread-safe; every method borrows one pooled connection and returns it
 * before returning; the group commit's thread starts on first use and stops at {@link #close}.
 *
 * <p>Failures: a stripe row at another version, or a change that would take a stripe beyond its
 * capacity, is a {@link StaleInventoryException} (the grid drops its copy and reloads it); anything
 * else the database reports is a {@link DatabaseException}.
 */
public final class PostgresAdmissionRepository implements AdmissionRepository, AutoCloseable {

    /** The SQLSTATE PostgreSQL reports for a violated check constraint: a stripe beyond its capacity. */
    static final String CHECK_VIOLATION = "23514";

    private static final String APPLY = "SELECT apply_admission_change(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String APPLY_MANY = "SELECT apply_admission_batch(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    /**
     * Changes in flight at once share one statement and one commit, up to this many: each is a
     * subtransaction there, and PostgreSQL keeps up to 64 of a transaction's in shared memory.
     */
    static final int MAX_BATCH = 32;

    private static final Logger LOG = Logger.getLogger(PostgresAdmissionRepository.class.getName());

    private static final String LOAD_STRIPE = """
            SELECT s.capacity, s.taken, s.version, p.hold_id, h.account_id, p.quantity, epoch_ms(h.expires_at)
            FROM admission_stripes s
            LEFT JOIN admission_hold_parts p ON p.show_id = s.show_id AND p.area = s.area AND p.stripe = s.stripe
                                             AND p.status = 'ACTIVE'
            LEFT JOIN holds h ON h.hold_id = p.hold_id
            WHERE s.show_id = ? AND s.area = ? AND s.stripe = ?
            ORDER BY h.expires_at, p.hold_id""";

    private static final String LAPSED_STRIPES = """
            SELECT DISTINCT p.show_id, p.area, p.stripe
            FROM admission_hold_parts p JOIN holds h ON h.hold_id = p.hold_id
            WHERE p.status = 'ACTIVE' AND h.expires_at < ? ORDER BY 1, 2, 3""";

    /**
     * An area in one statement, so in one snapshot: what its stripes have unclaimed, what lapsed parts
     * keep, what parts of unsettled claims keep (a hold released but still ACTIVE on some stripe, or
     * one whose parts add up to fewer admissions than it asked for: only a part smaller than its hold
     * needs the sum), and every stripe's version. A part has lapsed as {@link HoldPolicy#lapsed} says:
     * its expiry plus the grace (parameter 3) at or before now (parameter 4).
     */
    private static final String REMAINING = """
            WITH s AS (
                SELECT stripe, capacity - taken AS unclaimed, version FROM admission_stripes
                WHERE show_id = ? AND area = ?
            ), p AS (
                SELECT p.quantity, epoch_ms(h.expires_at) + ? <= ? AS lapsed,
                       CASE WHEN h.status <> 'ACTIVE' AND h.status <> 'CONFIRMED' THEN true
                            WHEN p.quantity >= h.quantity THEN false
                            ELSE h.quantity > (SELECT sum(q.quantity) FROM admission_hold_parts q
                                               WHERE q.hold_id = p.hold_id AND q.status <> 'ENDED')
                       END AS in_flight
                FROM admission_hold_parts p JOIN holds h ON h.hold_id = p.hold_id
                WHERE p.show_id = ? AND p.area = ? AND p.status = 'ACTIVE'
            )
            SELECT (SELECT coalesce(sum(unclaimed), 0) FROM s) + (SELECT coalesce(sum(quantity), 0) FROM p WHERE lapsed),
                   (SELECT coalesce(sum(quantity), 0) FROM p WHERE in_flight AND NOT lapsed),
                   (SELECT array_agg(version ORDER BY stripe) FROM s)""";

    private final DataSource dataSource;
    private final GroupLoad<Write, Applied> commits;
    /** Changes being applied now, alone or in the group commit. */
    private final AtomicInteger inFlight = new AtomicInteger();

    public PostgresAdmissionRepository(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource);
        this.commits = new GroupLoad<>("referee-admission-commit", writes -> {
            List<Applied> applied = applyTogether(writes.stream().map(w -> w.next).toList());
            Map<Write, Applied> out = new HashMap<>();
            for (int i = 0; i < writes.size(); i++) {
                out.put(writes.get(i), applied.get(i));
            }
            return out;
        }, MAX_BATCH);
    }

    /** One stripe change waiting for the group commit; told apart by identity (a stripe's value hashes every part). */
    private static final class Write {
        private final AdmissionStripe next;

        Write(AdmissionStripe next) {
            this.next = next;
        }

        @Override
        public String toString() {
            return next.change().kind() + " of " + where(next);
        }
    }

    /** How one write ended: applied (null) or its failure, thrown to its caller alone. */
    record Applied(RuntimeException failure) {
        static final Applied DONE = new Applied(null);
    }

    @Override
    public boolean createArea(AdmissionArea area, long at) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT create_admission_area(?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, area.showId());
            ps.setString(2, area.name());
            ps.setInt(3, area.capacity());
            ps.setLong(4, area.priceCents());
            ps.setInt(5, area.stripes());
            ps.setObject(6, PostgresInventoryRepository.timestamp(at), Types.TIMESTAMP_WITH_TIMEZONE);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        } catch (SQLException e) {
            throw new DatabaseException("creating area " + area.showId() + "/" + area.name(), e);
        }
    }

    @Override
    public Resize resize(String showId, String area, int capacity) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT taken, resized FROM resize_admission_area(?, ?, ?)")) {
            ps.setString(1, showId);
            ps.setString(2, area);
            ps.setInt(3, capacity);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                int taken = rs.getInt(1);
                if (rs.getBoolean(2)) {
                    return new Resize.Done(taken);
                }
                return areas(showId).stream().anyMatch(a -> a.name().equals(area))
                        ? new Resize.BelowTaken(taken) : new Resize.NoArea();
            }
        } catch (SQLException e) {
            throw new DatabaseException("changing the capacity of area " + showId + "/" + area, e);
        }
    }

    @Override
    public List<AdmissionArea> areas(String showId) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("""
                     SELECT area, capacity, price_cents, stripes FROM admission_areas WHERE show_id = ? ORDER BY area""")) {
            ps.setString(1, showId);
            List<AdmissionArea> areas = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    areas.add(new AdmissionArea(showId, rs.getString(1), rs.getInt(2), rs.getLong(3), rs.getInt(4)));
                }
            }
            return areas;
        } catch (SQLException e) {
            throw new DatabaseException("reading the areas of show " + showId, e);
        }
    }

    @Override
    public Optional<AdmissionStripe> loadStripe(String showId, String area, int stripe) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(LOAD_STRIPE)) {
            ps.setString(1, showId);
            ps.setString(2, area);
            ps.setInt(3, stripe);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                int capacity = rs.getInt(1);
                int taken = rs.getInt(2);
                long version = rs.getLong(3);
                List<AdmissionStripe.Part> parts = new ArrayList<>();
                int held = 0;
                do {
                    if (rs.getString(4) != null) {
                        parts.add(new AdmissionStripe.Part(rs.getString(4), rs.getString(5), rs.getInt(6), rs.getLong(7)));
                        held += rs.getInt(6);
                    }
                } while (rs.next());
                // what the row counts beyond its live parts is sold
                return Optional.of(new AdmissionStripe(showId, area, stripe, capacity, taken - held, parts, version, null));
            }
        } catch (SQLException e) {
            throw new DatabaseException("loading stripe " + showId + "/" + area + "/" + stripe, e);
        }
    }

    /**
     * Applies {@code next}'s change together with the changes of other stripes in flight: one
     * statement and one commit for all of them, each still decided on its own (a stale copy or a
     * change beyond its stripe's capacity refuses that change alone, and writes none of its rows).
     * Returns once the change is durable.
     */
    @Override
    public void apply(AdmissionStripe next) {
        if (next.change() == null) {
            return;
        }
        // a change alone in flight goes straight to the referee on the caller's thread: handing it to
        // the committer only adds two thread switches to the one round trip it costs either way, and
        // the changes of a claim that takes across stripes, one after another, would pay them each time
        if (inFlight.incrementAndGet() == 1) {
            try {
                applyAlone(next);
                return;
            } finally {
                inFlight.decrementAndGet();
            }
        }
        RuntimeException failure;
        try {
            failure = commits.load(new Write(next)).failure();
        } finally {
            inFlight.decrementAndGet();
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Stops the group commit; changes still queued fail (their stores fail, memory is unchanged). */
    @Override
    public void close() {
        commits.close();
    }

    /**
     * The group commit's batch: one call of {@code apply_admission_batch} in one transaction. If
     * the statement fails for another reason than a lost connection, each change is applied alone,
     * so that each caller hears about its own change only.
     */
    List<Applied> applyTogether(List<AdmissionStripe> nexts) {
        List<Applied> out = new ArrayList<>(nexts.size());
        if (nexts.size() > 1) {
            try {
                int[] results = applyMany(nexts);
                for (int i = 0; i < nexts.size(); i++) {
                    out.add(results[i] >= 0 ? Applied.DONE
                            : new Applied(refused(nexts.get(i), "the stripe row moved on, or it would go beyond its capacity")));
                }
                return out;
            } catch (SQLException e) {
                if (e.getSQLState() != null && e.getSQLState().startsWith("08")) {
                    // the connection failed: every change's fate is unknown alike
                    throw new DatabaseException("applying " + nexts.size() + " changes of admission stripes", e);
                }
                LOG.log(Level.FINE, "a batch of " + nexts.size() + " stripe changes failed; applying them one by one", e);
            }
        }
        for (AdmissionStripe next : nexts) {
            try {
                applyAlone(next);
                out.add(Applied.DONE);
            } catch (RuntimeException e) {
                out.add(new Applied(e));
            }
        }
        return out;
    }

    /**
     * The changes in one statement, in the order of their stripes (show, area, stripe): the order in
     * which a rebalancing locks the rows it moves capacity between, so the two never wait on each
     * other in a circle. Answers in the order asked.
     */
    private int[] applyMany(List<AdmissionStripe> asked) throws SQLException {
        int n = asked.size();
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparing((Integer i) -> asked.get(i).showId())
                .thenComparing(i -> asked.get(i).area()).thenComparingInt(i -> asked.get(i).stripe())
                .thenComparingLong(i -> asked.get(i).version()));
        List<AdmissionStripe> nexts = new ArrayList<>(n);
        for (Integer i : order) {
            nexts.add(asked.get(i));
        }
        String[] shows = new String[n];
        String[] areas = new String[n];
        Integer[] stripes = new Integer[n];
        Long[] versions = new Long[n];
        String[] kinds = new String[n];
        String[] holds = new String[n];
        String[] holders = new String[n];
        Integer[] quantities = new Integer[n];
        Integer[] holdQuantities = new Integer[n];
        String[] expiries = new String[n]; // timestamps as ISO text, as the seats' group commit sends them
        String[] ats = new String[n];
        Integer[] endedCounts = new Integer[n];
        List<String> ended = new ArrayList<>();
        Integer[] moreCounts = new Integer[n];
        List<AdmissionStripe.Take> more = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            AdmissionStripe next = nexts.get(i);
            AdmissionStripe.Change change = next.change();
            shows[i] = next.showId();
            areas[i] = next.area();
            stripes[i] = next.stripe();
            versions[i] = next.version();
            kinds[i] = change.kind().name();
            holds[i] = change.holdId();
            holders[i] = change.accountId();
            quantities[i] = change.quantity();
            holdQuantities[i] = change.holdQuantity();
            expiries[i] = expires(change) ? Instant.ofEpochMilli(change.expiresAt()).toString() : null;
            ats[i] = Instant.ofEpochMilli(change.at()).toString();
            endedCounts[i] = change.ended().size();
            ended.addAll(change.ended());
            moreCounts[i] = change.more().size();
            more.addAll(change.more());
        }
        Takes takes = Takes.of(more);
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(APPLY_MANY)) {
            ps.setArray(1, c.createArrayOf("text", shows));
            ps.setArray(2, c.createArrayOf("text", areas));
            ps.setArray(3, c.createArrayOf("int4", stripes));
            ps.setArray(4, c.createArrayOf("int8", versions));
            ps.setArray(5, c.createArrayOf("text", kinds));
            ps.setArray(6, c.createArrayOf("text", holds));
            ps.setArray(7, c.createArrayOf("text", holders));
            ps.setArray(8, c.createArrayOf("int4", quantities));
            ps.setArray(9, c.createArrayOf("int4", holdQuantities));
            ps.setArray(10, c.createArrayOf("timestamptz", expiries));
            ps.setArray(11, c.createArrayOf("timestamptz", ats));
            ps.setArray(12, c.createArrayOf("int4", endedCounts));
            ps.setArray(13, c.createArrayOf("text", ended.toArray(String[]::new)));
            ps.setArray(14, c.createArrayOf("int4", moreCounts));
            takes.set(ps, 15, c);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                Object[] results = (Object[]) rs.getArray(1).getArray();
                int[] out = new int[n];
                for (int i = 0; i < n; i++) {
                    out[order[i]] = ((Number) results[i]).intValue();
                }
                return out;
            }
        }
    }

    /** One change in its own transaction (a batch of one, or a batch's changes one by one). */
    private void applyAlone(AdmissionStripe next) {
        AdmissionStripe.Change change = next.change();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(APPLY)) {
            ps.setString(1, next.showId());
            ps.setString(2, next.area());
            ps.setInt(3, next.stripe());
            ps.setLong(4, next.version());
            ps.setString(5, change.kind().name());
            ps.setString(6, change.holdId());
            ps.setString(7, change.accountId());
            ps.setInt(8, change.quantity());
            ps.setInt(9, change.holdQuantity());
            ps.setObject(10, expires(change) ? PostgresInventoryRepository.timestamp(change.expiresAt()) : null,
                    Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setObject(11, PostgresInventoryRepository.timestamp(change.at()), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setArray(12, c.createArrayOf("text", change.ended().toArray(String[]::new)));
            Takes.of(change.more()).set(ps, 13, c);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
            }
        } catch (SQLException e) {
            if (PostgresInventoryRepository.STALE_SQLSTATE.equals(e.getSQLState())
                    || CHECK_VIOLATION.equals(e.getSQLState())) {
                throw refused(next, e.getMessage());
            }
            throw new DatabaseException("applying " + change.kind() + " to " + where(next), e);
        }
    }

    /** Takes stored with TAKE changes ({@link AdmissionStripe.Change#more}), as the referee's six parallel arrays. */
    private record Takes(String[] holds, String[] holders, Integer[] quantities, Integer[] holdQuantities,
                         String[] expiries, String[] ats) {
        static Takes of(List<AdmissionStripe.Take> takes) {
            int n = takes.size();
            Takes t = new Takes(new String[n], new String[n], new Integer[n], new Integer[n], new String[n], new String[n]);
            for (int i = 0; i < n; i++) {
                AdmissionStripe.Take take = takes.get(i);
                t.holds[i] = take.holdId();
                t.holders[i] = take.accountId();
                t.quantities[i] = take.quantity();
                t.holdQuantities[i] = take.holdQuantity();
                t.expiries[i] = Instant.ofEpochMilli(take.expiresAt()).toString();
                t.ats[i] = Instant.ofEpochMilli(take.at()).toString();
            }
            return t;
        }

        /** Sets the six arrays as parameters {@code from} to {@code from + 5}. */
        void set(PreparedStatement ps, int from, Connection c) throws SQLException {
            ps.setArray(from, c.createArrayOf("text", holds));
            ps.setArray(from + 1, c.createArrayOf("text", holders));
            ps.setArray(from + 2, c.createArrayOf("int4", quantities));
            ps.setArray(from + 3, c.createArrayOf("int4", holdQuantities));
            ps.setArray(from + 4, c.createArrayOf("timestamptz", expiries));
            ps.setArray(from + 5, c.createArrayOf("timestamptz", ats));
        }
    }

    private static StaleInventoryException refused(AdmissionStripe next, String why) {
        return new StaleInventoryException(where(next) + ": " + next.change().kind() + " refused: " + why);
    }

    private static String where(AdmissionStripe next) {
        return next.showId() + "/" + next.area() + "/" + next.stripe();
    }

    /** Whether the change sets the hold's expiry (a TAKE's and an EXTEND's); the others pass none. */
    private static boolean expires(AdmissionStripe.Change change) {
        return change.kind() == AdmissionStripe.Kind.TAKE || change.kind() == AdmissionStripe.Kind.EXTEND;
    }

    @Override
    public int move(String showId, String area, int from, int to, int want) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT move_admission_capacity(?, ?, ?, ?, ?)")) {
            ps.setString(1, showId);
            ps.setString(2, area);
            ps.setInt(3, from);
            ps.setInt(4, to);
            ps.setInt(5, want);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new DatabaseException("moving capacity in area " + showId + "/" + area, e);
        }
    }

    @Override
    public int taken(String showId, String area) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "SELECT coalesce(sum(taken), 0) FROM admission_stripes WHERE show_id = ? AND area = ?")) {
            ps.setString(1, showId);
            ps.setString(2, area);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new DatabaseException("reading what is taken in area " + showId + "/" + area, e);
        }
    }

    @Override
    public Remaining remaining(String showId, String area, long now, long graceMillis) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(REMAINING)) {
            ps.setString(1, showId);
            ps.setString(2, area);
            ps.setLong(3, graceMillis);
            ps.setLong(4, now);
            ps.setString(5, showId);
            ps.setString(6, area);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                List<Long> versions = new ArrayList<>();
                java.sql.Array array = rs.getArray(3);
                if (array != null) {
                    for (Object v : (Object[]) array.getArray()) {
                        versions.add(((Number) v).longValue());
                    }
                }
                return new Remaining(rs.getInt(1), rs.getInt(2), versions);
            }
        } catch (SQLException e) {
            throw new DatabaseException("counting what is left in area " + showId + "/" + area, e);
        }
    }

    @Override
    public List<StripeId> stripesWithHoldsLapsedBefore(long lapsedBefore) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(LAPSED_STRIPES)) {
            ps.setObject(1, PostgresInventoryRepository.timestamp(lapsedBefore), Types.TIMESTAMP_WITH_TIMEZONE);
            List<StripeId> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new StripeId(rs.getString(1), rs.getString(2), rs.getInt(3)));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new DatabaseException("finding stripes with lapsed holds", e);
        }
    }

    @Override
    public List<HoldPart> parts(String holdId) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "SELECT stripe, quantity, status FROM admission_hold_parts WHERE hold_id = ? ORDER BY stripe")) {
            ps.setString(1, holdId);
            List<HoldPart> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new HoldPart(rs.getInt(1), rs.getInt(2), PartStatus.valueOf(rs.getString(3))));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new DatabaseException("reading the parts of hold " + holdId, e);
        }
    }
}
