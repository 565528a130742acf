package org.boxoffice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.bench.check.RunChecker;
import org.boxoffice.bench.check.ReferenceState;
import org.boxoffice.bench.cluster.ClusterReport;
import org.boxoffice.bench.cluster.CpuQuota;
import org.boxoffice.bench.cluster.MemberHealth;
import org.boxoffice.bench.cluster.ServiceProxy;
import org.boxoffice.bench.http.BoxofficeApi;
import org.boxoffice.bench.http.HttpConnection;
import org.boxoffice.bench.http.HttpResponse;
import org.boxoffice.bench.load.Buyer;
import org.boxoffice.bench.load.LoadRun;
import org.boxoffice.bench.load.OpenLoopRun;
import org.boxoffice.bench.load.RunResult;
import org.boxoffice.bench.load.ShowPlan;
import org.boxoffice.bench.load.Sweep;
import org.boxoffice.bench.load.Target;
import org.boxoffice.bench.probe.CpuMeter;
import org.boxoffice.bench.probe.RefereeStats;
import org.boxoffice.bench.probe.JfrProfile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * {@code ./boxoffice bench --members N}: the open-loop stampede against one member and then N
 * members of the real jar (TCP-IP join on loopback, one backup, a quorum of a majority), the
 * crowd's connections spread over the members by a Service stand-in ({@link ServiceProxy}), the
 * CPU of every process measured per hold attempt. With {@code --scale-up-at} and/or
 * {@code --scale-down-at}, a third stampede on the N members in which a member joins and/or one
 * leaves gracefully, with the answers and the members' readiness second by second.
 *
 * <p>Both clusters share one PostgreSQL and run one after the other, each on a show of its own
 * with the same crowd, rate and length, so their CPU per attempt compare within one run. On a
 * machine with fewer cores than members more members add no capacity: what the comparison
 * shows is the price of distribution (remote processor calls, backups, events between members).
 */
final class ClusterBench {

    private static final int WARM_STEP_SECONDS = 10;
    private static final double WARM_QUIET_CORES = 0.05;
    /** ... and under this share of the members' own CPU over the step (at 100 attempts/s, 0.05 cores was 0.4 ms an attempt). */
    private static final double WARM_QUIET_SHARE = 0.05;
    private static final int WARM_MAX_SECONDS = 180;
    private static final int HOLD_SECONDS = 420;
    private static final long GRACE_MS = 5_000;
    /** The base StatefulSet's preStop sleep: endpoints drop a leaving member this long before SIGTERM. */
    private static final Duration PRE_STOP = Duration.ofSeconds(5);
    /**
     * The base StatefulSet's minReadySeconds: a rolling update takes the next pod only once the one
     * before has been ready this long, which also gives the endpoints (here the Service stand-in's
     * next readiness look) time to list it again.
     */
    private static final Duration MIN_READY = Duration.ofSeconds(5);
    /**
     * Requests per client connection (on average) before the fan's connection ends and a new one is
     * spread: a few seconds per connection at the stampede's rates, so a member that joins gets its
     * share within seconds.
     */
    private static final int ROTATE_AFTER = 10;
    /** Before each steady run: what the members, PostgreSQL and the machine spend with no load at all. */
    private static final Duration IDLE = Duration.ofSeconds(10);
    private static final long READY_TIMEOUT_MS = 180_000;
    /** The longest a leaving member may take to hand its partitions over (the manifests' grace period). */
    private static final int LEAVE_SECONDS = 120;

    private final BenchOptions o;
    private final Path out;

