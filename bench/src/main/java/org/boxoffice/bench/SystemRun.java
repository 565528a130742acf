package org.boxoffice.bench;

import org.boxoffice.bench.check.AreaChecker;
import org.boxoffice.bench.check.AreaState;
import org.boxoffice.bench.check.BookingChecker;
import org.boxoffice.bench.check.BookingState;
import org.boxoffice.bench.check.RunChecker;
import org.boxoffice.bench.check.ReferenceState;
import org.boxoffice.bench.http.HttpConnection;
import org.boxoffice.bench.http.HttpResponse;
import org.boxoffice.bench.load.BotSwarm;
import org.boxoffice.bench.load.Buyer;
import org.boxoffice.bench.load.LoadRun;
import org.boxoffice.bench.load.OpenLoopRun;
import org.boxoffice.bench.load.Sweep;
import org.boxoffice.bench.load.RunResult;
import org.boxoffice.bench.load.SeatMap;
import org.boxoffice.bench.load.ShowPlan;
import org.boxoffice.bench.load.Target;
import org.boxoffice.bench.probe.CpuMeter;
import org.boxoffice.bench.probe.HttpCeiling;
import org.boxoffice.bench.probe.JfrProfile;
import org.boxoffice.bench.probe.PhaseCost;
import org.boxoffice.bench.report.SystemOutcome;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What every system of a run gets alike, Boxoffice and each baseline: the warm-up, the rate sweep,
 * the measured run with its CPU, seats left, invariant and booking checks, and the refusal ceiling
 * on the sold-out show.
 */
final class SystemRun {

    /** Seats of a warm-up show at most: the warm-up sells many of them. */
    static final int WARMUP_SEATS = 5_000;
    /** --warmup auto: warm until the JIT compiler uses less than this share of a core over a step. */
    private static final double WARM_JIT_SHARE = 0.10;
    private static final Duration WARM_STEP = Duration.ofSeconds(5);
    /** Offered attempts/s of the stampede part of the warm-up when {@code --rate} is not given (the sweep's rates are not known yet). */
    static final double STAMPEDE_WARMUP_RATE = 2_000;
    /**
     * The stampede part of the warm-up sells out one fresh warm-up show per this much time, so the
     * winners' path runs as often as in a few sales (a 5,000-seat show sells out in 1–2 s at 2,000–4,000 attempts/s).
     */
    private static final Duration WARMUP_SALE = Duration.ofMillis(2_500);
    /** Distinct hold attempts the refusal ceiling cycles through. */
    private static final int REFUSAL_REQUESTS = 4_096;
    /** How long the booking check waits for the last settlements and refunds to finish. */
    private static final Duration SETTLE_WAIT = Duration.ofSeconds(30);

    private final BenchOptions o;
    private final BotFigures bots;

    SystemRun(RunEnvironment env, BotFigures bots) {
        this.o = env.options();
        this.bots = bots;
    }

    interface Step<T> {
        T get() throws Exception;
    }

    /**
     * The measured run, then the seats left, the invariant and booking checks and the server's profile.
     *
     * @param payShare share of the buyers keeping their hold who pay for it (0 for the baselines: no checkout)
     * @param bookingReferee the show's bookings and money, or null where there is no checkout
     */
    SystemOutcome measure(Target target, List<Buyer> crowd, LoadRun.Room room, Sweep.Result sweep, Database db, long serverPid,
                                  double payShare, Step<ReferenceState> referee, Step<BookingState> bookingReferee,
                                  long graceMillis, Step<JfrProfile.Summary> profile) throws Exception {
        return measure(target, crowd, room, sweep, db, serverPid, payShare, referee, bookingReferee, graceMillis, profile, () -> null);
    }

    /**
     * A general-admission sale's measured run ({@link Target#area()} set), checked with {@link AreaChecker}
     * against the area as the referee has it afterwards.
     */
    SystemOutcome measureArea(Target target, List<Buyer> crowd, Sweep.Result sweep, Database db, long serverPid,
                              Step<AreaState> referee, Step<JfrProfile.Summary> profile) throws Exception {
        return measure(target, crowd, null, sweep, db, serverPid, 0, () -> null, () -> null, 0, profile, referee);
    }

