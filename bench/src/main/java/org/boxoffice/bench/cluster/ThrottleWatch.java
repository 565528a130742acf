package org.boxoffice.bench.cluster;

import org.boxoffice.bench.probe.CpuMeter;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Each second of a run, in how many of its quota periods each member was held back by its CPU quota
 * (read from the members' groups, {@link CpuQuota#periodsByGroup}, once a second from the run's
 * start). A member that is held back answers nothing until its next period, its partitions'
 * operations for other members included, so the per-second table can say which member a slow
 * second waited for. Beside it, what the second's cores went to: the whole machine's busy cores
 * (a member starting beside the serving ones on a machine of few cores takes from all of them) and
 * each member's JIT compiler (a member compiling what it had not run before, in its slice of a core).
 */
public final class ThrottleWatch implements AutoCloseable {

    private final Map<Integer, Map<String, Integer>> bySecond = new ConcurrentHashMap<>();
    private final Map<Integer, Double> machineBusy = new ConcurrentHashMap<>();
    private final Map<Integer, Map<String, Double>> jit = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * Starts watching the groups of {@code quota} whose name contains {@code cluster}, second 1 being
     * the second after {@code startNanos} ({@link System#nanoTime}); members are named by what
     * follows {@code cluster + "-"} in their group's name.
     */
    public ThrottleWatch(CpuQuota quota, String cluster, long startNanos) {
        this(quota, cluster, startNanos, Map::of);
    }

    /**
     * As {@link #ThrottleWatch(CpuQuota, String, long)}, with the JIT compiler's CPU of each member
     * {@code members} lists (by name, its process id) each second.
     */
    public ThrottleWatch(CpuQuota quota, String cluster, long startNanos, Supplier<Map<String, Long>> members) {
        this.thread = Thread.ofPlatform().daemon().name("throttle-watch").start(() -> {
            Map<String, long[]> last = quota.periodsByGroup(cluster);
            long busyBefore = CpuMeter.machineBusyNanos();
            Map<Long, Long> jitBefore = jitNanos(members.get());
            for (int second = 1; running; second++) {
                long wait = startNanos + second * 1_000_000_000L - System.nanoTime();
                if (wait > 0) {
                    try {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                Map<String, long[]> now = quota.periodsByGroup(cluster);
                Map<String, Integer> held = new HashMap<>();
                for (Map.Entry<String, long[]> g : now.entrySet()) {
                    // a group made during the run (a member that joined) starts from nothing
                    long before = last.containsKey(g.getKey()) ? last.get(g.getKey())[1] : 0;
                    held.put(member(g.getKey(), cluster), (int) Math.max(0, g.getValue()[1] - before));
                }
                bySecond.put(second, held);
                last = now;
                long busy = CpuMeter.machineBusyNanos();
                if (busy >= 0 && busyBefore >= 0) {
                    machineBusy.put(second, (busy - busyBefore) / 1e9);
                }
                busyBefore = busy;
                Map<String, Long> pids = members.get();
                Map<Long, Long> jitNow = jitNanos(pids);
                Map<String, Double> compiling = new HashMap<>();
                for (Map.Entry<String, Long> m : pids.entrySet()) {
                    Long nanos = jitNow.get(m.getValue());
                    // a member started during the second is counted from its next one
                    Long before = jitBefore.get(m.getValue());
                    if (nanos != null && before != null) {
                        compiling.put(m.getKey(), (nanos - before) / 1e9);
                    }
                }
                jit.put(second, compiling);
                jitBefore = jitNow;
            }
        });
    }

    private static Map<Long, Long> jitNanos(Map<String, Long> pids) {
        Map<Long, Long> out = new HashMap<>();
        for (long pid : pids.values()) {
            Long nanos = CpuMeter.threadKinds(pid).get(CpuMeter.JIT);
            if (nanos != null) {
                out.put(pid, nanos);
            }
        }
        return out;
    }

    static String member(String group, String cluster) {
        int at = group.indexOf(cluster + "-");
        return at < 0 ? group : group.substring(at + cluster.length() + 1);
    }

    /** By second of the run (1, 2, ...): for each member, the quota periods of that second in which it was held back. */
    public Map<Integer, Map<String, Integer>> bySecond() {
        return Map.copyOf(bySecond);
    }

    /** By second of the run: the whole machine's busy cores in that second (absent where /proc/stat is not read). */
    public Map<Integer, Double> machineBusyCores() {
        return Map.copyOf(machineBusy);
    }

    /** By second of the run: each member's JIT compiler, in cores, in that second. */
    public Map<Integer, Map<String, Double>> jitCores() {
        return Map.copyOf(jit);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join();
    }
}
