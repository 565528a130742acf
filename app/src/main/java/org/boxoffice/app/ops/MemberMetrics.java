package org.boxoffice.app.ops;

import com.hazelcast.cluster.ClusterState;
import com.hazelcast.core.HazelcastInstance;
import org.boxoffice.grid.Inventory;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.LongSupplier;

/**
 * The member's own meters: its JVM, its view of the cluster, its grid calls for claims, and what
 * its probes last found. A scrape reads the probes' last checks and counters, never a grid call.
 */
public final class MemberMetrics {

    private static final String THREADS = "live JVM threads by kind (live, daemon, peak)";

    private MemberMetrics() {
    }

    /**
     * @param readyAfterMillis milliseconds from the JVM's start to the member's first ready answer; 0 until then
     */
    public static void register(HazelcastInstance hz, Inventory inventory, HealthProbes probes,
                                LongSupplier readyAfterMillis, OpsMetrics metrics) {
        metrics.counter("boxoffice_inventory_claim_calls", "grid calls that carried buyers' claims on a block (claims "
                + "that queue behind one in flight on the same block share the next)", () -> inventory.claimStats().calls());
        metrics.counter("boxoffice_inventory_claims", "buyers' claims on a block sent to the grid",
                () -> inventory.claimStats().claims());
        // the JVM's thread and class counts under names Prometheus accepts (the built-in ones end in _count)
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        metrics.gauge("boxoffice_jvm_threads", THREADS, "kind", "live", threads::getThreadCount);
        metrics.gauge("boxoffice_jvm_threads", THREADS, "kind", "daemon", threads::getDaemonThreadCount);
        metrics.gauge("boxoffice_jvm_threads", THREADS, "kind", "peak", threads::getPeakThreadCount);
        metrics.gauge("boxoffice_jvm_classes_loaded", "classes loaded in the JVM now",
                ManagementFactory.getClassLoadingMXBean()::getLoadedClassCount);
        metrics.gauge("boxoffice_grid_members", "members in this member's view of the cluster",
                () -> hz.getLifecycleService().isRunning() ? hz.getCluster().getMembers().size() : 0);
        // what an operator alerts on, read from the last checks (a scrape costs no grid call)
        metrics.gauge("boxoffice_cluster_safe", "1 when the last safety check found the cluster safe "
                + "(no partition migrating, every backup in sync): the next member may leave",
                () -> Boolean.TRUE.equals(probes.safe().data().get("clusterSafe")) ? 1 : 0);
        metrics.gauge("boxoffice_database_up", "1 when PostgreSQL answered the last readiness check",
                () -> Boolean.TRUE.equals(probes.ready().data().get("database")) ? 1 : 0);
        metrics.gauge("boxoffice_ready_seconds", "seconds from the JVM's start to this member's first ready answer "
                + "(0 until then)", () -> readyAfterMillis.getAsLong() / 1000.0);
        metrics.gauge("boxoffice_cluster_active", "1 while the cluster state is ACTIVE (not FROZEN, PASSIVE "
                + "or IN_TRANSITION)", () -> hz.getLifecycleService().isRunning()
                && hz.getCluster().getClusterState() == ClusterState.ACTIVE ? 1 : 0);
    }
}
