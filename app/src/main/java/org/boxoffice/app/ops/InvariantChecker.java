package org.boxoffice.app.ops;

import org.boxoffice.domain.HoldPolicy;
import org.boxoffice.grid.Daemons;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Checks the invariants against PostgreSQL on a schedule (on one member of a cluster at a time, the
 * oldest: the checks read whole tables), logs and counts any violation, and exports the counts as
 * gauges on every member ({@code boxoffice_invariant_violations{kind=...}}, which must stay 0)
 * plus the expiry lag ({@code boxoffice_expiry_lag_seconds}: now minus the oldest expiry-plus-grace
 * of a seat still HELD; 0 when nothing is overdue).
 *
 * <ul>
 *   <li>{@code double_sold}: a seat in more than one live booking (the unique index forbids it);
 *       admission tickets are numbered per booking and are checked below;</li>
 *   <li>{@code held_without_hold}: a HELD seat whose hold row does not exist;</li>
 *   <li>{@code hold_disagrees}: an active hold before its expiry (older than a few seconds, so holds
 *       being claimed block by block are not caught mid-way) whose seats are not all HELD by it.</li>
 *   <li>{@code admissions_beyond_capacity}: a general-admission area with more admissions taken (held
 *       or sold) than its capacity, or whose stripes do not add up to it (the rows refuse both);</li>
 *   <li>{@code admissions_unbacked}: a stripe whose admissions taken are not exactly those of its
 *       live and sold hold parts: every admission is backed by a hold or a sale.</li>
 *   <li>{@code admission_tickets_beyond_capacity}: an area with more live admission tickets than its capacity;</li>
 *   <li>{@code admission_tickets_unbacked}: a confirmed booking of admissions whose live tickets are not
 *       exactly its hold's sold admissions;</li>
 *   <li>{@code admissions_sold_unbooked}: admissions sold to a hold that has no booking (confirmed, or
 *       refunded and on its way back to sale) and no payment settling it now.</li>
 * </ul>
 * When a hold has lapsed is {@link HoldPolicy#lapsed}'s to say; the queries take it from
 * {@link #lapsed} and {@link #lapsesAt}, its SQL twins, which a test holds to it at the boundary.
 */
public final class InvariantChecker implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(InvariantChecker.class.getName());

    static final Map<String, String> CHECKS = new LinkedHashMap<>();
    /** Checks that read checkout's tables (bookings, booking_seats, payments). */
    private static final java.util.Set<String> CHECKOUT_CHECKS = java.util.Set.of("double_sold",
            "admission_tickets_beyond_capacity", "admission_tickets_unbacked", "admissions_sold_unbooked");

    static {
        CHECKS.put("double_sold", "SELECT count(*) FROM (SELECT show_id, seat_id FROM booking_seats WHERE live "
                + "AND area IS NULL GROUP BY show_id, seat_id HAVING count(*) > 1) d");
        CHECKS.put("held_without_hold", "SELECT count(*) FROM seats s WHERE s.state = 'HELD' "
                + "AND NOT EXISTS (SELECT 1 FROM holds h WHERE h.hold_id = s.hold_id)");
        // before its expiry: a whole grace before it lapses, so seats that a member whose clock runs a
        // little ahead of PostgreSQL's has just returned to sale are not counted against it
        CHECKS.put("hold_disagrees", "SELECT count(*) FROM holds h WHERE h.status = 'ACTIVE' AND NOT "
                + lapsed("h.expires_at", "0", "now()") + " "
                + "AND h.created_at < now() - interval '10 seconds' AND EXISTS (SELECT 1 FROM unnest(h.seat_ids) sid "
                + "LEFT JOIN seats s ON s.show_id = h.show_id AND s.seat_id = sid "
                + "WHERE s.seat_id IS NULL OR s.state <> 'HELD' OR s.hold_id IS DISTINCT FROM h.hold_id)");
        CHECKS.put("admissions_beyond_capacity", "SELECT count(*) FROM admission_areas a "
                + "JOIN LATERAL (SELECT coalesce(sum(s.taken), 0) AS taken, coalesce(sum(s.capacity), 0) AS capacity "
                + "FROM admission_stripes s WHERE s.show_id = a.show_id AND s.area = a.area) t ON true "
                + "WHERE t.taken > a.capacity OR t.capacity <> a.capacity");
        CHECKS.put("admissions_unbacked", "SELECT count(*) FROM admission_stripes s WHERE s.taken <> "
                + "(SELECT coalesce(sum(p.quantity), 0) FROM admission_hold_parts p WHERE p.show_id = s.show_id "
                + "AND p.area = s.area AND p.stripe = s.stripe AND p.status <> 'ENDED')");
        CHECKS.put("admission_tickets_beyond_capacity", "SELECT count(*) FROM admission_areas a WHERE a.capacity < "
                + "(SELECT count(*) FROM booking_seats bs WHERE bs.show_id = a.show_id AND bs.area = a.area AND bs.live)");
        // a booking's live admission tickets are exactly its hold's sold admissions
        CHECKS.put("admission_tickets_unbacked", "SELECT count(*) FROM bookings b JOIN holds h ON h.hold_id = b.hold_id "
                + "WHERE h.area IS NOT NULL AND (SELECT count(*) FROM booking_seats bs WHERE bs.booking_id = b.booking_id "
                + "AND bs.live) <> (SELECT coalesce(sum(p.quantity), 0) FROM admission_hold_parts p "
                + "WHERE p.hold_id = b.hold_id AND p.status = 'SOLD') AND b.status = 'CONFIRMED'");
        // sold admissions belong to a booking (or to the payment settling them right now)
        CHECKS.put("admissions_sold_unbooked", "SELECT count(*) FROM admission_hold_parts p WHERE p.status = 'SOLD' "
                + "AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.hold_id = p.hold_id "
                + "AND b.status IN ('CONFIRMED', 'REFUNDED')) "
                + "AND NOT EXISTS (SELECT 1 FROM payments pm WHERE pm.hold_id = p.hold_id AND pm.settlement = 'SETTLING')");
    }

    /**
     * The expiry-lag probe (every 2 s, on the checking member; the others report what it found).
     * {@code held_until < now()} adds nothing to
     * the answer (a show's grace is never negative) but lets PostgreSQL read only the lapsed seats,
     * a range of the HELD seats' expiry index, instead of every HELD seat: with 15,000 seats held
     * for minutes (a few sold-out stampedes) it took 18-42 ms a call, against 0.07 ms now.
     */
    public static final String EXPIRY_LAG = "SELECT coalesce(extract(epoch FROM now() - min("
            + lapsesAt("s.held_until", "sh.grace_millis") + ")), 0) FROM seats s JOIN shows sh ON sh.show_id = s.show_id "
            + "WHERE s.state = 'HELD' AND s.held_until < now() AND " + lapsed("s.held_until", "sh.grace_millis", "now()");

    /**
     * {@link HoldPolicy#lapsesAt} in SQL: the moment a hold expiring at {@code expiresAt} (a
     * timestamptz expression) lapses under a grace of {@code graceMillis} (a bigint expression).
     */
    static String lapsesAt(String expiresAt, String graceMillis) {
        return "(" + expiresAt + " + make_interval(secs => " + graceMillis + " / 1000.0))";
    }

    /**
     * {@link HoldPolicy#lapsed} in SQL: whether that hold has lapsed at {@code now} (a timestamptz
     * expression): from its expiry plus the grace on, that moment included.
     */
    static String lapsed(String expiresAt, String graceMillis, String now) {
        return "(" + lapsesAt(expiresAt, graceMillis) + " <= " + now + ")";
    }

    private final DataSource dataSource;
    private final OpsMetrics metrics;
    /** Whether this member runs the checks (the cluster's oldest); the others report its findings. */
    private final java.util.function.BooleanSupplier checksHere;
    /** The last check's counts by kind, shared by the members (the grid's); null: this member's own only. */
    private final Map<String, Long> findings;
    private final Map<String, Long> violations = new ConcurrentHashMap<>();
    private volatile double expiryLagSeconds;
    private static final String VIOLATION_EVENTS = "boxoffice_invariant_violation_events";
    private static final String VIOLATION_EVENTS_HELP = "checks that found violations, by kind";
    private final ScheduledExecutorService timer = Daemons.scheduler("invariant-checker");

    /** A checker that runs every check itself: a single member, or a test. */
    public InvariantChecker(DataSource dataSource, OpsMetrics metrics) {
        this(dataSource, metrics, () -> true, null);
    }

    /**
     * A checker of one member of a cluster. The checks read whole tables, so the cluster runs them
     * once per interval, not once per member: only while {@code checksHere} says so (the oldest
     * member) does this member run them, and it writes its counts into {@code findings}; every
     * other member's gauges report the counts found there.
     */
    public InvariantChecker(DataSource dataSource, OpsMetrics metrics, java.util.function.BooleanSupplier checksHere,
                            Map<String, Long> findings) {
        this.dataSource = dataSource;
        this.metrics = metrics;
        this.checksHere = checksHere;
        this.findings = findings;
        CHECKS.keySet().forEach(kind -> {
            violations.put(kind, 0L);
            metrics.count(VIOLATION_EVENTS, VIOLATION_EVENTS_HELP, "kind", kind, 0);
            metrics.gauge("boxoffice_invariant_violations", "rows breaking an invariant at the last check (must be 0)",
                    "kind", kind, () -> violations.get(kind));
        });
        metrics.gauge("boxoffice_expiry_lag_seconds", "now minus the oldest expiry plus grace of a seat still HELD",
                () -> expiryLagSeconds);
    }

    public InvariantChecker start(long checkMillis, long lagMillis) {
        timer.scheduleWithFixedDelay(this::guardedCheck, checkMillis, checkMillis, TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(this::guardedLag, lagMillis, lagMillis, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Runs every check now; returns the violation counts by kind. */
    public Map<String, Long> checkNow() {
        Map<String, Long> found = new LinkedHashMap<>();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            for (Map.Entry<String, String> check : CHECKS.entrySet()) {
                long count = 0;
                if (!CHECKOUT_CHECKS.contains(check.getKey()) || tableExists(c, "booking_seats")) {
                    try (ResultSet rs = s.executeQuery(check.getValue())) {
                        rs.next();
                        count = rs.getLong(1);
                    }
                }
                found.put(check.getKey(), count);
                violations.put(check.getKey(), count);
                if (count > 0) {
                    metrics.count(VIOLATION_EVENTS, VIOLATION_EVENTS_HELP, "kind", check.getKey(), 1);
                    LOG.severe("INVARIANT VIOLATED: " + check.getKey() + " (" + count + " rows)");
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("invariant check failed: " + e.getMessage(), e);
        }
        return found;
    }

    public double expiryLagNow() {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(EXPIRY_LAG)) {
            rs.next();
            expiryLagSeconds = rs.getDouble(1);
            return expiryLagSeconds;
        } catch (SQLException e) {
            throw new IllegalStateException("expiry lag probe failed: " + e.getMessage(), e);
        }
    }

    private static boolean tableExists(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT to_regclass('" + table + "') IS NOT NULL")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    /**
     * One scheduled turn: on the checking member, the checks, their counts shared; on any other,
     * the shared counts taken over (a kind nobody has counted yet reads 0).
     */
    void tick() {
        if (checksHere.getAsBoolean()) {
            Map<String, Long> found = checkNow();
            if (findings != null) {
                findings.putAll(found);
            }
        } else if (findings != null) {
            for (String kind : CHECKS.keySet()) {
                Long count = findings.get(kind);
                violations.put(kind, count == null ? 0L : count);
            }
        }
    }

    /** The violation counts the gauges report now, by kind. */
    Map<String, Long> violations() {
        return Map.copyOf(violations);
    }

    private void guardedCheck() {
        try {
            tick();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "invariant check skipped: " + e.getMessage());
        }
    }

    /** Where the checking member shares the expiry lag in {@code findings}, in milliseconds (no check kind is named so). */
    static final String EXPIRY_LAG_FINDING = "expiry_lag_millis";

    /**
     * One turn of the expiry-lag probe: on the checking member, the probe, its answer shared; on any
     * other, the shared answer taken over. Every member asked PostgreSQL every 2 s before: with three
     * members the probe was called three times as often and took five times as long a call (1.8 ms
     * against 0.3 ms) in a sale.
     */
    void lagTick() {
        if (checksHere.getAsBoolean() || findings == null) {
            double lag = expiryLagNow();
            if (findings != null) {
                findings.put(EXPIRY_LAG_FINDING, Math.round(lag * 1000));
            }
        } else {
            Long millis = findings.get(EXPIRY_LAG_FINDING);
            expiryLagSeconds = millis == null ? 0 : millis / 1000.0;
        }
    }

    /** The expiry lag the gauge reports now, in seconds. */
    double expiryLagSeconds() {
        return expiryLagSeconds;
    }

    private void guardedLag() {
        try {
            lagTick();
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "expiry lag probe skipped", e);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
