package org.boxoffice.bench;

import org.boxoffice.bench.cluster.ClusterReport;
import org.boxoffice.bench.cluster.CpuQuota;
import org.boxoffice.bench.cluster.MemberHealth;
import org.boxoffice.bench.cluster.ServiceProxy;
import org.boxoffice.bench.http.HttpConnection;
import org.boxoffice.bench.probe.JfrProfile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Members of one grid cluster of their own, and the Service stand-in in front of them: started one
 * after the other, each its own process of the real jar (TCP-IP join on loopback, one backup, a
 * quorum of a majority), and changed as Kubernetes changes a StatefulSet's pods: a member joins,
 * the highest leaves, every member restarts in turn, the oldest is killed.
 */
final class Cluster implements AutoCloseable {

    /**
     * Requests per client connection (on average) before the fan's connection ends and a new one is
     * spread: a few seconds per connection at the stampede's rates, so a member that joins gets its
     * share within seconds.
     */
    static final int ROTATE_AFTER = 10;
    /** The base StatefulSet's preStop sleep: endpoints drop a leaving member this long before SIGTERM. */
    private static final Duration PRE_STOP = Duration.ofSeconds(5);
    /**
     * The base StatefulSet's minReadySeconds: a rolling update takes the next pod only once the one
     * before has been ready this long, which also gives the endpoints (here the Service stand-in's
     * next readiness look) time to list it again.
     */
    private static final Duration MIN_READY = Duration.ofSeconds(5);
    private static final long READY_TIMEOUT_MS = 180_000;
    /** The longest a leaving member may take to hand its partitions over (the manifests' grace period). */
    private static final int LEAVE_SECONDS = 120;

    final List<Member> members = new CopyOnWriteArrayList<>();
    /** Every member ever started, for the CPU of a run in which one joins or leaves. */
    final List<Member> all = new CopyOnWriteArrayList<>();
    final int quorum;
    final String name;
    final ServiceProxy proxy = new ServiceProxy(ROTATE_AFTER);
    /** Every member's readiness every 250 ms, which the Service stand-in follows. */
    final MemberHealth health = new MemberHealth();
    final CpuQuota quota;
    /** --profile during the elastic run: a member started from now on is profiled once it serves HTTP. */
    volatile boolean profileNewMembers;
    private final BenchOptions o;
    /** The results folder, where each member's log goes. */
    private final Path out;
    private final Path jcmd;
    private final int size;
    private final List<Integer> gridPorts = new ArrayList<>();
    private final Path dir;
    private final Database db;
    /** Members on their way out (endpoint removed as the pod terminates): the Service no longer follows their readiness. */
    private final Set<String> leaving = ConcurrentHashMap.newKeySet();
    private final Map<String, Integer> starts = new ConcurrentHashMap<>();

    /**
     * @param maxMembers the most members the cluster will have at once (a grid port is kept for each)
     * @param quota the CPU quota each member runs in, or null
     */
    Cluster(RunEnvironment env, int size, int maxMembers, Database db, Path dir, CpuQuota quota) {
        this.o = env.options();
        this.out = env.out();
        this.jcmd = env.jcmd();
        this.quota = quota;
        health.follow(sample -> {
            if (leaving.contains(sample.member())) {
                return;
            }
            members.stream().filter(mb -> mb.name().equals(sample.member())).findFirst()
                    .ifPresent(mb -> proxy.follow(backend(mb), sample.ready()));
        });
        this.size = size;
        this.quorum = size / 2 + 1;
        this.db = db;
        this.dir = dir;
        for (int i = 0; i < maxMembers; i++) {
            gridPorts.add(ChildProcess.freePort());
        }
        this.name = "bench-" + size + "-" + RunEnvironment.randomHex(4);
    }

