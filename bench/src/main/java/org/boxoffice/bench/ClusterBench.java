package org.boxoffice.bench;

import org.boxoffice.bench.cluster.ClusterReport;
import org.boxoffice.bench.cluster.CpuQuota;
import org.boxoffice.bench.cluster.ServiceProxy;
import org.boxoffice.bench.http.BoxofficeApi;
import org.boxoffice.bench.http.HttpResponse;
import org.boxoffice.bench.load.Buyer;
import org.boxoffice.bench.load.LoadRun;
import org.boxoffice.bench.load.OpenLoopRun;
import org.boxoffice.bench.load.ShowPlan;
import org.boxoffice.bench.load.Target;
import org.boxoffice.bench.probe.CpuMeter;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;

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
 *
 * <p>This class is the run's outline, each size's warm-up and the steady runs; {@link Cluster}
 * starts, changes and stops the members behind the Service stand-in; {@link ElasticRun} is that
 * third stampede (also with {@code --rolling-restart-at} and {@code --kill-at}); {@link ScalingCurve}
 * takes the steady runs' place under {@code --cpu-quota} with {@code --sweep}; {@link ClusterRun} is
 * what their runs share.
 */
final class ClusterBench {

    private static final int WARM_STEP_SECONDS = 10;
    private static final double WARM_QUIET_CORES = 0.05;
    /** ... and under this share of the members' own CPU over the step (at 100 attempts/s, 0.05 cores was 0.4 ms an attempt). */
    private static final double WARM_QUIET_SHARE = 0.05;
    private static final int WARM_MAX_SECONDS = 180;
    private static final int SETTLE_MAX_SECONDS = 180;
    /** Before each steady run: what the members, PostgreSQL and the machine spend with no load at all. */
    private static final Duration IDLE = Duration.ofSeconds(10);

    private final BenchOptions o;
    private final RunEnvironment env;
    private final Path out;
    private final ClusterRun runs;

