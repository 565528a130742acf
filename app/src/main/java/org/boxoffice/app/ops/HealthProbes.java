package org.boxoffice.app.ops;

import org.boxoffice.grid.Daemons;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.app.http.HttpCaching;
import org.boxoffice.app.http.Json;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The probes at {@code /observe/health}, built so they never compete with an on-sale:
 * <ul>
 *   <li>{@code /observe/health/live}: a flag read (is the member running); no database, no grid
 *       round trip, a body encoded once. Liveness must not fail because a dependency is slow, or a
 *       busy member is restarted in the middle of a sale.
 *   <li>{@code /observe/health/ready}: "this member serves now" (joined with its quorum, PostgreSQL
 *       answering, catalog loaded, warm). The check runs on a thread of its own once per
 *       {@code every}, never on a request; requests get the last answer from memory. It is at most
 *       one period plus one check old. It does not ask whether partitions are migrating: a join or
 *       a leave must not take every member out of the load balancer at once. A member whose process
 *       was stopped (a frozen VM, SIGSTOP, a pause of seconds) wakes up with an answer from before,
 *       about a cluster that may have taken it out meanwhile: a ticker notices the lost time, and the
 *       member answers 503 at once and for {@code holdDown} after, until checks made since tell.
 *   <li>{@code /observe/health/safe}: "the next member may go" (no partition migrating, every
 *       backup in sync), for an operator or a script pacing a scale-down or a rolling restart. Also
 *       checked off the request path, on a thread of its own: the cluster-wide question can wait
 *       while partitions move, and must never make readiness stale.
 *   <li>{@code /observe/health}: liveness and readiness.
 * </ul>
 * Answers are 200 when up, 503 when down, with a JSON body
 * {@code {"status":"UP","checks":[{"name":..,"status":..,"data":{..}}]}} and {@code no-store}.
 *
 * <pre>
 * curl -i localhost:8080/observe/health/ready
 * curl -i localhost:8080/observe/health/safe
 * </pre>
 */
