package org.boxoffice.bench.cluster;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Each second of a run, how long each member's CPU quota held it back in that second: read from the
 * members' groups ({@link CpuQuota#throttledNanos}) once a second, from the run's start. A member
 * that is held back cannot answer anything, its partitions' operations for other members included,
 * so the per-second table can say which member a slow second waited for.
 */
public final class ThrottleWatch implements AutoCloseable {

    private final Map<Integer, Map<String, Double>> bySecond = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * Starts watching the groups of {@code quota} whose name contains {@code cluster}, second 1 being
     * the second after {@code startNanos} ({@link System#nanoTime}); members are named by what
     * follows {@code cluster + "-"} in their group's name.
     */
    public ThrottleWatch(CpuQuota quota, String cluster, long startNanos) {
        this.thread = Thread.ofPlatform().daemon().name("throttle-watch").start(() -> {
            Map<String, Long> last = quota.throttledNanos(cluster);
            for (int second = 1; running; second++) {
                long wait = startNanos + second * 1_000_000_000L - System.nanoTime();
                if (wait > 0) {
                    try {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                Map<String, Long> now = quota.throttledNanos(cluster);
                Map<String, Double> held = new HashMap<>();
                for (Map.Entry<String, Long> g : now.entrySet()) {
                    // a group made during the run (a member that joined) starts from nothing
                    long before = last.getOrDefault(g.getKey(), 0L);
                    held.put(member(g.getKey(), cluster), Math.max(0, g.getValue() - before) / 1e6);
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

    /** By second of the run (1, 2, ...): each member's milliseconds held back in that second. */
    public Map<Integer, Map<String, Double>> bySecond() {
        return Map.copyOf(bySecond);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join();
    }
}
