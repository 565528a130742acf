package org.boxoffice.bench;

import org.boxoffice.bench.cluster.ClusterReport;
import org.boxoffice.bench.http.BoxofficeApi;
import org.boxoffice.bench.load.Buyer;
import org.boxoffice.bench.load.OpenLoopRun;
import org.boxoffice.bench.load.Sweep;
import org.boxoffice.bench.load.Target;
import org.boxoffice.bench.probe.CpuMeter;
import org.boxoffice.bench.probe.RefereeStats;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The scaling curve of {@code --members N --cpu-quota CORES --sweep}: the highest rate 1, 2, ... N
 * members sustain, each member in a CPU quota of its own (the load generator and PostgreSQL
 * outside), found by a sweep of short trials on fresh shows.
 */
final class ScalingCurve {

    /** The longest a scaling-curve trial waits for the members to work off the trial before it. */
    private static final int TRIAL_SETTLE_MAX_SECONDS = 30;
    /** The scaling curve's first rate: a member in a slice of a core sustains less than the one-member sweep's start. */
    private static final double CURVE_START = 100;

    private final BenchOptions o;
    private final ClusterRun runs;

    ScalingCurve(RunEnvironment env, ClusterRun runs) {
        this.o = env.options();
        this.runs = runs;
    }

    /**
     * The highest rate {@code cluster} sustains (hold p99 under the sweep's budget, nearly every
     * attempt answered), doubling and then bisecting as the one-member sweep does, each trial on a
     * fresh show with the same crowd; the CPU of the members and of PostgreSQL over all trials.
     */
    ClusterReport.CurvePoint point(Cluster cluster, BoxofficeApi api, String admin, List<String> tokens,
                                   Database db) throws Exception {
        int n = cluster.members.size();
        var crowd = new AtomicReference<List<Buyer>>();
        var sweep = new AtomicReference<Sweep.Result>();
        if (o.profile) {
            runs.startProfiles(cluster);
        }
        CpuMeter trialMeter = new CpuMeter(Map.of(ClusterReport.MEMBERS, cluster::processes));
        ClusterRun.Measured m = runs.measure(cluster, db, () -> {
            Sweep.Result r = Sweep.search(CURVE_START, BenchOptions.SWEEP_MAX, 2, Sweep.BUDGET_MS, rate -> {
                // every trial starts from a cluster that has worked off the one before (a failed
                // trial leaves queued stores and sweeps behind), as the first trial did
                runs.quiet(cluster, TRIAL_SETTLE_MAX_SECONDS);
                Target show = runs.newShow(cluster, api, admin, "sweep", o.seats);
                if (crowd.get() == null) {
                    crowd.set(Buyer.crowd(o.buyers(), o.seed, show.plan(), tokens));
                }
                RefereeStats r0 = ClusterRun.counters(cluster);
                CpuMeter.Sample c0 = trialMeter.sample();
                long[] t0 = cluster.quota.periods(cluster.name);
                Sweep.Step step = Sweep.Step.of(new OpenLoopRun(show, crowd.get(), new OpenLoopRun.Settings(rate, o.sweepStep,
                        o.connections, o.retries, o.bestAvailable, o.readEvery, o.seed), null).run(), Sweep.BUDGET_MS);
                Map<String, Double> cpu = CpuMeter.between(c0, trialMeter.sample());
                long[] t1 = cluster.quota.periods(cluster.name);
                long periods = t1[0] - t0[0];
                FlashSaleBench.log(String.format(Locale.ROOT, "sweep %d member(s): offered %,.0f/s, answered %,.0f/s, hold p50 %.1f"
                                + " ms p99 %.1f ms; members %.2f cores, throttled in %.0f%% of their %d ms periods%s", n,
                        step.offeredPerSecond(), step.achievedPerSecond(), step.holdP50Ms(), step.holdP99Ms(),
                        cpu.getOrDefault(ClusterReport.MEMBERS, 0.0) / cpu.getOrDefault("wall", 1.0),
                        periods == 0 ? 0.0 : 100.0 * (t1[1] - t0[1]) / periods, cluster.quota.periodMillis(), step.sustained() ? "" : "  (not sustained)"));
                RefereeStats r1 = ClusterRun.counters(cluster);
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
            runs.profiles(cluster);
        }
        Sweep.Result r = sweep.get();
        FlashSaleBench.log("CPU quota throttling since each member started: " + cluster.quota.throttling(cluster.name));
        FlashSaleBench.log(String.format(Locale.ROOT, "sweep %d member(s) in %.2f cores each (per %d ms): highest sustained rate %s", n,
                o.cpuQuota, cluster.quota.periodMillis(), r.bestRate() == null ? "none" : String.format(Locale.ROOT, "%,.0f/s", r.bestRate())));
        return new ClusterReport.CurvePoint(n, o.cpuQuota, r.bestRate(), r.steps(), m.cpu());
    }
}
