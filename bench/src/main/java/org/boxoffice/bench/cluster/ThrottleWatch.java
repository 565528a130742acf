package org.boxoffice.bench.cluster;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Each second of a run, in how many of its quota periods each member was held back by its CPU quota
 * (read from the members' groups, {@link CpuQuota#periodsByGroup}, once a second from the run's
 * start). A member that is held back answers nothing until its next period, its partitions'
 * operations for other members included, so the per-second table can say which member a slow
 * second waited for.
 */
public final class ThrottleWatch implements AutoCloseable {

    private final Map<Integer, Map<String, Integer>> bySecond = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * Starts watching the groups of {@code quota} whose name contains {@code cluster}, second 1 being
     * the second after {@code startNanos} ({@link System#nanoTime}); members are named by what
     * follows {@code cluster + "-"} in their group's name.
     */
    public ThrottleWatch(CpuQuota quota, String cluster, long startNanos) {
        this.thread = Thread.ofPlatform().daemon().name("throttle-watch").start(() -> {
            Map<String, long[]> last = quota.periodsByGroup(cluster);
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
            }
        });
    }

    static String member(String group, String cluster) {
        int at = group.indexOf(cluster + "-");
        return at < 0 ? group : group.substring(at + cluster.length() + 1);
    }

    /** By second of the run (1, 2, ...): for each member, the quota periods of that second in which it was held back. */
    public Map<Integer, Map<String, Integer>> bySecond() {
        return Map.copyOf(bySecond);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join();
    }
}