    ClusterBench(BenchOptions options) {
        this.o = options;
        this.env = new RunEnvironment(options);
        this.out = env.out();
        this.runs = new ClusterRun(env);
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
            List<Integer> sizes = scaling ? IntStream.rangeClosed(1, o.members).boxed().toList()
                    : o.members == 1 || !o.baselines ? List.of(o.members) : List.of(1, o.members);
            boolean events = o.scaleUpAt != null || o.scaleDownAt != null || o.rollingRestartAt != null || o.killAt != null;
            for (int n : sizes) {
                boolean last = n == sizes.getLast();
                int max = last && o.scaleUpAt != null ? n + 1 : n;
                // each size on an empty database of the same server: the holds a size leaves behind
                // lapse minutes later, and the next size would otherwise pay for expiring them
                try (Database db = base.fresh("cluster_" + n); Cluster cluster = new Cluster(env, n, max, db, work.resolve("cluster-" + n), quota)) {
                    cluster.startAll();
                    BoxofficeApi api = new BoxofficeApi(ServiceLauncher.HOST, cluster.proxy.port());
                    String admin = api.adminToken();
                    long t0 = System.nanoTime();
                    // a database's own signing secrets: the buyers' tokens are made for each size
                    List<String> tokens = api.tokens(Buyer.accountIds(o.buyers()), Math.min(o.connections, 64));
                    FlashSaleBench.log(String.format(Locale.ROOT, "%,d buyer tokens in %.1f s", tokens.size(),
                            (System.nanoTime() - t0) / 1e9));
                    warmUp(cluster, api, admin, tokens);
                    settle(cluster);
                    if (scaling) {
                        curve.add(new ScalingCurve(env, runs).point(cluster, api, admin, tokens, db));
                        continue;
                    }
                    ClusterReport.Steady s = steady(cluster, api, admin, tokens, db);
                    steady.add(s);
                    violations += s.invariantViolations();
                    if (last && events) {
                        elastic = new ElasticRun(env, runs).run(cluster, api, admin, tokens, db);
                        violations += elastic.invariantViolations();
                    }
                }
            }
        } finally {
            if (quota != null) {
                quota.close();
            }
            RunEnvironment.deleteRecursively(work);
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
        Target show = runs.newShow(cluster, api, admin, "warmup", Math.min(o.seats, SystemRun.WARMUP_SEATS), ClusterRun.WARM_HOLD_SECONDS);
        Duration closed = o.warmup.multipliedBy(2).dividedBy(3);
        FlashSaleBench.log("warming up " + cluster.members.size() + " member(s): " + closed.toSeconds()
                + " s closed loop, then the stampede until their JIT compilers are quiet");
        new LoadRun(show, Buyer.crowd(o.buyers(), o.seed, show.plan(), tokens),
                new LoadRun.Settings(o.connections, closed, o.retries, o.bestAvailable, 1.0, 0, o.readEvery, o.seed, true)).run();
        double rate = o.offeredRate();
        CpuMeter members = new CpuMeter(Map.of(ClusterReport.MEMBERS, cluster::processes));
        long t0 = System.nanoTime();
        for (int step = 1; ; step++) {
            Target stampede = runs.newShow(cluster, api, admin, "warmup-stampede-" + step, Math.min(o.seats, SystemRun.WARMUP_SEATS),
                    ClusterRun.WARM_HOLD_SECONDS);
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
        // the warm-up's last holds lapse (and are swept, their seats back, their notices sent) before
        // anything is measured: the settling that follows waits for the members to be done with them
        Thread.sleep((ClusterRun.WARM_HOLD_SECONDS + ShowPlan.DEFAULT_GRACE_MS / 1000 + WARM_SWEEP_SECONDS) * 1000L);
    }

    /** After a warm-up hold's grace: time for the sweeper (every 0.5 s) to find it. */
    private static final long WARM_SWEEP_SECONDS = 3;

    /** CPU the members' JIT compiler threads have spent so far. */
    private static long jitNanos(Cluster cluster) {
        return ClusterRun.threadKinds(cluster).getOrDefault(CpuMeter.JIT, 0L);
    }

    private ClusterReport.Steady steady(Cluster cluster, BoxofficeApi api, String admin, List<String> tokens, Database db)
            throws Exception {
        db.checkpoint();
        // without load: before the run's show is created (a creation loads the show's blocks onto
        // owners and backups, a request's work, not a member's upkeep)
        ClusterRun.Measured idle = runs.measure(cluster, db, () -> {
            Thread.sleep(IDLE.toMillis());
            return null;
        });
        Target show = runs.newShow(cluster, api, admin, "steady", o.seats);
        List<Buyer> crowd = Buyer.crowd(o.buyers(), o.seed, show.plan(), tokens);
        if (o.profile) {
            runs.startProfiles(cluster);
        }
        var statements = db.statementTotals();
        ClusterRun.Measured m = runs.measure(cluster, db, () -> new OpenLoopRun(show, crowd, runs.openLoop(), null).run());
        FlashSaleBench.log(Database.topStatements(statements, db.statementTotals(), 10));
        if (o.profile) {
            runs.profiles(cluster);
        }
        long violations = runs.invariants(db, show, m.run());
        ClusterReport.Steady s = ClusterReport.Steady.of(cluster.members.size(), cluster.quorum, m.run(), m.cpu(), m.proxyCpu(),
                m.requests(), idle.cpu(), violations, m.threads(), idle.threads(), m.referee());
        FlashSaleBench.log(String.format(Locale.ROOT, "%d member(s): %,d hold attempts (%,.0f/s answered), CPU per attempt:"
                        + " members + PostgreSQL %.0f us, whole machine %.0f us; invariant violations %d",
                cluster.members.size(), m.run().attempts(), m.run().attemptsPerSecond(), s.systemMicrosPerAttempt(),
                s.machineMicrosPerAttempt(), violations));
        return s;
    }

    /**
     * After the warm-up, before anything is measured: waits until the members, with no load, spend
     * less than {@value ClusterReport#IDLE_CORES_TARGET} of a core each (a tenth of their quota under
     * {@code --cpu-quota}), at most {@value #SETTLE_MAX_SECONDS} s. The JIT compiler works off what
     * the warm-up gave it long after the warm-up ends, the more so the more members share the
     * cores; measured before it is done, a cluster's CPU per attempt is mostly compilation. So every
     * size is measured equally warm.
     */
    private void settle(Cluster cluster) throws InterruptedException {
        double[] waited = runs.quiet(cluster, SETTLE_MAX_SECONDS);
        FlashSaleBench.log(String.format(Locale.ROOT, "%d member(s) settled after the warm-up in %.0f s (%.2f cores busy without"
                + " load, limit %.2f)", cluster.members.size(), waited[0], waited[1], waited[2]));
    }

    private Map<String, Object> settings() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seats", o.seats);
        m.put("buyers", o.buyers());
        m.put("connections", o.connections);
        m.put("offeredHoldAttemptsPerSecond", o.offeredRate());
        m.put("durationSeconds", o.duration.toSeconds());
        m.put("warmupSeconds", o.warmup.toSeconds());
        m.put("readEvery", o.readEvery);
        m.put("serviceJvmOptions", o.serviceOpts);
        m.put("aotCache", o.aotCache != null);
        m.put("connectionRotationRequests", Cluster.ROTATE_AFTER);
        m.put("cores", Runtime.getRuntime().availableProcessors());
        return m;
    }
}
