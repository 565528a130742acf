package org.boxoffice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.bench.check.ReferenceState;
import org.boxoffice.bench.check.RunChecker;
import org.boxoffice.bench.cluster.ClusterReport;
import org.boxoffice.bench.http.BoxofficeApi;
import org.boxoffice.bench.http.HttpConnection;
import org.boxoffice.bench.load.OpenLoopRun;
import org.boxoffice.bench.load.RunResult;
import org.boxoffice.bench.load.ShowPlan;
import org.boxoffice.bench.load.Target;
import org.boxoffice.bench.probe.CpuMeter;
import org.boxoffice.bench.probe.JfrProfile;
import org.boxoffice.bench.probe.RefereeStats;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * What the runs on a {@link Cluster} share, the steady runs of {@link ClusterBench}, the
 * {@link ElasticRun} and the {@link ScalingCurve}'s trials: a fresh show every member knows, the
 * measured stretch (the CPU of every process and of the members' threads by kind, the requests
 * through the Service stand-in, the members' own counters), the wait for the members to go quiet,
 * the invariant check and the members' profiles.
 */
final class ClusterRun {

    /**
     * The holds of a measured show (steady run, elastic run, scaling-curve trial) outlive the size
     * that made them (its runs, about a quarter of an hour at most, then its cluster stops): none
     * lapses inside a measured stretch, so no size pays for another stretch's expiries. With 420 s,
     * the warm-up's holds lapsed in the steady run and the steady run's in the elastic one, and three
     * members, which warm up longer, were measured with three times one member's expiries (their
     * sweeps, referee writes and lapse notices).
     */
    static final int HOLD_SECONDS = 1_800;
    /** The holds of a warm-up show lapse within the warm-up ({@link #WARM_HOLD_SECONDS} plus the grace). */
    static final int WARM_HOLD_SECONDS = 10;

    private final BenchOptions o;
    private final RunEnvironment env;

    ClusterRun(RunEnvironment env) {
        this.o = env.options();
        this.env = env;
    }

    /**
     * @param threads the members' CPU seconds by thread kind
     * @param referee the members' own counters (grid claims, allowance reads, group commits) over the run, in words
     */
    record Measured(RunResult run, Map<String, Double> cpu, double proxyCpu, Map<String, Long> requests,
                    Map<String, Double> threads, String referee) {
    }

    interface Run {
        RunResult run() throws Exception;
    }

    Measured measure(Cluster cluster, Database db, Run body) throws Exception {
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
            groups.put(mb.name(), () -> ProcessHandle.of(pid).stream().toList());
        }
        CpuMeter meter = new CpuMeter(groups);
        Map<String, Long> requests0 = cluster.proxy.requests();
        long proxy0 = cluster.proxy.cpuNanos();
        RefereeStats counters0 = counters(cluster);
        Map<String, Long> threads0 = threadKinds(cluster);
        CpuMeter.Sample before = meter.sample();
        RunResult run = body.run();
        CpuMeter.Sample after = meter.sample();
        Map<String, Double> threads = new TreeMap<>();
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
    static Map<String, Long> threadKinds(Cluster cluster) {
        Map<String, Long> sum = new TreeMap<>();
        for (Member mb : cluster.members) {
            CpuMeter.threadKinds(mb.pid()).forEach((kind, nanos) -> sum.merge(kind, nanos, Long::sum));
        }
        return sum;
    }

    /** The members' group-commit, allowance and claim counters summed; null if a member did not answer. */
    static RefereeStats counters(Cluster cluster) {
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

    /**
     * Waits until the members, with no load, spend less than {@value ClusterReport#IDLE_CORES_TARGET} of a core each
     * (a tenth of their quota under {@code --cpu-quota}), at most {@code maxSeconds}: the seconds
     * waited, the cores last seen busy and the limit.
     */
    double[] quiet(Cluster cluster, int maxSeconds) throws InterruptedException {
        CpuMeter meter = new CpuMeter(Map.of(ClusterReport.MEMBERS, cluster::processes));
        double limit = (cluster.quota == null ? ClusterReport.IDLE_CORES_TARGET : 0.1 * cluster.quota.cores()) * cluster.members.size();
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

    long invariants(Database db, Target show, RunResult run) throws Exception {
        try (Connection c = db.connect()) {
            ReferenceState state = ReferenceState.boxoffice(c, show.showId());
            RunChecker.Report report = RunChecker.check(run.acked(), run.released(), run.paid(), state.seats(),
                    state.holds(), System.currentTimeMillis(), ShowPlan.DEFAULT_GRACE_MS);
            return report.violations();
        }
    }

    /** A show on sale now, created through the Service and known to every member before it is used. */
    Target newShow(Cluster cluster, BoxofficeApi api, String admin, String name, int seats) throws Exception {
        return newShow(cluster, api, admin, name, seats, HOLD_SECONDS);
    }

    /** As {@link #newShow(Cluster, BoxofficeApi, String, String, int)}, its holds lasting {@code holdSeconds}. */
    Target newShow(Cluster cluster, BoxofficeApi api, String admin, String name, int seats, int holdSeconds) throws Exception {
        JsonNode created = api.createShow(admin, ShowPlan.createRequest(o.event, ShowPlan.regularSections(seats),
                holdSeconds, null, o.blockGroups));
        String showId = created.path("showId").asText();
        for (Member mb : cluster.members) {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (true) {
                try (HttpConnection c = new HttpConnection(ServiceLauncher.HOST, mb.httpPort())) {
                    if (c.get("/v1/shows/" + showId, null).status() == 200) {
                        break;
                    }
                } catch (IOException e) {
                    // try again
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(mb.name() + " does not know show " + showId + " after 30 s");
                }
                Thread.sleep(100);
            }
        }
        return new Target("boxoffice-" + cluster.members.size() + "-" + name, api.host(), api.port(), showId,
                ShowPlan.fromShow(api.show(showId)));
    }

    /** The measured stampede's settings: {@code --rate} (else the stampede's default) for {@code --duration}. */
    OpenLoopRun.Settings openLoop() {
        return new OpenLoopRun.Settings(o.offeredRate(), o.duration, o.connections, o.retries, o.bestAvailable, o.readEvery, o.seed);
    }

    /** --profile: every member's Flight Recorder profile starts now. */
    void startProfiles(Cluster cluster) throws Exception {
        for (Member mb : cluster.members) {
            JfrProfile.start(env.jcmd(), mb.pid());
        }
    }

    /**
     * --profile: each member's Flight Recorder profile of the steady run, written beside the results
     * and summed up in the log: where the samples fall by component and the hottest methods with
     * their callees, so the price of distribution can be read per component at 1 and N members.
     */
    void profiles(Cluster cluster) throws Exception {
        for (Member mb : cluster.members) {
            Path file = env.out().resolve("profile-" + cluster.members.size() + "-members-" + mb.name() + ".jfr");
            JfrProfile.dumpAndStop(env.jcmd(), mb.pid(), file);
            JfrProfile.Summary p = JfrProfile.summarize(file);
            StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "profile of %s (%d members), %,d samples; by component:",
                    mb.name(), cluster.members.size(), p.samples()));
            p.byComponent().stream().limit(8).forEach(h -> b.append(String.format(Locale.ROOT, " %s %.0f%%;", h.name(),
                    h.share() * 100)));
            b.append(" inclusive:");
            p.inclusive().stream().limit(12).forEach(h -> b.append(String.format(Locale.ROOT, "%n    %5.1f%% %s", h.share() * 100,
                    h.name())));
            FlashSaleBench.log(b.toString());
        }
    }
}
