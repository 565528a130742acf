package org.boxoffice.bench;

import org.boxoffice.bench.cluster.ClusterReport;
import org.boxoffice.bench.cluster.ThrottleWatch;
import org.boxoffice.bench.http.BoxofficeApi;
import org.boxoffice.bench.load.Buyer;
import org.boxoffice.bench.load.OpenLoopRun;
import org.boxoffice.bench.load.Target;
import org.boxoffice.bench.probe.JfrProfile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The elastic run of {@code --members N} with {@code --scale-up-at}, {@code --scale-down-at},
 * {@code --rolling-restart-at} and/or {@code --kill-at}: after the steady run on the N members,
 * another stampede on them, on a show of its own, in which the cluster changes at the given
 * seconds as Kubernetes changes a StatefulSet's pods (member N+1 joins; the highest leaves
 * gracefully; every member restarts in turn, highest first; the oldest is killed with SIGKILL and
 * started again), with the answers and the members' readiness second by second and the invariant
 * check after. The fans resend a hold or a read once when its connection is lost, with the hold's
 * Idempotency-Key, as their web app does.
 */
final class ElasticRun {

    private final BenchOptions o;
    private final RunEnvironment env;
    private final ClusterRun runs;

    ElasticRun(RunEnvironment env, ClusterRun runs) {
        this.o = env.options();
        this.env = env;
        this.runs = runs;
    }

    ClusterReport.Elastic run(Cluster cluster, BoxofficeApi api, String admin, List<String> tokens, Database db)
            throws Exception {
        Target show = runs.newShow(cluster, api, admin, "elastic", o.seats);
        List<Buyer> crowd = Buyer.crowd(o.buyers(), o.seed + 1, show.plan(), tokens);
        db.checkpoint();
        List<ClusterReport.Event> events = new CopyOnWriteArrayList<>();
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
        OpenLoopRun.Settings settings = runs.openLoop();
        // the fans' web app sends every hold with an Idempotency-Key, and sends a hold or a read again once when its connection is lost
        OpenLoopRun.Settings resending = new OpenLoopRun.Settings(settings.attemptsPerSecond(), settings.limit(),
                settings.connections(), settings.retries(), settings.bestAvailableShare(), settings.readEvery(), settings.seed(), true);
        if (o.profile) {
            // every member's profile over the whole run, members started during it from the moment
            // they serve HTTP, to read what the members did in the slow seconds of each change
            runs.startProfiles(cluster);
            cluster.profileNewMembers = true;
        }
        long startEpochMillis = System.currentTimeMillis();
        ThrottleWatch[] throttles = new ThrottleWatch[1];
        ClusterRun.Measured m = runs.measure(cluster, db, () -> {
            start[0] = System.nanoTime();
            if (cluster.quota != null) {
                throttles[0] = new ThrottleWatch(cluster.quota, cluster.name, start[0], () -> {
                    Map<String, Long> pids = new java.util.LinkedHashMap<>();
                    cluster.members.forEach(mb -> pids.put(mb.name(), mb.pid()));
                    return pids;
                });
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
                Path file = env.out().resolve("profile-elastic-" + mb.name() + "-pid" + mb.pid() + ".jfr");
                try {
                    JfrProfile.dumpAndStop(env.jcmd(), mb.pid(), file);
                } catch (IOException e) {
                    FlashSaleBench.log("no profile of " + mb.name() + ": " + e.getMessage());
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
        long violations = runs.invariants(db, show, m.run());
        FlashSaleBench.log(String.format(Locale.ROOT, "elastic run (%.0f s): invariant violations %d", runSeconds, violations));
        return ClusterReport.Elastic.of(m.run(), m.cpu(), m.requests(), events, cluster.health.samples(), start[0], violations,
                throttles[0] == null ? Map.of() : throttles[0].bySecond(),
                throttles[0] == null ? Map.of() : throttles[0].machineBusyCores(),
                throttles[0] == null ? Map.of() : throttles[0].jitCores());
    }
}
