package org.boxoffice.app.ops;

import com.hazelcast.core.HazelcastInstance;
import org.boxoffice.grid.GridMaps;

import javax.sql.DataSource;
import java.sql.Connection;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.logging.Logger;

/**
 * What this member's readiness and cluster-safety probes answer ({@link HealthProbes} asks them off
 * the request path, once a second). Thread-safe.
 *
 * <p>Ready when this member serves now: it runs, sees at least its quorum of members, PostgreSQL
 * answers, the catalog is loaded and its rehearsal (if one is due or running) has ended. Whether
 * partitions are migrating is not asked: a member serves while they move (a claim on a moving
 * partition waits for the move, then goes on), and a readiness that asked would take every member
 * out of the load balancer during every join and leave. That question is {@link #safety}'s, for
 * whoever paces removals.
 */
public final class MemberReadiness {

    private static final Logger LOG = Logger.getLogger(MemberReadiness.class.getName());

    private final HazelcastInstance hz;
    private final int quorum;
    private final DataSource dataSource;
    private final BooleanSupplier catalogEmpty;
    private final ClusterSafety clusterSafety;
    /** Whether a rehearsal will start or has started; then readiness waits for {@link #rehearsed}. */
    private volatile boolean rehearsalDue;
    /** Whether the rehearsal ended; null while none has started. */
    private volatile BooleanSupplier rehearsed;
    /** Set once the catalog was seen loaded: from then on readiness no longer asks the grid (see {@link #catalogLoaded}). */
    private volatile boolean catalogSeenLoaded;
    /** Milliseconds from the JVM's start to the first ready answer; 0 until then. */
    private volatile long readyAfterMillis;

    /**
     * @param quorum       the members this member must see to serve
     * @param catalogEmpty whether PostgreSQL holds no catalog at all (then an empty search map is a loaded one)
     * @param rehearsalDue whether this member was started to rehearse before it serves
     */
    public MemberReadiness(HazelcastInstance hz, int quorum, DataSource dataSource, BooleanSupplier catalogEmpty,
                           boolean rehearsalDue) {
        this.hz = hz;
        this.quorum = quorum;
        this.dataSource = dataSource;
        this.catalogEmpty = catalogEmpty;
        this.clusterSafety = new ClusterSafety(hz, Duration.ofSeconds(30), Duration.ofSeconds(10));
        this.rehearsalDue = rehearsalDue;
    }

    /** A rehearsal will start: readiness is down from now on until {@link #rehearsing}'s rehearsal has ended. */
    public void rehearsalDue() {
        rehearsalDue = true;
    }

    /** The rehearsal started: readiness waits until {@code done} says it has ended. */
    public void rehearsing(BooleanSupplier done) {
        rehearsed = done;
    }

    /** Milliseconds from the JVM's start to this member's first ready answer; 0 until then. */
    public long readyAfterMillis() {
        return readyAfterMillis;
    }

    /** The readiness probe's answer, now. */
    public HealthProbes.Check readiness() {
        boolean running = hz.getLifecycleService().isRunning();
        int members = running ? hz.getCluster().getMembers().size() : 0;
        boolean hasQuorum = members >= quorum;
        boolean db;
        try (Connection c = dataSource.getConnection()) {
            db = c.isValid(2);
        } catch (Exception e) {
            db = false;
        }
        boolean catalog = running && catalogLoaded();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("member", running);
        data.put("quorum", hasQuorum);
        data.put("database", db);
        data.put("catalog", catalog);
        data.put("members", members);
        BooleanSupplier r = rehearsed;
        boolean done = r != null ? r.getAsBoolean() : !rehearsalDue;
        if (r != null || rehearsalDue) {
            data.put("rehearsed", done);
        }
        boolean up = running && hasQuorum && db && catalog && done;
        if (up && readyAfterMillis == 0) {
            readyAfterMillis = Math.max(1, java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime());
            LOG.info(() -> String.format(java.util.Locale.ROOT, "this member is ready %.1f s after its JVM started "
                    + "(%d members)", readyAfterMillis / 1000.0, hz.getCluster().getMembers().size()));
        }
        if (readyAfterMillis > 0) {
            data.put("readyAfterMillis", readyAfterMillis);
        }
        return new HealthProbes.Check("boxoffice", up, data);
    }

    /**
     * Whether the next member may leave: no partition is migrating and every backup is in sync
     * ({@code PartitionService.isClusterSafe()}), asked of the whole cluster. An operator or a
     * script scaling down or rolling members waits for it between two removals; graceful shutdown
     * hands a leaving member's partitions over before it exits either way.
     */
    public HealthProbes.Check safety() {
        ClusterSafety.Verdict v = clusterSafety.check();
        return new HealthProbes.Check("cluster-safe", v.clusterSafe(), ClusterSafety.data(v));
    }

    /**
     * The catalog is loaded once the search map has its listings (an empty catalog counts as loaded).
     * A start-up condition: once seen, it holds for the member's life. The check is a call to every
     * partition, which waits while partitions migrate and reload after a member leaves or a split
     * heals; asked on every round, it held the readiness thread for over a minute in a split-brain
     * test, so readiness (and its member count) went stale exactly when it mattered.
     */
    private boolean catalogLoaded() {
        if (catalogSeenLoaded) {
            return true;
        }
        try {
            boolean loaded = !hz.getMap(GridMaps.CATALOG_EVENTS).isEmpty() || catalogEmpty.getAsBoolean();
            catalogSeenLoaded = loaded;
            return loaded;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
