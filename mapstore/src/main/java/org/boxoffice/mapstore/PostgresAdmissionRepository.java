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
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * General admission on PostgreSQL (tables in {@code V19__general_admission.sql}, functions in
 * {@code R__general_admission.sql}): the referee the grid's stripe store calls before it puts a new
 * stripe value in memory. Each change is one call of {@code apply_admission_change}, one
 * transaction: the stripe row, the hold's row and its part move together or not at all. Thread-safe;
 * every method borrows one pooled connection and returns it before returning.
 *
 * <p>Failures: a stripe row at another version, or a change that would take a stripe beyond its
 * capacity, is a {@link StaleInventoryException} (the grid drops its copy and reloads it); anything
 * else the database reports is a {@link DatabaseException}.
 */
public final class PostgresAdmissionRepository implements AdmissionRepository {

    /** The SQLSTATE PostgreSQL reports for a violated check constraint: a stripe beyond its capacity. */
    static final String CHECK_VIOLATION = "23514";

    private static final String APPLY = "SELECT apply_admission_change(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

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

    public PostgresAdmissionRepository(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource);
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

    @Override
    public void apply(AdmissionStripe next) {
        AdmissionStripe.Change change = next.change();
        if (change == null) {
            return;
        }
        String where = next.showId() + "/" + next.area() + "/" + next.stripe();
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
            boolean expires = change.kind() == AdmissionStripe.Kind.TAKE || change.kind() == AdmissionStripe.Kind.EXTEND;
            ps.setObject(10, expires ? PostgresInventoryRepository.timestamp(change.expiresAt()) : null,
                    Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setObject(11, PostgresInventoryRepository.timestamp(change.at()), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setArray(12, c.createArrayOf("text", change.ended().toArray(String[]::new)));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
            }
        } catch (SQLException e) {
            if (PostgresInventoryRepository.STALE_SQLSTATE.equals(e.getSQLState())
                    || CHECK_VIOLATION.equals(e.getSQLState())) {
                throw new StaleInventoryException(where + ": " + change.kind() + " refused: " + e.getMessage());
            }
            throw new DatabaseException("applying " + change.kind() + " to " + where, e);
        }
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