public final class HealthProbes implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(HealthProbes.class.getName());
    /** How often the ticker notes that the process runs, and how much lost time means it was stopped. */
    private static final Duration TICK = Duration.ofMillis(250);
    private static final Duration STOPPED = Duration.ofSeconds(2);
    /**
     * How long a member that was stopped stays not ready: long enough for the grid to show what
     * happened meanwhile (the quorum counts a member's heartbeats over 5 s; a member taken out
     * finds out within a heartbeat or two and merges back).
     */
    private static final Duration HOLD_DOWN = Duration.ofSeconds(6);

    /** A check's outcome: up or down, and what it saw. */
    public record Check(String name, boolean up, Map<String, Object> data) {
    }

    /** An answer as sent. */
    private record Probe(int status, byte[] body) {

        static Probe of(List<Check> checks) {
            boolean up = checks.stream().allMatch(Check::up);
            List<Map<String, Object>> list = checks.stream().map(c -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", c.name());
                m.put("status", c.up() ? "UP" : "DOWN");
                m.put("data", c.data());
                return m;
            }).toList();
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("status", up ? "UP" : "DOWN");
            body.put("checks", list);
            return new Probe(up ? 200 : 503, Json.bytes(body));
        }
    }

    private final String liveName;
    private final BooleanSupplier live;
    private final Supplier<Check> readiness;
    private final Supplier<Check> safety;
    private final Probe liveUp;
    private final Probe liveDown;
    private final LongAdder checks = new LongAdder();
    private final ScheduledExecutorService checker;
    private final ScheduledExecutorService safetyChecker;
    private volatile Check ready;
    private volatile Probe readyProbe;
    private volatile Probe bothProbe;
    private volatile Check safe;
    private volatile Probe safeProbe;
    private final ScheduledExecutorService ticker;
    private final long holdDownNanos;
    /** The ticker's last run (nanoTime), the end of a hold-down, and a count of wake-ups that voids checks begun before one. */
    private volatile long lastTick = System.nanoTime();
    private volatile long heldDownUntil = System.nanoTime();
    /** How long the process was stopped the last time it was ({@link #wokeUp}), for the answers of its hold-down. */
    private volatile long lastStopMillis;
    private final java.util.concurrent.atomic.AtomicLong wakeUps = new java.util.concurrent.atomic.AtomicLong();

    /**
     * Runs the readiness and the safety checks once now, then every {@code every}, each on a daemon
     * thread of its own.
     *
     * @param live      whether this member runs; must be a local read (no I/O)
     * @param readiness the readiness check; may do I/O, runs off the request path
     * @param safety    whether the next member may leave (cluster safe); may wait, runs off the request path
     */
    public HealthProbes(String liveName, BooleanSupplier live, Supplier<Check> readiness, Supplier<Check> safety,
                        Duration every) {
        this(liveName, live, readiness, safety, every, HOLD_DOWN);
    }

    HealthProbes(String liveName, BooleanSupplier live, Supplier<Check> readiness, Supplier<Check> safety,
                 Duration every, Duration holdDown) {
        this.holdDownNanos = holdDown.toNanos();
        this.liveName = liveName;
        this.live = live;
        this.readiness = readiness;
        this.safety = safety;
        this.liveUp = Probe.of(List.of(new Check(liveName, true, Map.of())));
        this.liveDown = Probe.of(List.of(new Check(liveName, false, Map.of())));
        refresh();
        // down until first checked; the first check runs at once, on its own thread (it may wait)
        this.safe = new Check("cluster-safe", false, Map.of("checked", false));
        this.safeProbe = Probe.of(List.of(safe));
        long period = Math.max(1, every.toMillis());
        this.checker = Daemons.scheduler("readiness-probe");
        checker.scheduleWithFixedDelay(this::refresh, period, period, TimeUnit.MILLISECONDS);
        this.safetyChecker = Daemons.scheduler("safety-probe");
        safetyChecker.scheduleWithFixedDelay(this::refreshSafety, 0, period, TimeUnit.MILLISECONDS);
        // a thread of its own: a slow readiness check must not look like a stopped process
        this.ticker = Daemons.scheduler("health-ticker");
        ticker.scheduleAtFixedRate(this::tick, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void tick() {
        long now = System.nanoTime();
        long lost = now - lastTick;
        if (lost > STOPPED.toNanos()) {
            // before the tick moves on: until then a request sees the stop for itself
            wokeUp(Duration.ofNanos(lost));
        }
        lastTick = now;
    }

    /**
     * The process ran nothing for {@code stopped}: the last answer is void, the member is not ready
     * for the hold-down, and a check runs at once (checks begun before this one are dropped).
     */
    void wokeUp(Duration stopped) {
        // the hold-down first: a check that sees the new wake-up count also sees its hold-down
        heldDownUntil = System.nanoTime() + holdDownNanos;
        lastStopMillis = stopped.toMillis();
        wakeUps.incrementAndGet();
        keep(woken(stopped.toMillis()));
        LOG.warning(() -> String.format(java.util.Locale.ROOT, "this process was stopped for %.1f s: not ready for"
                + " the next %d s, until the grid has shown what happened meanwhile", stopped.toMillis() / 1000.0,
                holdDownNanos / 1_000_000_000L));
        checker.execute(this::refresh);
    }

    private static Check woken(long stoppedMillis) {
        return new Check("boxoffice", false, Map.of("resumedAfterStopMillis", stoppedMillis));
    }

    /** Runs the safety check and keeps its answer. */
    void refreshSafety() {
        Check c = run(safety, "cluster-safe");
        safe = c;
        safeProbe = Probe.of(List.of(c));
    }

    private static Check run(Supplier<Check> check, String name) {
        try {
            return check.get();
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, name + " check failed", e);
            return new Check(name, false, Map.of("error", String.valueOf(e.getMessage())));
        }
    }

    /** Runs the readiness check and keeps its answer (the checker thread calls this; so may a change of state that must show at once). */
    public void refresh() {
        long wakeUp = wakeUps.get();
        Check c = run(readiness, "boxoffice");
        checks.increment();
        if (wakeUps.get() != wakeUp) {
            return; // begun before the process was stopped: it may describe a cluster that is gone
        }
        if (c.up() && System.nanoTime() - heldDownUntil < 0) {
            Map<String, Object> data = new LinkedHashMap<>(c.data());
            data.put("heldDownAfterStop", true);
            data.put("resumedAfterStopMillis", lastStopMillis);
            c = new Check(c.name(), false, data);
        }
        keep(c);
    }

    private void keep(Check c) {
        Check liveCheck = new Check(liveName, true, Map.of());
        ready = c;
        readyProbe = Probe.of(List.of(c));
        bothProbe = Probe.of(List.of(liveCheck, c));
    }

    /**
     * The answer to give now: the last one, unless the ticker has not run for so long that the
     * process was stopped, or a hold-down after a stop is still running (whatever answer was kept
     * meanwhile: the request may be served between the wake-up being noticed and its answer kept).
     */
    private Probe readyNow(Probe last, boolean withLive) {
        long now = System.nanoTime();
        long lost = now - lastTick;
        boolean heldDown = now - heldDownUntil < 0;
        if (lost <= STOPPED.toNanos() && (!heldDown || last.status() != 200)) {
            return last;
        }
        Check stopped = woken(lost <= STOPPED.toNanos() ? lastStopMillis : lost / 1_000_000);
        return Probe.of(withLive ? List.of(new Check(liveName, true, Map.of()), stopped) : List.of(stopped));
    }

    /** The status a readiness request gets now (tests). */
    int readyStatus() {
        return readyNow(readyProbe, false).status();
    }

    /** How many times the readiness check has run (tests: requests never run it). */
    long checks() {
        return checks.sum();
    }

    /** The last readiness answer. */
    public Check ready() {
        return ready;
    }

    /** The last safety answer. */
    public Check safe() {
        return safe;
    }

    public void routing(HttpRouting.Builder routing) {
        routing.get("/observe/health/live", (req, res) -> send(res, live.getAsBoolean() ? liveUp : liveDown))
                .get("/observe/health/ready", (req, res) -> send(res, readyNow(readyProbe, false)))
                .get("/observe/health/safe", (req, res) -> send(res, safeProbe))
                .get("/observe/health", (req, res) -> send(res, live.getAsBoolean() ? readyNow(bothProbe, true) : liveDown));
    }

    private static void send(ServerResponse res, Probe probe) {
        res.header(HeaderNames.CACHE_CONTROL, HttpCaching.NO_STORE);
        Json.sendBytes(res, probe.status(), probe.body());
    }

    @Override
    public void close() {
        checker.shutdownNow();
        safetyChecker.shutdownNow();
        ticker.shutdownNow();
    }
}
