package org.boxoffice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.bench.check.BookingState;
import org.boxoffice.bench.check.RunChecker;
import org.boxoffice.bench.check.ReferenceState;
import org.boxoffice.bench.http.BoxofficeApi;
import org.boxoffice.bench.load.Buyer;
import org.boxoffice.bench.load.LoadRun;
import org.boxoffice.bench.load.OpenLoopRun;
import org.boxoffice.bench.load.Sweep;
import org.boxoffice.bench.load.RunResult;
import org.boxoffice.bench.load.ShowPlan;
import org.boxoffice.bench.load.Target;
import org.boxoffice.bench.probe.ExpiryCheck;
import org.boxoffice.bench.probe.HeapFootprint;
import org.boxoffice.bench.probe.JfrProfile;
import org.boxoffice.bench.probe.RefereeStats;
import org.boxoffice.bench.report.HalfRate;
import org.boxoffice.bench.report.SystemOutcome;

import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * Boxoffice's part of a run: start the service (or use {@code --url}), sign the crowd in, create
 * the hot show, warm up, sweep, open the waiting room with the bots if asked, sell, check; then the
 * half-rate sale, the expiry check, the heap footprint and the bots' figures.
 */
final class BoxofficeRun {

    /** How often the warm-up scrapes Boxoffice's metrics endpoint (Prometheus's usual 15 s, shortened to fit a 30 s warm-up). */
    static final Duration METRICS_SCRAPE_EVERY = Duration.ofSeconds(5);
    private static final int MEMORY_SHOWS = 5;

    private final BenchOptions o;
    private final Path out;
    private final List<String> notes;
    private final Deque<AutoCloseable> resources;
    private final RunEnvironment env;
    private final Database db;
    private final SystemRun system;
    private final BotFigures bots;

    BoxofficeRun(RunEnvironment env, Database db, SystemRun system, BotFigures bots) {
        this.o = env.options();
        this.out = env.out();
        this.notes = env.notes();
        this.resources = env.resources();
        this.env = env;
        this.db = db;
        this.system = system;
        this.bots = bots;
    }

    record Outcome(SystemOutcome outcome, ExpiryCheck.Result expiry, HeapFootprint.Result memory, HalfRate halfRate) {
    }

    Outcome run(Path work) throws Exception {
        ServiceLauncher.Started started = ServiceLauncher.startOrUse(env, db, work);
        ChildProcess service = started.process();
        BoxofficeApi api = started.api();
        String admin = api.adminToken();
        long t0 = System.nanoTime();
        List<String> tokens = api.tokens(Buyer.accountIds(o.buyers()), o.connections);
        FlashSaleBench.log(String.format(Locale.ROOT, "%,d buyer tokens in %.1f s", tokens.size(), (System.nanoTime() - t0) / 1e9));

        JsonNode created = api.createShow(admin, ShowPlan.createRequest(o.event, ShowPlan.regularSections(o.seats),
                ShowPlan.HOLD_SECONDS, null, o.blockGroups));
        String showId = created.path("showId").asText();
        ShowPlan plan = ShowPlan.fromShow(api.show(showId));
        FlashSaleBench.log(String.format(Locale.ROOT, "show %s: %,d seats in %d blocks over %d block groups", showId,
                created.path("seatCount").asInt(), created.path("blocks").asInt(), created.path("blockGroups").asInt()));
        Target target = new Target("boxoffice", api.host(), api.port(), showId, plan);
        List<Buyer> crowd = Buyer.crowd(o.buyers(), o.seed, plan, tokens);

        // the warm-up scrapes the metrics endpoint as a monitoring system would (see RefereeStats.scrapeEvery)
        try (AutoCloseable scraper = RefereeStats.scrapeEvery(api.host(), api.port(), METRICS_SCRAPE_EVERY)) {
            system.warmUp("boxoffice", crowd, service != null ? service.pid() : -1,
                    () -> freshShow(api, admin, o, "boxoffice-warmup", Math.min(o.seats, SystemRun.WARMUP_SEATS)));
        }
        Sweep.Result sweep = system.sweep("boxoffice", crowd, () -> freshShow(api, admin, o, "boxoffice", o.seats));
        LoadRun.Room room = null;
        if (o.waitingRoom != null) {
            api.openWaitingRoom(admin, showId, o.waitingRoom, FlashSaleBench.DOOR_DIFFICULTY);
            long joined = System.nanoTime();
            if (o.bots > 0) {
                crowd = bots.withBots(api, target, crowd);
            }
            room = LoadRun.joinQueue(api, showId, crowd, o.connections);
            bots.joined(room);
            FlashSaleBench.log(String.format(Locale.ROOT, "%,d buyers joined the waiting room in %.1f s; admitting %.0f a second",
                    room.tickets().size(), (System.nanoTime() - joined) / 1e9, o.waitingRoom));
            notes.add("boxoffice sold through its waiting room at " + o.waitingRoom + " admissions/s; the baselines have no waiting room");
        }
        if (db != null) {
            db.checkpoint();
        }
        long pid = service != null ? service.pid() : -1;
        RefereeStats refereeBefore = RefereeStats.read(api.host(), api.port());
        boolean profiling = o.profile && service != null;
        if (profiling) {
            JfrProfile.startWithCpuTime(env.jcmd(), pid);
            if (o.stampede) {
                notes.add("profiled (--profile): starting the recording as the stampede starts deoptimizes and recompiles"
                        + " hundreds of methods during the sell-out burst; this run's latency and CPU figures are not comparable"
                        + " with unprofiled runs");
            }
        }
        SystemOutcome outcome = system.measure(target, crowd, room, sweep, db, pid, o.pay, () -> {
            if (db == null) {
                return null;
            }
            try (Connection c = db.connect()) {
                return ReferenceState.boxoffice(c, showId);
            }
        }, () -> {
            if (db == null) {
                return null;
            }
            try (Connection c = db.connect()) {
                return BookingState.load(c, showId);
            }
        }, ShowPlan.DEFAULT_GRACE_MS, () -> {
            if (!profiling) {
                return null;
            }
            Path file = out.resolve("service.jfr");
            JfrProfile.dumpAndStop(env.jcmd(), pid, file);
            return JfrProfile.summarize(file);
        });
        if (o.profile && service == null) {
            notes.add("--profile needs a service the bench starts itself; not profiled");
        }
        RefereeStats refereeAfter = RefereeStats.read(api.host(), api.port());
        if (refereeBefore != null && refereeAfter != null) {
            notes.add(refereeAfter.since(refereeBefore));
        }
        HalfRate halfRate = null;
        if (o.stampede && o.rate == null && room == null && sweep != null && sweep.bestRate() != null && db != null) {
            halfRate = halfRate(api, admin, crowd, sweep.bestRate() / 2, db);
        }

        ExpiryCheck.Result expiry = null;
        if (o.expiry) {
            FlashSaleBench.log("expiry check");
            expiry = ExpiryCheck.run(api, admin, o.event);
        }
        HeapFootprint.Result memory = null;
        if (o.memory && service != null) {
            FlashSaleBench.log("heap footprint: a 60,000-seat show, then " + MEMORY_SHOWS + " shows of " + o.seats + " seats");
            memory = HeapFootprint.measure(env.jcmd(), pid, api, admin, o.event, MEMORY_SHOWS, o.seats);
        } else if (o.memory) {
            notes.add("heap footprint needs a service the bench starts itself; not measured");
        }
        if (bots.active()) {
            // a show of the demo catalog nobody queues for: where a signed-in plain request is asked
            bots.report(outcome, crowd, db, pid, "comedy-2");
        }
        if (service != null) {
            resources.remove(service);
            service.close();
        }
        return new Outcome(outcome, expiry, memory, halfRate);
    }