    ClusterBench(BenchOptions options) {
        this.o = options;
        this.out = options.out != null ? options.out
                : Path.of("bench", "results", DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now()));
    }

    int run() throws Exception {
        Files.createDirectories(out);
        CpuQuota quota;
        try {
            quota = o.cpuQuota == null ? null : CpuQuota.open(o.cpuQuota, o.cpuPeriodMillis);
        } catch (IllegalStateException e) {
            System.err.println("bench: " + e.getMessage());
            return 2;
        }
        Path work = Files.createTempDirectory("boxoffice-cluster-bench-");
        List<ClusterReport.Steady> steady = new ArrayList<>();
        List<ClusterReport.CurvePoint> curve = new ArrayList<>();
        ClusterReport.Elastic elastic = null;
        long violations = 0;
        try (Database base = Database.embedded(work.resolve("postgres"), true)) {
            FlashSaleBench.log("PostgreSQL (embedded) in " + work);
            boolean scaling = quota != null && o.sweep;
            List<Integer> sizes = scaling ? java.util.stream.IntStream.rangeClosed(1, o.members).boxed().toList()
                    : o.members == 1 || !o.baselines ? List.of(o.members) : List.of(1, o.members);
            boolean events = o.scaleUpAt != null || o.scaleDownAt != null || o.rollingRestartAt != null || o.killAt != null;
            for (int n : sizes) {
                boolean last = n == sizes.getLast();
                int max = last && o.scaleUpAt != null ? n + 1 : n;
                // each size on an empty database of the same server: the holds a size leaves behind
                // lapse minutes later, and the next size would otherwise pay for expiring them
                try (Database db = base.fresh("cluster_" + n); Cluster cluster = new Cluster(n, max, db, work.resolve("cluster-" + n), quota)) {
                    cluster.startAll();
                    BoxofficeApi api = new BoxofficeApi(ServiceLauncher.HOST, cluster.proxy.port());
                    String admin = api.adminToken();
                    long t0 = System.nanoTime();
                    // a database's own signing secrets: the buyers' tokens are made for each size
                    List<String> tokens = api.tokens(Buyer.accountIds(o.buyers()), Math.min(o.connections, 64));
                    FlashSaleBench.log(String.format(Locale.ROOT, "%,d buyer tokens in %.1f s", tokens.size(),
                            (System.nanoTime() - t0) / 1e9));
                    warmUp(cluster, api, admin, tokens);
                    settle(cluster, quota);
                    if (scaling) {
                        curve.add(curvePoint(cluster, api, admin, tokens, db));
                        continue;
                    }
                    ClusterReport.Steady s = steady(cluster, api, admin, tokens, db);
                    steady.add(s);
                    violations += s.invariantViolations();
                    if (last && events) {
                        elastic = elastic(cluster, api, admin, tokens, db);
                        violations += elastic.invariantViolations();
                    }
                }
            }
        } finally {
            if (quota != null) {
                quota.close();
            }
            deleteRecursively(work);
        }
        ClusterReport report = new ClusterReport(o.shownCommand(), settings(), steady, elastic, curve);
        String summary = report.render();
        Files.writeString(out.resolve("summary.txt"), summary);
        HttpResponse.JSON.writerWithDefaultPrettyPrinter().writeValue(out.resolve("results.json").toFile(), report);
        System.out.println(summary);
        System.out.println("results: " + out.toAbsolutePath());
        if (violations > 0) {
            System.out.println("\n!!!!!!!! " + violations + " INVARIANT VIOLATION(S); see results.json !!!!!!!!");
            return 1;
        }
        return 0;
    }

    // ---------------------------------------------------------------- the runs

    /**
     * The warm-up: two thirds of {@code --warmup} closed loop (holds, releases, reads), then the
     * measured run's own traffic, the open-loop stampede at its rate on fresh warm-up shows, in steps
     * of {@value #WARM_STEP_SECONDS} s until the members' JIT compilers are quiet (under
     * {@value #WARM_QUIET_CORES} of a core each and under {@value #WARM_QUIET_SHARE} of the members'
     * CPU over a step) or {@value #WARM_MAX_SECONDS} s have passed. Each member of N compiles the
     * same code from a Nth of the traffic, so a fixed warm-up leaves a cluster compiling through its
     * measured run (a quarter of three members' CPU in one run) where one member had finished: every
     * size is measured once its compiler is done. The share matters at low rates: two members
     * quiet by the cores alone still compiled 0.04 cores each through a 30 s run at 100 attempts/s,
     * a quarter of their CPU per attempt (a ninth over 120 s).
     */
    private void warmUp(Cluster cluster, BoxofficeApi api, String admin, List<String> tokens) throws Exception {
        if (o.warmup.isZero()) {
            return;
        }
        Target show = newShow(cluster, api, admin, "warmup", Math.min(o.seats, 5_000));
        Duration closed = o.warmup.multipliedBy(2).dividedBy(3);
        FlashSaleBench.log("warming up " + cluster.members.size() + " member(s): " + closed.toSeconds()
                + " s closed loop, then the stampede until their JIT compilers are quiet");
        new LoadRun(show, Buyer.crowd(o.buyers(), o.seed, show.plan(), tokens),
                new LoadRun.Settings(o.connections, closed, o.retries, o.bestAvailable, 1.0, 0, o.readEvery, o.seed, true)).run();
        double rate = o.rate != null ? o.rate : BenchOptions.STAMPEDE_RATE;
        CpuMeter members = new CpuMeter(Map.of(ClusterReport.MEMBERS,
                () -> cluster.members.stream().flatMap(mb -> ProcessHandle.of(mb.pid()).stream()).toList()));
        long t0 = System.nanoTime();
        for (int step = 1; ; step++) {
            Target stampede = newShow(cluster, api, admin, "warmup-stampede-" + step, Math.min(o.seats, 5_000));
            long jit0 = jitNanos(cluster);
            CpuMeter.Sample c0 = members.sample();
            long s0 = System.nanoTime();
            new OpenLoopRun(stampede, Buyer.crowd(o.buyers(), o.seed + step, stampede.plan(), tokens),
                    new OpenLoopRun.Settings(rate, Duration.ofSeconds(WARM_STEP_SECONDS), o.connections, o.retries,
                            o.bestAvailable, o.readEvery, o.seed + step), null).run();
            long jit = jitNanos(cluster) - jit0;
            double perMember = jit / ((System.nanoTime() - s0) / 1e9) / 1e9 / cluster.members.size();
            Map<String, Double> cpu = CpuMeter.between(c0, members.sample());
            double share = jit / 1e9 / Math.max(1e-9, cpu.getOrDefault(ClusterReport.MEMBERS, 0.0));
            long elapsed = (System.nanoTime() - t0) / 1_000_000_000L;
            FlashSaleBench.log(String.format(Locale.ROOT, "  warm-up stampede step %d: JIT compiler %.3f cores per member,"
                    + " %.0f %% of the members' CPU", step, perMember, 100 * share));
            if ((perMember < WARM_QUIET_CORES && share < WARM_QUIET_SHARE) || elapsed >= WARM_MAX_SECONDS) {
                break;
            }
        }
    }

    /** CPU the members' JIT compiler threads have spent so far. */
    private static long jitNanos(Cluster cluster) {
        long sum = 0;
        for (Member mb : cluster.members) {
            sum += CpuMeter.threadKinds(mb.pid()).getOrDefault(CpuMeter.JIT, 0L);
        }
        return sum;
    }

    private ClusterReport.Steady steady(Cluster cluster, BoxofficeApi api, String admin, List<String> tokens, Database db)
            throws Exception {
        db.checkpoint();
        // without load: before the run's show is created (a creation loads the show's blocks onto
        // owners and backups, a request's work, not a member's upkeep)
        Measured idle = measure(cluster, db, () -> {
            Thread.sleep(IDLE.toMillis());
            return null;
        });
        Target show = newShow(cluster, api, admin, "steady", o.seats);
        List<Buyer> crowd = Buyer.crowd(o.buyers(), o.seed, show.plan(), tokens);
        if (o.profile) {
            for (Member mb : cluster.members) {
                JfrProfile.start(jcmd(), mb.pid());
            }
        }
        var statements = db.statementTotals();
        Measured m = measure(cluster, db, () -> new OpenLoopRun(show, crowd, openLoop(), null).run());
        FlashSaleBench.log(Database.topStatements(statements, db.statementTotals(), 10));
        if (o.profile) {
            profiles(cluster);
        }
        long violations = invariants(db, show, m.run);
        ClusterReport.Steady s = ClusterReport.Steady.of(cluster.members.size(), cluster.quorum, m.run, m.cpu, m.proxyCpu,
                m.requests, idle.cpu, violations, m.threads, idle.threads, m.referee);
        FlashSaleBench.log(String.format(Locale.ROOT, "%d member(s): %,d hold attempts (%,.0f/s answered), CPU per attempt:"
                        + " members + PostgreSQL %.0f us, whole machine %.0f us; invariant violations %d",
                cluster.members.size(), m.run.attempts(), m.run.attemptsPerSecond(), s.systemMicrosPerAttempt(),
                s.machineMicrosPerAttempt(), violations));
        return s;
    }

    /**
     * --profile: each member's Flight Recorder profile of the steady run, written beside the results
     * and summed up in the log: where the samples fall by component and the hottest methods with
     * their callees, so the price of distribution can be read per component at 1 and N members.
     */
    private void profiles(Cluster cluster) throws Exception {
        for (Member mb : cluster.members) {
            Path file = out.resolve("profile-" + cluster.members.size() + "-members-" + mb.name + ".jfr");
            JfrProfile.dumpAndStop(jcmd(), mb.pid(), file);
            JfrProfile.Summary p = JfrProfile.summarize(file);
            StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "profile of %s (%d members), %,d samples; by component:",
                    mb.name, cluster.members.size(), p.samples()));
            p.byComponent().stream().limit(8).forEach(h -> b.append(String.format(Locale.ROOT, " %s %.0f%%;", h.name(),
                    h.share() * 100)));
            b.append(" inclusive:");
            p.inclusive().stream().limit(12).forEach(h -> b.append(String.format(Locale.ROOT, "%n    %5.1f%% %s", h.share() * 100,
                    h.name())));
            FlashSaleBench.log(b.toString());
        }
    }

    private Path jcmd() {
        Path sibling = o.java.toAbsolutePath().resolveSibling("jcmd");
        return Files.isExecutable(sibling) ? sibling : Path.of("jcmd");
    }

    private ClusterReport.Elastic elastic(Cluster cluster, BoxofficeApi api, String admin, List<String> tokens, Database db)
            throws Exception {
        Target show = newShow(cluster, api, admin, "elastic", o.seats);
        List<Buyer> crowd = Buyer.crowd(o.buyers(), o.seed + 1, show.plan(), tokens);
        db.checkpoint();
        List<ClusterReport.Event> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        long[] start = new long[1];
        record Step(int at, String kind) {
        }
        List<Step> plan = new ArrayList<>();
        if (o.scaleUpAt != null) {
            plan.add(new Step(o.scaleUpAt, "join"));
        }
        if (o.scaleDownAt != null) {
            plan.add(new Step(o.scaleDownAt, "leave"));
        }
        if (o.rollingRestartAt != null) {
            plan.add(new Step(o.rollingRestartAt, "roll"));
        }
        if (o.killAt != null) {
            plan.add(new Step(o.killAt, "kill"));
        }
        plan.sort(Comparator.comparingInt(Step::at));
        Thread scaler = new Thread(() -> {
            try {
                for (Step step : plan) {
                    // a step whose time came while the previous one still ran goes at once
                    long wait = start[0] + step.at() * 1_000_000_000L - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                    switch (step.kind()) {
                        case "join" -> events.add(cluster.join(start[0]));
                        case "leave" -> events.add(cluster.leave(start[0]));
                        case "roll" -> {
                            List<Member> order = List.copyOf(cluster.members).reversed();
                            for (Member m : order) {
                                if (m != order.getFirst()) {
                                    cluster.minReady();
                                }
                                events.add(cluster.restart(m, start[0]));
                            }
                        }
                        case "kill" -> events.add(cluster.kill(start[0]));
                        default -> throw new IllegalStateException(step.kind());
                    }
                }
            } catch (Exception e) {
                FlashSaleBench.log("changing the cluster failed: " + e);
                events.add(ClusterReport.Event.failed(e.toString()));
            }
        }, "scaler");
        OpenLoopRun.Settings settings = openLoop();
        // the fans' web app sends every hold with an Idempotency-Key, and sends a hold or a read again once when its connection is lost
        OpenLoopRun.Settings resending = new OpenLoopRun.Settings(settings.attemptsPerSecond(), settings.limit(),
                settings.connections(), settings.retries(), settings.bestAvailableShare(), settings.readEvery(), settings.seed(), true);
        if (o.profile) {
            // every member's profile over the whole run, members started during it from the moment
            // they serve HTTP, to read what the members did in the slow seconds of each change
            for (Member mb : cluster.members) {
                JfrProfile.start(jcmd(), mb.pid());
            }
            cluster.profileNewMembers = true;
        }
        long startEpochMillis = System.currentTimeMillis();
        org.boxoffice.bench.cluster.ThrottleWatch[] throttles = new org.boxoffice.bench.cluster.ThrottleWatch[1];
        Measured m = measure(cluster, db, () -> {
            start[0] = System.nanoTime();
            if (cluster.quota != null) {
                throttles[0] = new org.boxoffice.bench.cluster.ThrottleWatch(cluster.quota, cluster.name, start[0]);
            }
            scaler.start();
            return new OpenLoopRun(show, crowd, resending, null).run();
        });
        scaler.join();
        if (throttles[0] != null) {
            throttles[0].close();
        }
        if (o.profile) {
            cluster.profileNewMembers = false;
            for (Member mb : cluster.members) {
                Path file = out.resolve("profile-elastic-" + mb.name + "-pid" + mb.pid() + ".jfr");
                try {
                    JfrProfile.dumpAndStop(jcmd(), mb.pid(), file);
                } catch (IOException e) {
                    FlashSaleBench.log("no profile of " + mb.name + ": " + e.getMessage());
                }
            }
            FlashSaleBench.log(String.format(Locale.ROOT, "elastic profiles: second 0 of the run is %d ms after the epoch"
                    + " (a JFR event's start time minus this, in seconds, is the second of the per-second table)", startEpochMillis));
        }
        double runSeconds = (System.nanoTime() - start[0]) / 1e9;
        for (ClusterReport.Event e : events) {
            if (e.failure() == null && e.settledAtSecond() > o.duration.toSeconds()) {
                FlashSaleBench.log(String.format(Locale.ROOT, "note: %s of %s settled at %.0f s, after the stampede's %d s"
                        + " (a longer --duration covers it)", e.kind(), e.member(), e.settledAtSecond(), o.duration.toSeconds()));
            }
        }
        long violations = invariants(db, show, m.run);
        FlashSaleBench.log(String.format(Locale.ROOT, "elastic run (%.0f s): invariant violations %d", runSeconds, violations));
        return ClusterReport.Elastic.of(m.run, m.cpu, m.requests, events, cluster.health.samples(), start[0], violations,
                throttles[0] == null ? Map.of() : throttles[0].bySecond());
    }

    /**
     * The highest rate {@code cluster} sustains (hold p99 under the sweep's budget, nearly every
     * attempt answered), doubling and then bisecting as the one-member sweep does, each trial on a
     * fresh show with the same crowd; the CPU of the members and of PostgreSQL over all trials.
     */
    private ClusterReport.CurvePoint curvePoint(Cluster cluster, BoxofficeApi api, String admin, List<String> tokens,
                                                Database db) throws Exception {
        int n = cluster.members.size();
        var crowd = new java.util.concurrent.atomic.AtomicReference<List<Buyer>>();
        var sweep = new java.util.concurrent.atomic.AtomicReference<Sweep.Result>();
        if (o.profile) {
            for (Member mb : cluster.members) {
                JfrProfile.start(jcmd(), mb.pid());
            }
        }
        CpuMeter trialMeter = new CpuMeter(Map.of(ClusterReport.MEMBERS,
                () -> cluster.members.stream().flatMap(mb -> ProcessHandle.of(mb.pid()).stream()).toList()));
        Measured m = measure(cluster, db, () -> {
            Sweep.Result r = Sweep.search(CURVE_START, BenchOptions.SWEEP_MAX, 2, BenchOptions.SWEEP_BUDGET_MS, rate -> {
                // every trial starts from a cluster that has worked off the one before (a failed
                // trial leaves queued stores and sweeps behind), as the first trial did
                quiet(cluster, cluster.quota, TRIAL_SETTLE_MAX_SECONDS);
                Target show = newShow(cluster, api, admin, "sweep", o.seats);
                if (crowd.get() == null) {
                    crowd.set(Buyer.crowd(o.buyers(), o.seed, show.plan(), tokens));
                }
                RefereeStats r0 = counters(cluster);
                CpuMeter.Sample c0 = trialMeter.sample();
                long[] t0 = cluster.quota.periods(cluster.name);
                Sweep.Step step = Sweep.Step.of(new OpenLoopRun(show, crowd.get(), new OpenLoopRun.Settings(rate, o.sweepStep,
                        o.connections, o.retries, o.bestAvailable, o.readEvery, o.seed), null).run(), BenchOptions.SWEEP_BUDGET_MS);
                Map<String, Double> cpu = CpuMeter.between(c0, trialMeter.sample());
                long[] t1 = cluster.quota.periods(cluster.name);
                long periods = t1[0] - t0[0];
                FlashSaleBench.log(String.format(Locale.ROOT, "sweep %d member(s): offered %,.0f/s, answered %,.0f/s, hold p50 %.1f"
                                + " ms p99 %.1f ms; members %.2f cores, throttled in %.0f%% of their %d ms periods%s", n,
                        step.offeredPerSecond(), step.achievedPerSecond(), step.holdP50Ms(), step.holdP99Ms(),
                        cpu.getOrDefault(ClusterReport.MEMBERS, 0.0) / cpu.getOrDefault("wall", 1.0),
                        periods == 0 ? 0.0 : 100.0 * (t1[1] - t0[1]) / periods, cluster.quota.periodMillis(), step.sustained() ? "" : "  (not sustained)"));
                RefereeStats r1 = counters(cluster);
                if (r0 != null && r1 != null) {
                    // how many attempts got past the members' seat maps to the grid, and what became of them
                    FlashSaleBench.log("  " + r1.since(r0));
                }
                return step;
            });
            sweep.set(r);
            return null;
        });
        if (o.profile) {
            profiles(cluster);
        }
        Sweep.Result r = sweep.get();
        FlashSaleBench.log("CPU quota throttling since each member started: " + cluster.quota.throttling(cluster.name));
        FlashSaleBench.log(String.format(Locale.ROOT, "sweep %d member(s) in %.2f cores each (per %d ms): highest sustained rate %s", n,
                o.cpuQuota, cluster.quota.periodMillis(), r.bestRate() == null ? "none" : String.format(Locale.ROOT, "%,.0f/s", r.bestRate())));
        return new ClusterReport.CurvePoint(n, o.cpuQuota, r.bestRate(), r.steps(), m.cpu);
    }

    /**
     * After the warm-up, before anything is measured: waits until the members, with no load, spend
     * less than {@value #SETTLED_CORES} of a core each (a tenth of their quota under
     * {@code --cpu-quota}), at most {@value #SETTLE_MAX_SECONDS} s. The JIT compiler works off what
     * the warm-up gave it long after the warm-up ends, the more so the more members share the
     * cores; measured before it is done, a cluster's CPU per attempt is mostly compilation. So every
     * size is measured equally warm.
     */
    private void settle(Cluster cluster, CpuQuota quota) throws InterruptedException {
        double[] waited = quiet(cluster, quota, SETTLE_MAX_SECONDS);
        FlashSaleBench.log(String.format(Locale.ROOT, "%d member(s) settled after the warm-up in %.0f s (%.2f cores busy without"
                + " load, limit %.2f)", cluster.members.size(), waited[0], waited[1], waited[2]));
    }

    /**
     * Waits until the members, with no load, spend less than {@value #SETTLED_CORES} of a core each
     * (a tenth of their quota under {@code --cpu-quota}), at most {@code maxSeconds}: the seconds
     * waited, the cores last seen busy and the limit.
     */
    private double[] quiet(Cluster cluster, CpuQuota quota, int maxSeconds) throws InterruptedException {
        Map<String, Supplier<List<ProcessHandle>>> groups = Map.of(ClusterReport.MEMBERS,
                () -> cluster.members.stream().flatMap(mb -> ProcessHandle.of(mb.pid()).stream()).toList());
        CpuMeter meter = new CpuMeter(groups);
        double limit = (quota == null ? SETTLED_CORES : 0.1 * quota.cores()) * cluster.members.size();
        long t0 = System.nanoTime();
        double busy = Double.NaN;
        while (System.nanoTime() - t0 < maxSeconds * 1_000_000_000L) {
            CpuMeter.Sample a = meter.sample();
            Thread.sleep(3_000);
            Map<String, Double> cpu = CpuMeter.between(a, meter.sample());
            busy = cpu.getOrDefault(ClusterReport.MEMBERS, 0.0) / cpu.getOrDefault("wall", 3.0);
            if (busy < limit) {
                break;
            }
        }
        return new double[] {(System.nanoTime() - t0) / 1e9, busy, limit};
    }

    /** The longest a scaling-curve trial waits for the members to work off the trial before it. */
    private static final int TRIAL_SETTLE_MAX_SECONDS = 30;

    private static final int SETTLE_MAX_SECONDS = 180;
    /** A member counts as settled below this many cores without load: the idle target of a member. */
    private static final double SETTLED_CORES = 0.05;

    /** The scaling curve's first rate: a member in a slice of a core sustains less than the one-member sweep's start. */
    private static final double CURVE_START = 100;

    /**
     * @param threads the members' CPU seconds by thread kind
     * @param referee the members' own counters (grid claims, allowance reads, group commits) over the run, in words
     */
    private record Measured(RunResult run, Map<String, Double> cpu, double proxyCpu, Map<String, Long> requests,
                            Map<String, Double> threads, String referee) {
    }

    private interface Run {
        RunResult run() throws Exception;
    }

    private Measured measure(Cluster cluster, Database db, Run body) throws Exception {
        Map<String, Supplier<List<ProcessHandle>>> groups = new LinkedHashMap<>();
        groups.put(ClusterReport.GENERATOR, () -> List.of(ProcessHandle.current()));
        // every member that runs at any time of the run, the one that joins and the one that leaves included
        groups.put(ClusterReport.MEMBERS, () -> cluster.all.stream().flatMap(mb -> ProcessHandle.of(mb.pid()).stream()).toList());
        long pg = db.postmasterPid().orElse(-1);
        if (pg > 0) {
            groups.put(ClusterReport.POSTGRESQL, () -> CpuMeter.withDescendants(pg));
        }
        for (Member mb : cluster.members) {
            long pid = mb.pid();
            groups.put(mb.name, () -> ProcessHandle.of(pid).stream().toList());
        }
        CpuMeter meter = new CpuMeter(groups);
        Map<String, Long> requests0 = cluster.proxy.requests();
        long proxy0 = cluster.proxy.cpuNanos();
        RefereeStats counters0 = counters(cluster);
        Map<String, Long> threads0 = threadKinds(cluster);
        CpuMeter.Sample before = meter.sample();
        RunResult run = body.run();
        CpuMeter.Sample after = meter.sample();
        Map<String, Double> threads = new java.util.TreeMap<>();
        threadKinds(cluster).forEach((kind, nanos) -> threads.put(kind, (nanos - threads0.getOrDefault(kind, 0L)) / 1e9));
        if (run == null) {
            return new Measured(null, CpuMeter.between(before, after), 0, Map.of(), threads, null);
        }
        RefereeStats counters = counters(cluster);
        double proxyCpu = (cluster.proxy.cpuNanos() - proxy0) / 1e9;
        Map<String, Long> requests = new LinkedHashMap<>();
        cluster.proxy.requests().forEach((k, v) -> requests.put(k, v - requests0.getOrDefault(k, 0L)));
        return new Measured(run, CpuMeter.between(before, after), proxyCpu, requests, threads,
                counters == null || counters0 == null ? null : counters.since(counters0));
    }

    /** The members' CPU nanoseconds so far by thread kind, summed over the members serving now. */
    private static Map<String, Long> threadKinds(Cluster cluster) {
        Map<String, Long> sum = new java.util.TreeMap<>();
        for (Member mb : cluster.members) {
            CpuMeter.threadKinds(mb.pid()).forEach((kind, nanos) -> sum.merge(kind, nanos, Long::sum));
        }
        return sum;
    }

    /** The members' group-commit, allowance and claim counters summed; null if a member did not answer. */
    private static RefereeStats counters(Cluster cluster) {
        RefereeStats sum = null;
        for (Member mb : cluster.members) {
            RefereeStats one = RefereeStats.read(ServiceLauncher.HOST, mb.httpPort());
            if (one == null) {
                return null;
            }
            sum = sum == null ? one : sum.plus(one);
        }
        return sum;
    }

    private long invariants(Database db, Target show, RunResult run) throws Exception {
        try (Connection c = db.connect()) {
            ReferenceState state = ReferenceState.boxoffice(c, show.showId());
            RunChecker.Report report = RunChecker.check(run.acked(), run.released(), run.paid(), state.seats(),
                    state.holds(), System.currentTimeMillis(), GRACE_MS);
            return report.violations();
        }
    }

    /** A show on sale now, created through the Service and known to every member before it is used. */
    private Target newShow(Cluster cluster, BoxofficeApi api, String admin, String name, int seats) throws Exception {
        JsonNode created = api.createShow(admin, ShowPlan.createRequest(o.event, ShowPlan.regularSections(seats),
                HOLD_SECONDS, null, o.blockGroups));
        String showId = created.path("showId").asText();
        for (Member mb : cluster.members) {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (true) {
                try (HttpConnection c = new HttpConnection(ServiceLauncher.HOST, mb.httpPort)) {
                    if (c.get("/v1/shows/" + showId, null).status() == 200) {
                        break;
                    }
                } catch (IOException e) {
                    // try again
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(mb.name + " does not know show " + showId + " after 30 s");
                }
                Thread.sleep(100);
            }
        }
        return new Target("boxoffice-" + cluster.members.size() + "-" + name, api.host(), api.port(), showId,
                ShowPlan.fromShow(api.show(showId)));
    }

    private OpenLoopRun.Settings openLoop() {
        double rate = o.rate != null ? o.rate : BenchOptions.STAMPEDE_RATE;
        return new OpenLoopRun.Settings(rate, o.duration, o.connections, o.retries, o.bestAvailable, o.readEvery, o.seed);
    }

    // ---------------------------------------------------------------- members

    private record Member(String name, int index, ChildProcess process, int httpPort) {
        long pid() {
            return process.pid();
        }
    }

    /** Members of one grid cluster of their own, and the Service stand-in in front of them. */
    private final class Cluster implements AutoCloseable {
        final List<Member> members = new java.util.concurrent.CopyOnWriteArrayList<>();
        /** Every member ever started, for the CPU of a run in which one joins or leaves. */
        final List<Member> all = new java.util.concurrent.CopyOnWriteArrayList<>();
        final int size;
        final int quorum;
        final List<Integer> gridPorts = new ArrayList<>();
        final String name;
        final Path dir;
        final Database db;
        final ServiceProxy proxy = new ServiceProxy(ROTATE_AFTER);
        /** Every member's readiness every 250 ms, which the Service stand-in follows. */
        final MemberHealth health = new MemberHealth();
        /** Members on their way out (endpoint removed as the pod terminates): the Service no longer follows their readiness. */
        final java.util.Set<String> leaving = java.util.concurrent.ConcurrentHashMap.newKeySet();
        final CpuQuota quota;
        /** --profile during the elastic run: a member started from now on is profiled once it serves HTTP. */
        volatile boolean profileNewMembers;
        private final Map<String, Integer> starts = new java.util.concurrent.ConcurrentHashMap<>();

        Cluster(int size, int maxMembers, Database db, Path dir, CpuQuota quota) {
            this.quota = quota;
            health.follow(sample -> {
                if (leaving.contains(sample.member())) {
                    return;
                }
                members.stream().filter(mb -> mb.name.equals(sample.member())).findFirst()
                        .ifPresent(mb -> proxy.follow(backend(mb), sample.ready()));
            });
            this.size = size;
            this.quorum = size / 2 + 1;
            this.db = db;
            this.dir = dir;
            for (int i = 0; i < maxMembers; i++) {
                gridPorts.add(ChildProcess.freePort());
            }
            byte[] id = new byte[4];
            new SecureRandom().nextBytes(id);
            this.name = "bench-" + size + "-" + HexFormat.of().formatHex(id);
        }

        /**
         * One member after the other, each once the previous one serves HTTP (it has run the
         * migrations and started its grid member), so two cores never start several JVMs at once;
         * then until all are ready and see each other.
         */
        void startAll() throws Exception {
            long t0 = System.nanoTime();
            for (int i = 0; i < size; i++) {
                Member m = launch(i);
                awaitLive(m);
            }
            MemberHealth.await(ports(members), s -> s.ready() && s.members() == size, READY_TIMEOUT_MS);
            members.forEach(m -> proxy.add(backend(m)));
            members.forEach(m -> health.watch(m.name, m.httpPort));
            FlashSaleBench.log(String.format(Locale.ROOT, "%d member(s) ready after %.1f s (quorum %d, 1 backup)",
                    size, (System.nanoTime() - t0) / 1e9, quorum));
        }

        /** Member N+1 joins while the sale runs; the Service lists it once its readiness says so. */
        ClusterReport.Event join(long runStart) throws Exception {
            long t = System.nanoTime();
            int index = members.size();
            FlashSaleBench.log("scale-up: starting member " + (index + 1));
            Member m = launch(index);
            profileOnceLive(m);
            health.watch(m.name, m.httpPort);
            int target = members.size();
            Map<String, Integer> old = ports(members.subList(0, index));
            long joined = MemberHealth.await(old, s -> s.members() == target, READY_TIMEOUT_MS);
            long ready = MemberHealth.await(Map.of(m.name, m.httpPort), MemberHealth.Sample::ready, READY_TIMEOUT_MS);
            long allReady = MemberHealth.await(ports(members), s -> s.ready() && s.members() == target, READY_TIMEOUT_MS);
            FlashSaleBench.log(String.format(Locale.ROOT, "scale-up: member %d joined after %.1f s, ready after %.1f s,"
                    + " all %d ready after %.1f s", index + 1, (joined - t) / 1e9, (ready - t) / 1e9, target, (allReady - t) / 1e9));
            return new ClusterReport.Event("join", m.name, seconds(t, runStart), seconds(joined, t), seconds(ready, t),
                    null, seconds(allReady, t), null);
        }

        /**
         * The highest member leaves as a StatefulSet scale-down takes it: out of the Service,
         * the preStop sleep, then SIGTERM (the app stops HTTP and hands its partitions over).
         */
        ClusterReport.Event leave(long runStart) throws Exception {
            long t = System.nanoTime();
            Member m = members.getLast();
            long[] stop = terminate(m, "scale-down");
            long term = stop[0];
            long exited = stop[1];
            members.remove(m);
            int target = members.size();
            long allReady = MemberHealth.await(ports(members), s -> s.ready() && s.members() == target, READY_TIMEOUT_MS);
            FlashSaleBench.log(String.format(Locale.ROOT, "scale-down: %s exited %.1f s after SIGTERM; all %d ready %.1f s"
                    + " after SIGTERM", m.name, (exited - term) / 1e9, target, (allReady - term) / 1e9));
            return new ClusterReport.Event("leave", m.name, seconds(t, runStart), null, null, seconds(exited, term),
                    seconds(allReady, term), PRE_STOP.toSeconds() * 1.0);
        }

        /**
         * A member stops as a pod that is deleted: its endpoint goes at once (the Service stops
         * following its readiness), the preStop sleep, then SIGTERM, and the wait until it exits.
         *
         * @return when SIGTERM was sent and when the process had exited (nanoTime)
         */
        private long[] terminate(Member m, String step) throws InterruptedException {
            FlashSaleBench.log(step + ": " + m.name + " out of the Service, SIGTERM in " + PRE_STOP.toSeconds() + " s");
            leaving.add(m.name);
            health.unwatch(m.name);
            proxy.remove(m.name);
            Thread.sleep(PRE_STOP.toMillis());
            long term = System.nanoTime();
            m.process.close(LEAVE_SECONDS);
            return new long[]{term, System.nanoTime()};
        }

        /**
         * One step of a rolling restart, as a StatefulSet takes a pod: out of the Service, the preStop
         * sleep, SIGTERM (the member hands its partitions over and exits), then the same member
         * (name, grid port, data folder) starts again and the Service lists it once it is ready; the
         * step ends when every member is ready and the cluster is safe, so the next may go.
         */
        ClusterReport.Event restart(Member m, long runStart) throws Exception {
            long t = System.nanoTime();
            long[] stop = terminate(m, "rolling restart");
            long term = stop[0];
            long exited = stop[1];
            Member again = relaunch(m);
            profileOnceLive(again);
            leaving.remove(m.name);
            health.watch(again.name, again.httpPort);
            long ready = MemberHealth.await(Map.of(again.name, again.httpPort), MemberHealth.Sample::ready, READY_TIMEOUT_MS);
            long settled = settle();
            FlashSaleBench.log(String.format(Locale.ROOT, "rolling restart: %s exited %.1f s after SIGTERM, ready again %.1f s"
                    + " after SIGTERM; all %d ready and the cluster safe %.1f s after SIGTERM", m.name, (exited - term) / 1e9,
                    (ready - term) / 1e9, members.size(), (settled - term) / 1e9));
            return new ClusterReport.Event("restart", m.name, seconds(t, runStart), null, seconds(ready, term),
                    seconds(exited, term), seconds(settled, term), PRE_STOP.toSeconds() * 1.0);
        }

        /**
         * The oldest member (the cluster's master) killed with SIGKILL: no graceful shutdown, its
         * connections cut, its partitions served from their backups. The Service takes it out at its
         * first failed readiness look; it starts again at once, as a kubelet restarts a killed
         * container, and is listed once ready. Ends when every member is ready and the cluster safe.
         */
        ClusterReport.Event kill(long runStart) throws Exception {
            Member m = members.getFirst();
            FlashSaleBench.log("kill: SIGKILL to " + m.name + " (pid " + m.pid() + ")");
            long t = System.nanoTime();
            m.process.kill();
            long gone = System.nanoTime();
            Member again = relaunch(m);
            profileOnceLive(again);
            health.watch(again.name, again.httpPort);
            long ready = MemberHealth.await(Map.of(again.name, again.httpPort), MemberHealth.Sample::ready, READY_TIMEOUT_MS);
            long settled = settle();
            FlashSaleBench.log(String.format(Locale.ROOT, "kill: %s gone %.1f s after SIGKILL, ready again after %.1f s; all %d"
                    + " ready and the cluster safe %.1f s after the kill", m.name, (gone - t) / 1e9, (ready - t) / 1e9,
                    members.size(), (settled - t) / 1e9));
            return new ClusterReport.Event("kill", m.name, seconds(t, runStart), null, seconds(ready, t), seconds(gone, t),
                    seconds(settled, t), null);
        }

        private void profileOnceLive(Member m) {
            if (!profileNewMembers) {
                return;
            }
            Thread.ofVirtual().name("profile-" + m.name).start(() -> {
                try {
                    awaitLive(m);
                    JfrProfile.start(jcmd(), m.pid());
                } catch (Exception e) {
                    FlashSaleBench.log("no profile of " + m.name + ": " + e.getMessage());
                }
            });
        }

        /**
         * Waits until every member is ready and sees all the others, the cluster is safe, and the
         * Service lists every member (as a StatefulSet waits for the pod to be available): the
         * bench's own look can see a member ready up to 250 ms before the Service's does.
         */
        private long settle() throws InterruptedException {
            int target = members.size();
            MemberHealth.await(ports(members), s -> s.ready() && s.members() == target, READY_TIMEOUT_MS);
            long safe = MemberHealth.awaitSafe(members.getFirst().httpPort, READY_TIMEOUT_MS);
            long deadline = System.nanoTime() + READY_TIMEOUT_MS * 1_000_000;
            while (!members.stream().allMatch(mb -> proxy.lists(mb.name))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the Service did not list every member within "
                            + READY_TIMEOUT_MS / 1000 + " s");
                }
                Thread.sleep(20);
            }
            return safe;
        }

        /** A rolling update's pause between pods: the one before must have been listed MIN_READY. */
        private void minReady() throws InterruptedException {
            Thread.sleep(MIN_READY.toMillis());
        }

        /** The same member started again in its place: name, grid port and data folder; a new HTTP port. */
        private Member relaunch(Member old) throws Exception {
            int run = starts.merge(old.name, 1, Integer::sum);
            ServiceLauncher.Started s = start(old.index, old.name, "-run" + (run + 1));
            Member m = new Member(old.name, old.index, s.process(), s.port());
            members.set(members.indexOf(old), m);
            all.add(m);
            return m;
        }

        private Member launch(int index) throws Exception {
            String memberName = "member-" + (index + 1);
            ServiceLauncher.Started s = start(index, memberName, "");
            Member m = new Member(memberName, index, s.process(), s.port());
            members.add(m);
            all.add(m);
            return m;
        }

        private ServiceLauncher.Started start(int index, String memberName, String logSuffix) throws Exception {
            Map<String, String> env = new LinkedHashMap<>();
            env.put("BOXOFFICE_GRID_CLUSTER", name);
            env.put("BOXOFFICE_GRID_PORT", Integer.toString(gridPorts.get(index)));
            env.put("BOXOFFICE_GRID_MEMBERS", String.join(",", gridPorts.stream().map(p -> ServiceLauncher.HOST + ":" + p).toList()));
            env.put("BOXOFFICE_GRID_QUORUM", Integer.toString(quorum));
            env.put("BOXOFFICE_GRID_BACKUPS", "1");
            if (o.rehearsal) {
                env.put("BOXOFFICE_REHEARSAL_SECONDS", "20");
            }
            return ServiceLauncher.launch(o, db, dir.resolve(memberName), ServiceLauncher.aotCache(o),
                    out.resolve(name + "-" + memberName + logSuffix + ".log"), env,
                    command -> quota == null ? command : quota.wrap(name + "-" + memberName, command));
        }

        private void awaitLive(Member m) throws InterruptedException {
            long deadline = System.nanoTime() + READY_TIMEOUT_MS * 1_000_000;
            while (System.nanoTime() < deadline) {
                if (!m.process.isAlive()) {
                    throw new IllegalStateException(m.name + " exited:\n" + m.process.tail(30));
                }
                try (HttpConnection c = new HttpConnection(ServiceLauncher.HOST, m.httpPort)) {
                    if (c.get("/observe/health/live", null).status() == 200) {
                        return;
                    }
                } catch (IOException e) {
                    // not listening yet
                }
                Thread.sleep(200);
            }
            throw new IllegalStateException(m.name + " did not come up:\n" + m.process.tail(30));
        }

        private ServiceProxy.Backend backend(Member m) {
            return new ServiceProxy.Backend(m.name, ServiceLauncher.HOST, m.httpPort);
        }

        private Map<String, Integer> ports(List<Member> list) {
            Map<String, Integer> ports = new LinkedHashMap<>();
            list.forEach(m -> ports.put(m.name, m.httpPort));
            return ports;
        }

        @Override
        public void close() {
            health.close();
            proxy.close();
            // the highest first, as a StatefulSet scales down; each hands its partitions to the rest
            for (Member m : members.reversed()) {
                m.process.close(LEAVE_SECONDS);
            }
        }
    }

    private static double seconds(long nanos, long since) {
        return (nanos - since) / 1e9;
    }

    private Map<String, Object> settings() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seats", o.seats);
        m.put("buyers", o.buyers());
        m.put("connections", o.connections);
        m.put("offeredHoldAttemptsPerSecond", o.rate != null ? o.rate : BenchOptions.STAMPEDE_RATE);
        m.put("durationSeconds", o.duration.toSeconds());
        m.put("warmupSeconds", o.warmup.toSeconds());
        m.put("readEvery", o.readEvery);
        m.put("serviceJvmOptions", o.serviceOpts);
        m.put("aotCache", o.aotCache != null);
        m.put("connectionRotationRequests", ROTATE_AFTER);
        m.put("cores", Runtime.getRuntime().availableProcessors());
        return m;
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("bench: could not delete " + dir + ": " + e);
        }
    }
}
