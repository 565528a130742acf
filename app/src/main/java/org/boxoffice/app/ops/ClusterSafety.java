package org.boxoffice.app.ops;

import com.hazelcast.core.HazelcastInstance;
import org.boxoffice.grid.Membership;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether the next member may leave: no partition migrating and every backup in sync, asked of
 * the whole cluster ({@code PartitionService.isClusterSafe()}).
 *
 * <p>That question is not cheap: every member asked checks the replicas of each partition it owns
 * against their backups, operations on the partition threads of every member. Asked by every member
 * every second it was the largest part of an idle cluster's CPU. Partitions only move when the
 * membership changes, so a safe answer is kept until a member joins or leaves (every member hears
 * of that) or until {@code reverify} has passed, whichever comes first; an unsafe answer is never
 * kept, so after a change the cluster is asked on every probe until it is safe again. Nor is an
 * answer asked within {@code settling} of a change kept: the master plans a join's migrations a
 * moment after the join, and a "safe" from before that plan must not stand. Thread-safe.
 */
public final class ClusterSafety {

    /** One answer, and when it was asked of the cluster. */
    public record Verdict(boolean clusterSafe, boolean localMemberSafe, int members, long askedAtNanos, long change) {
    }

    private final HazelcastInstance hz;
    private final long reverifyNanos;
    private final long settlingNanos;
    private final AtomicLong changes = new AtomicLong();
    private volatile long changedAtNanos = System.nanoTime();
    private final AtomicLong asked = new AtomicLong();
    private volatile Verdict last;

    /**
     * @param reverify how long a safe answer is kept at most
     * @param settling how long after a membership change (or this object's start) every answer is asked afresh
     */
    public ClusterSafety(HazelcastInstance hz, Duration reverify, Duration settling) {
        this.hz = hz;
        this.reverifyNanos = reverify.toNanos();
        this.settlingNanos = settling.toNanos();
        Membership.onChange(hz.getCluster(), this::changed);
    }

    private void changed() {
        changedAtNanos = System.nanoTime();
        changes.incrementAndGet();
    }

    /** The kept safe answer if nothing changed since and it is recent, else the cluster's answer now. */
    public Verdict check() {
        long now = System.nanoTime();
        long change = changes.get();
        Verdict kept = last;
        if (kept != null && kept.clusterSafe() && kept.change() == change && now - kept.askedAtNanos() < reverifyNanos
                && kept.askedAtNanos() - changedAtNanos > settlingNanos) {
            return kept;
        }
        boolean running = hz.getLifecycleService().isRunning();
        boolean clusterSafe = running && hz.getPartitionService().isClusterSafe();
        // a safe cluster has every member safe: the local question is asked only when the answer can differ
        boolean localSafe = clusterSafe || (running && hz.getPartitionService().isLocalMemberSafe());
        asked.incrementAndGet();
        Verdict v = new Verdict(clusterSafe, localSafe, running ? hz.getCluster().getMembers().size() : 0, now, change);
        last = v;
        return v;
    }

    /** How many times the cluster was asked (the rest were answered from the kept answer). */
    public long asked() {
        return asked.get();
    }

    /** The probe's data for {@code v}. */
    public static Map<String, Object> data(Verdict v) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("clusterSafe", v.clusterSafe());
        data.put("localMemberSafe", v.localMemberSafe());
        data.put("members", v.members());
        data.put("checkedMillisAgo", (System.nanoTime() - v.askedAtNanos()) / 1_000_000);
        return data;
    }
}