    /** A fresh seated show of {@code seats} on sale now, as the bench creates its shows, sold as {@code name}. */
    static Target freshShow(BoxofficeApi api, String admin, BenchOptions o, String name, int seats) {
        JsonNode created = api.createShow(admin, ShowPlan.createRequest(o.event, ShowPlan.regularSections(seats),
                ShowPlan.HOLD_SECONDS, null, o.blockGroups));
        String showId = created.path("showId").asText();
        return new Target(name, api.host(), api.port(), showId, ShowPlan.fromShow(api.show(showId)));
    }

    /**
     * The half-rate latency target: a second Boxoffice sale, open loop at {@code rate} (half the sweep's
     * best), on a fresh show of the measured show's size, right after the measured run (so that run
     * is measured as before), with the same crowd, then the same invariant check.
     */
    private HalfRate halfRate(BoxofficeApi api, String admin, List<Buyer> crowd, double rate, Database db) throws Exception {
        Target half = freshShow(api, admin, o, "boxoffice", o.seats);
        String halfId = half.showId();
        db.checkpoint();
        FlashSaleBench.log(String.format(Locale.ROOT, "half rate: stampede on boxoffice's %s at %,.0f attempts/s (half its best) for %d s",
                halfId, rate, o.duration.toSeconds()));
        RunResult run = new OpenLoopRun(half, crowd, system.openLoop(rate, o.duration), null).run();
        RunChecker.Report invariants;
        try (Connection c = db.connect()) {
            ReferenceState state = ReferenceState.boxoffice(c, halfId);
            invariants = RunChecker.check(run.acked(), run.released(), run.paid(), state.seats(), state.holds(),
                    System.currentTimeMillis(), ShowPlan.DEFAULT_GRACE_MS);
        }
        HalfRate result = new HalfRate(rate, run.holdLatency().p99(), run.successfulHoldLatency().p99(),
                run.readLatency().p99(), invariants.violations());
        FlashSaleBench.log(String.format(Locale.ROOT, "half rate: hold p99 %.1f ms (winners' %.1f ms), seat-map p99 %.1f ms, %s; invariant violations: %d%s",
                result.holdP99Ms(), result.winnersP99Ms(), result.readP99Ms(),
                run.soldOut() ? String.format(Locale.ROOT, "sold out in %.1f s", run.sellOutSeconds()) : "not sold out",
                result.violations(), result.violations() > 0 ? "  <<<<<<<<<<<<<<<< VIOLATION" : ""));
        notes.add(String.format(Locale.ROOT, "half rate: a second sale at %,.0f attempts/s on a fresh show of %,d seats:"
                        + " hold p50/p99 %.1f / %.1f ms, winners' p99 %.1f ms, seat-map p99 %.1f ms, %s, %d invariant violations",
                rate, o.seats, run.holdLatency().p50(), result.holdP99Ms(), result.winnersP99Ms(), result.readP99Ms(),
                run.soldOut() ? String.format(Locale.ROOT, "sold out in %.1f s", run.sellOutSeconds()) : "not sold out",
                result.violations()));
        return result;
    }
}