    /** The processes of the members serving now. */
    List<ProcessHandle> processes() {
        return members.stream().flatMap(mb -> ProcessHandle.of(mb.pid()).stream()).toList();
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
        members.forEach(m -> health.watch(m.name(), m.httpPort()));
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
        health.watch(m.name(), m.httpPort());
        int target = members.size();
        Map<String, Integer> old = ports(members.subList(0, index));
        long joined = MemberHealth.await(old, s -> s.members() == target, READY_TIMEOUT_MS);
        long ready = MemberHealth.await(Map.of(m.name(), m.httpPort()), MemberHealth.Sample::ready, READY_TIMEOUT_MS);
        long allReady = MemberHealth.await(ports(members), s -> s.ready() && s.members() == target, READY_TIMEOUT_MS);
        FlashSaleBench.log(String.format(Locale.ROOT, "scale-up: member %d joined after %.1f s, ready after %.1f s,"
                + " all %d ready after %.1f s", index + 1, (joined - t) / 1e9, (ready - t) / 1e9, target, (allReady - t) / 1e9));
        return new ClusterReport.Event("join", m.name(), seconds(t, runStart), seconds(joined, t), seconds(ready, t),
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
                + " after SIGTERM", m.name(), (exited - term) / 1e9, target, (allReady - term) / 1e9));
        return new ClusterReport.Event("leave", m.name(), seconds(t, runStart), null, null, seconds(exited, term),
                seconds(allReady, term), PRE_STOP.toSeconds() * 1.0);
    }

    /**
     * A member stops as a pod that is deleted: its endpoint goes at once (the Service stops
     * following its readiness), the preStop sleep, then SIGTERM, and the wait until it exits.
     *
     * @return when SIGTERM was sent and when the process had exited (nanoTime)
     */
    private long[] terminate(Member m, String step) throws InterruptedException {
        FlashSaleBench.log(step + ": " + m.name() + " out of the Service, SIGTERM in " + PRE_STOP.toSeconds() + " s");
        leaving.add(m.name());
        health.unwatch(m.name());
        proxy.remove(m.name());
        Thread.sleep(PRE_STOP.toMillis());
        long term = System.nanoTime();
        m.process().close(LEAVE_SECONDS);
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
        leaving.remove(m.name());
        health.watch(again.name(), again.httpPort());
        long ready = MemberHealth.await(Map.of(again.name(), again.httpPort()), MemberHealth.Sample::ready, READY_TIMEOUT_MS);
        long settled = settle();
        FlashSaleBench.log(String.format(Locale.ROOT, "rolling restart: %s exited %.1f s after SIGTERM, ready again %.1f s"
                + " after SIGTERM; all %d ready and the cluster safe %.1f s after SIGTERM", m.name(), (exited - term) / 1e9,
                (ready - term) / 1e9, members.size(), (settled - term) / 1e9));
        return new ClusterReport.Event("restart", m.name(), seconds(t, runStart), null, seconds(ready, term),
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
        FlashSaleBench.log("kill: SIGKILL to " + m.name() + " (pid " + m.pid() + ")");
        long t = System.nanoTime();
        m.process().kill();
        long gone = System.nanoTime();
        Member again = relaunch(m);
        profileOnceLive(again);
        health.watch(again.name(), again.httpPort());
        long ready = MemberHealth.await(Map.of(again.name(), again.httpPort()), MemberHealth.Sample::ready, READY_TIMEOUT_MS);
        long settled = settle();
        FlashSaleBench.log(String.format(Locale.ROOT, "kill: %s gone %.1f s after SIGKILL, ready again after %.1f s; all %d"
                + " ready and the cluster safe %.1f s after the kill", m.name(), (gone - t) / 1e9, (ready - t) / 1e9,
                members.size(), (settled - t) / 1e9));
        return new ClusterReport.Event("kill", m.name(), seconds(t, runStart), null, seconds(ready, t), seconds(gone, t),
                seconds(settled, t), null);
    }

    private void profileOnceLive(Member m) {
        if (!profileNewMembers) {
            return;
        }
        Thread.ofVirtual().name("profile-" + m.name()).start(() -> {
            try {
                awaitLive(m);
                JfrProfile.start(jcmd, m.pid());
            } catch (Exception e) {
                FlashSaleBench.log("no profile of " + m.name() + ": " + e.getMessage());
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
        long safe = MemberHealth.awaitSafe(members.getFirst().httpPort(), READY_TIMEOUT_MS);
        long deadline = System.nanoTime() + READY_TIMEOUT_MS * 1_000_000;
        while (!members.stream().allMatch(mb -> proxy.lists(mb.name()))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the Service did not list every member within "
                        + READY_TIMEOUT_MS / 1000 + " s");
            }
            Thread.sleep(20);
        }
        return safe;
    }

    /** A rolling update's pause between pods: the one before must have been listed MIN_READY. */
    void minReady() throws InterruptedException {
        Thread.sleep(MIN_READY.toMillis());
    }

    /** The same member started again in its place: name, grid port and data folder; a new HTTP port. */
    private Member relaunch(Member old) throws Exception {
        int run = starts.merge(old.name(), 1, Integer::sum);
        ServiceLauncher.Started s = start(old.index(), old.name(), "-run" + (run + 1));
        Member m = new Member(old.name(), old.index(), s.process(), s.port());
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
            if (!m.process().isAlive()) {
                throw new IllegalStateException(m.name() + " exited:\n" + m.process().tail(30));
            }
            try (HttpConnection c = new HttpConnection(ServiceLauncher.HOST, m.httpPort())) {
                if (c.get("/observe/health/live", null).status() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException(m.name() + " did not come up:\n" + m.process().tail(30));
    }

    private ServiceProxy.Backend backend(Member m) {
        return new ServiceProxy.Backend(m.name(), ServiceLauncher.HOST, m.httpPort());
    }

    private Map<String, Integer> ports(List<Member> list) {
        Map<String, Integer> ports = new LinkedHashMap<>();
        list.forEach(m -> ports.put(m.name(), m.httpPort()));
        return ports;
    }

    @Override
    public void close() {
        health.close();
        proxy.close();
        // the highest first, as a StatefulSet scales down; each hands its partitions to the rest
        for (Member m : members.reversed()) {
            m.process().close(LEAVE_SECONDS);
        }
    }

    private static double seconds(long nanos, long since) {
        return (nanos - since) / 1e9;
    }
}