    private SystemOutcome measure(Target target, List<Buyer> crowd, LoadRun.Room room, Sweep.Result sweep, Database db,
                                  long serverPid, double payShare, Step<ReferenceState> referee,
                                  Step<BookingState> bookingReferee, long graceMillis, Step<JfrProfile.Summary> profile,
                                  Step<AreaState> areaReferee) throws Exception {
        CpuMeter meter = cpuMeter(db, serverPid);
        FlashSaleBench.log("selling " + target.showId() + " on " + target.name());
        Map<String, Long> threadsBefore = serverPid > 0 ? CpuMeter.threadKinds(serverPid) : Map.of();
        CpuMeter.Sample before = meter.sample();
        double rate = measuredRate(o, sweep);
        if (o.stampede) {
            FlashSaleBench.log(String.format(Locale.ROOT, "stampede on %s: %,.0f hold attempts/s offered for %d s", target.name(), rate,
                    o.duration.toSeconds()));
        }
        // the stampede's CPU over time, to price the refusals after the sell-out on their own
        List<CpuMeter.Sample> cpuOverTime = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.ScheduledExecutorService sampler = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        if (o.stampede) {
            sampler.scheduleAtFixedRate(() -> {
                // an exception would cancel the schedule silently: a sample that fails is skipped
                try {
                    cpuOverTime.add(meter.sample());
                } catch (RuntimeException e) {
                    System.err.println("bench: CPU sample failed: " + e);
                }
            }, 0, PhaseCost.SAMPLE_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
        }
        RunResult run;
        OpenLoopRun openLoop = o.stampede ? new OpenLoopRun(target, crowd, openLoop(rate, o.duration), room) : null;
        java.util.concurrent.atomic.AtomicBoolean saleOver = new java.util.concurrent.atomic.AtomicBoolean();
        BotSwarm.Report[] botReport = new BotSwarm.Report[1];
        Thread botThread = null;
        if (bots.active() && room != null && target.name().equals("boxoffice")) {
            double botRate = bots.rate(rate);
            FlashSaleBench.log(String.format(Locale.ROOT, "bots: %,d accounts in %d controllers, %,.0f requests/s beside the crowd",
                    bots.accounts(), bots.controllers(), botRate));
            botThread = Thread.ofPlatform().name("bench-bots").start(() ->
                    botReport[0] = bots.swarm().run(botRate, o.duration.plusSeconds(15), saleOver::get));
        }
        try {
            run = openLoop != null ? openLoop.run()
                    : new LoadRun(target, crowd, settings(o.duration, o.abandon, payShare, false), room).run();
        } finally {
            saleOver.set(true);
            if (botThread != null) {
                botThread.join();
            }
            sampler.shutdown();
            sampler.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
        }
        List<org.boxoffice.bench.check.AckedHold> acked = run.acked();
        if (botReport[0] != null) {
            bots.duringSale(botReport[0]);
            acked = new ArrayList<>(run.acked());
            acked.addAll(botReport[0].acked());
        }
        CpuMeter.Sample after = meter.sample();
        // the run ends after its last timeline point: this sample closes the series past it
        cpuOverTime.add(after);
        PhaseCost refusals = PhaseCost.afterSellOut(run, List.copyOf(cpuOverTime));
        if (o.stampede && run.openLoop() != null && !cpuOverTime.isEmpty()) {
            FlashSaleBench.log(String.format(Locale.ROOT, "%s: %d CPU samples from %+.2f s to %+.2f s of the run", target.name(), cpuOverTime.size(),
                    (cpuOverTime.get(0).atNanos() - run.openLoop().startNanos()) / 1e9,
                    (cpuOverTime.get(cpuOverTime.size() - 1).atNanos() - run.openLoop().startNanos()) / 1e9));
        }
        Map<String, Double> serverThreads = new LinkedHashMap<>();
        if (serverPid > 0) {
            CpuMeter.threadKinds(serverPid).entrySet().stream()
                    .map(e -> Map.entry(e.getKey(), (e.getValue() - threadsBefore.getOrDefault(e.getKey(), 0L)) / 1e9))
                    .filter(e -> e.getValue() >= 0.05)
                    .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                    .forEach(e -> serverThreads.put(e.getKey(), Math.round(e.getValue() * 10) / 10.0));
        }
        FlashSaleBench.log(String.format(Locale.ROOT, "%s: %,.0f hold attempts/s, %,.0f successful holds/s, %s", target.name(),
                run.attemptsPerSecond(), run.holdsPerSecond(),
                run.soldOut() ? String.format(Locale.ROOT, "sold out in %.1f s", run.sellOutSeconds()) : "not sold out"));
        if (run.checkouts() != null) {
            var p = run.checkouts();
            FlashSaleBench.log(String.format(Locale.ROOT, "%s: %,d buyers paid: %,d booked (%,d after pending), %,d pending, %,d declined,"
                            + " %,d failed; %,.0f booked seats/s", target.name(), p.buyers(), p.allBooked(),
                    p.bookedAfterPending(), p.pending(), p.declined(), p.failed(), run.bookedSeatsPerSecond()));
        }
        JfrProfile.Summary summary = profile.get();
        // let the seat-map snapshot catch up with the last holds before reading it
        Thread.sleep(1_000);
        Integer left = seatsLeft(target);
        BookingState bookingState = run.checkouts() != null ? settled(target.name(), bookingReferee) : null;
        RunChecker.Report invariants = null;
        BookingChecker.Report bookings = null;
        ReferenceState state = referee.get();
        if (state != null) {
            invariants = RunChecker.check(acked, run.released(), run.paid(), state.seats(), state.holds(),
                    System.currentTimeMillis(), graceMillis);
            if (bookingState != null) {
                bookings = BookingChecker.check(run.booked(), state.seats(), bookingState);
            }
            long violations = invariants.violations() + (bookings == null ? 0 : bookings.violations());
            FlashSaleBench.log(target.name() + ": invariant violations: " + violations
                    + (violations > 0 ? "  <<<<<<<<<<<<<<<< VIOLATION" : ""));
        }
        AreaState areaState = areaReferee.get();
        AreaChecker.Report area = null;
        if (areaState != null) {
            area = AreaChecker.check(acked, areaState, openLoop == null ? List.of() : openLoop.soldOutAnswers());
            FlashSaleBench.log(String.format(Locale.ROOT, "%s: %,d of %,d admissions taken; %,d sold-out answers, %,d of them while"
                            + " the asked number remained; invariant violations: %d%s", target.name(), area.taken(), area.capacity(),
                    area.soldOutAnswers(), area.soldOutWhileLeft(), area.violations(),
                    area.violations() > 0 ? "  <<<<<<<<<<<<<<<< VIOLATION" : ""));
        }
        HttpCeiling.Result refusalCeiling = o.stampede && run.soldOut() ? refusalCeiling(target, crowd, meter) : null;
        return new SystemOutcome(run, invariants, bookings, CpuMeter.between(before, after), serverThreads, left, summary,
                sweep, refusals, refusalCeiling, area);
    }

    /**
     * Refusals at their ceiling, on the sold-out show after its checks: closed loop over the same
     * connections as the empty handler's ceiling, hold attempts of the crowd's buyers for random
     * adjacent seats (every one a 409), a 1 s pass to warm and a 3 s pass measured. Compared with
     * the empty handler at its ceiling, this is a refusal's cost measured like for like.
     */
    private HttpCeiling.Result refusalCeiling(Target target, List<Buyer> crowd, CpuMeter meter) throws IOException {
        java.util.function.Function<org.boxoffice.bench.http.NioHttpClient, List<byte[]>> attempts = client -> {
            java.util.SplittableRandom random = new java.util.SplittableRandom(o.seed);
            List<byte[]> out = new ArrayList<>();
            for (int i = 0; i < REFUSAL_REQUESTS; i++) {
                Buyer buyer = crowd.get(random.nextInt(crowd.size()));
                ShowPlan.Section section = target.plan().sections().get(random.nextInt(target.plan().sections().size()));
                int[] seats = org.boxoffice.bench.load.SeatChooser.anyGroup(section, buyer.quantity(), random);
                out.add(client.request("POST", target.holdsPath(), buyer.token(), null, null, target.area() != null
                        ? target.admissionsBody(buyer.quantity()) : LoadRun.seatsBody(seats, target.plan())));
            }
            return out;
        };
        String label = "POST " + target.holdsPath() + " (sold out)";
        HttpCeiling.closedLoop(target.host(), target.port(), label, attempts, 409, o.connections, Duration.ofSeconds(1), meter);
        HttpCeiling.Result r = HttpCeiling.closedLoop(target.host(), target.port(), label, attempts, 409, o.connections,
                Duration.ofSeconds(3), meter);
        FlashSaleBench.log(String.format(Locale.ROOT, "%s: refusals at their ceiling (closed loop, sold-out show): %,.0f/s, server CPU %.1f us"
                        + " a refusal, PostgreSQL %.1f us%s", target.name(), r.requestsPerSecond(), r.serverMicrosPerRequest(),
                r.micros("postgresql"), r.otherAnswers() > 0 ? String.format(Locale.ROOT, " (%,d answers were not 409)", r.otherAnswers()) : ""));
        return r;
    }

    /**
     * The show's bookings once every captured payment is settled and every refund made (the
     * provider's late captures and webhooks keep arriving for a few seconds after the sale), or as
     * they are after {@link #SETTLE_WAIT}; null without a database.
     */
    private BookingState settled(String system, Step<BookingState> bookingReferee) throws Exception {
        long deadline = System.nanoTime() + SETTLE_WAIT.toNanos();
        long t0 = System.nanoTime();
        BookingState state = bookingReferee.get();
        while (state != null && !(state.money().settled() && state.money().conserved()) && System.nanoTime() < deadline) {
            Thread.sleep(500);
            state = bookingReferee.get();
        }
        if (state != null) {
            FlashSaleBench.log(String.format(Locale.ROOT, "%s: payments settled after %.1f s: %s", system, (System.nanoTime() - t0) / 1e9,
                    state.money()));
        }
        return state;
    }

    /**
     * The same crowd on a show of its own for the warm-up time, every hold released at once so the
     * show never sells out: the server's JIT compiles the paths of the sale (409s with
     * alternatives, best available, holds, releases, seat maps) before the clock starts. One show
     * only, because Boxoffice keeps refreshing the seat map of every show read in the last minutes,
     * and a pile of warm-up shows would tax the measured run. Nothing here is measured.
     *
     * <p>With {@code --stampede} the last third of the time is an open-loop stampede on the same
     * show ({@link #STAMPEDE_WARMUP_RATE}/s, or {@code --rate}): it sells the show out, so the
     * sell-out's burst of winners and the flood of stale-map refusals after it are compiled before
     * the clock starts, not during the measured burst (a closed loop that releases every hold never
     * reaches either). Every system gets the same.
     */
    void warmUp(String system, List<Buyer> crowd, long serverPid, Step<Target> newShow) throws Exception {
        if (o.warmup.isZero()) {
            return;
        }
        Target show = newShow.get();
        if (!o.warmupAuto || serverPid <= 0 || show.area() != null) {
            // an area has no seats to hold and release in a closed loop: its warm-up is stampedes only
            Duration closed = show.area() != null ? Duration.ZERO : o.stampede ? o.warmup.multipliedBy(2).dividedBy(3) : o.warmup;
            Duration stampedes = o.warmup.minus(closed);
            long sales = stampedes.isZero() ? 0 : Math.max(1, stampedes.toMillis() / WARMUP_SALE.toMillis());
            FlashSaleBench.log("warming up " + system + " for " + o.warmup.toSeconds() + " s"
                    + (sales == 0 ? "" : closed.isZero() ? " (stampedes on " + sales + " fresh warm-up areas)"
                    : " (the last " + stampedes.toSeconds() + " s stampedes on " + sales + " fresh warm-up shows)"));
            if (!closed.isZero()) {
                new LoadRun(show, crowd, settings(closed, 1.0, 0, true)).run();
            }
            // a sell-out runs the winners' path a few thousand times: one is not enough for the JIT
            // compiler's last tier, which then compiles it during the measured sell-out instead
            for (long sale = 0; sale < sales; sale++) {
                new OpenLoopRun(sale == 0 ? show : newShow.get(), crowd, openLoop(o.rate != null ? o.rate : STAMPEDE_WARMUP_RATE,
                        stampedes.dividedBy(sales)), null).run();
            }
            return;
        }
        // until the JIT compiler threads use less than a tenth of a core over a 5 s step
        long start = System.nanoTime();
        double jitShare = 1;
        while (jitShare > WARM_JIT_SHARE && System.nanoTime() - start < o.warmup.toNanos()) {
            long jitBefore = CpuMeter.threadKinds(serverPid).getOrDefault(CpuMeter.JIT, 0L);
            long t0 = System.nanoTime();
            new LoadRun(show, crowd, settings(WARM_STEP, 1.0, 0, true)).run();
            long jit = CpuMeter.threadKinds(serverPid).getOrDefault(CpuMeter.JIT, 0L) - jitBefore;
            jitShare = (double) jit / (System.nanoTime() - t0);
        }
        FlashSaleBench.log(String.format(Locale.ROOT, "warmed up %s for %.0f s (JIT compiler at %.0f%% of a core)", system,
                (System.nanoTime() - start) / 1e9, 100 * jitShare));
    }

    /**
     * --sweep: the highest rate the system sustains, each trial on a fresh show of the same size with
     * the same crowd; null without --sweep. Not measured beyond the trials' own figures.
     */
    Sweep.Result sweep(String system, List<Buyer> crowd, Step<Target> freshShow) throws Exception {
        if (!o.stampede || !o.sweep) {
            return null;
        }
        Sweep.Result result = Sweep.search(BenchOptions.SWEEP_START, BenchOptions.SWEEP_MAX, 2, Sweep.BUDGET_MS,
                rate -> {
                    Target show = freshShow.get();
                    Sweep.Step step = Sweep.Step.of(new OpenLoopRun(show, crowd, openLoop(rate, o.sweepStep), null).run(),
                            Sweep.BUDGET_MS);
                    FlashSaleBench.log(String.format(Locale.ROOT, "sweep %s: offered %,.0f/s, answered %,.0f/s, hold p50 %.1f ms p99 %.1f ms%s",
                            system, step.offeredPerSecond(), step.achievedPerSecond(), step.holdP50Ms(), step.holdP99Ms(),
                            step.sustained() ? "" : "  (not sustained)"));
                    return step;
                });
        FlashSaleBench.log(String.format(Locale.ROOT, "sweep %s: highest sustained rate %s", system,
                result.bestRate() == null ? "none" : String.format(Locale.ROOT, "%,.0f/s", result.bestRate())));
        return result;
    }

    /** The stampede's measured rate: --rate, else the system's sweep best, else the default. */
    static double measuredRate(BenchOptions o, Sweep.Result sweep) {
        if (o.rate == null && sweep != null) {
            // a system that sustained not even the first rate is measured at it: its figures then show by how much it misses
            return sweep.bestRate() != null ? sweep.bestRate() : BenchOptions.SWEEP_START;
        }
        return o.offeredRate();
    }

    OpenLoopRun.Settings openLoop(double rate, Duration limit) {
        return new OpenLoopRun.Settings(rate, limit, o.connections, o.retries, o.bestAvailable, o.readEvery, o.seed);
    }

    private LoadRun.Settings settings(Duration limit, double abandon, double pay, boolean recycle) {
        return new LoadRun.Settings(o.connections, limit, o.retries, o.bestAvailable, abandon, pay, o.readEvery, o.seed, recycle);
    }

    static CpuMeter cpuMeter(Database db, long serverPid) {
        Map<String, Supplier<List<ProcessHandle>>> groups = new LinkedHashMap<>();
        groups.put("load generator", () -> List.of(ProcessHandle.current()));
        if (serverPid > 0) {
            groups.put("server", () -> ProcessHandle.of(serverPid).stream().toList());
        }
        if (db != null && db.postmasterPid().isPresent()) {
            long pg = db.postmasterPid().getAsLong();
            groups.put("postgresql", () -> CpuMeter.withDescendants(pg));
        }
        return new CpuMeter(groups);
    }

    /** Free seats on the system's seat map now (admissions left, for an area); null if it cannot be read. */
    private static Integer seatsLeft(Target target) {
        try (HttpConnection c = new HttpConnection(target.host(), target.port())) {
            if (target.area() != null) {
                HttpResponse r = c.get(target.areasPath(), null);
                return r.status() == 200 ? OpenLoopRun.areaLeft(r.json(), target.area()) : null;
            }
            HttpResponse r = c.get(target.availabilityPath(), null);
            if (r.status() != 200) {
                return null;
            }
            SeatMap map = new SeatMap(target.plan().seatCount());
            map.replace(SeatMap.decode(r.json().path("data").asText(), map.size()), r.etag());
            return map.freeCount();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
