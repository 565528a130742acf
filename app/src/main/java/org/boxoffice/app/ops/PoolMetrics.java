package org.boxoffice.app.ops;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.IMetricsTracker;
import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import com.zaxxer.hikari.metrics.PoolStats;
import io.helidon.metrics.api.Timer;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The PostgreSQL connection pool's use and waits, from HikariCP's own metrics hooks: connections
 * in use and idle, the pool's size, threads waiting for one, how long each borrow waited, and borrows
 * that gave up (after the pool's connection timeout). A pool short of connections shows as waits
 * before it shows as timeouts; a write-through store that waits holds its partition.
 */
public final class PoolMetrics implements MetricsTrackerFactory {

    private static final Duration[] WAIT_BUCKETS = {
        Duration.ofNanos(100_000), Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(5),
        Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(500),
        Duration.ofSeconds(1), Duration.ofSeconds(5)
    };
    private static final String CONNECTIONS = "the database pool's open connections by state (active: lent out, idle)";

    private final OpsMetrics metrics;

    private PoolMetrics(OpsMetrics metrics) {
        this.metrics = metrics;
    }

    /**
     * Meters {@code dataSource} if it is a HikariCP pool not metered yet (HikariCP takes a metrics
     * hook once, also after the pool started); anything else is left alone.
     */
    public static void meter(DataSource dataSource, OpsMetrics metrics) {
        if (dataSource instanceof HikariDataSource pool && pool.getMetricsTrackerFactory() == null) {
            pool.setMetricsTrackerFactory(new PoolMetrics(metrics));
        }
    }

    @Override
    public IMetricsTracker create(String poolName, PoolStats stats) {
        metrics.gauge("boxoffice_db_pool_connections", CONNECTIONS, "state", "active", stats::getActiveConnections);
        metrics.gauge("boxoffice_db_pool_connections", CONNECTIONS, "state", "idle", stats::getIdleConnections);
        metrics.gauge("boxoffice_db_pool_max_connections", "the database pool's size", stats::getMaxConnections);
        metrics.gauge("boxoffice_db_pool_pending_threads", "threads waiting for a database connection now",
                stats::getPendingThreads);
        Timer wait = metrics.timer("boxoffice_db_pool_wait", "how long a borrow of a database connection waited",
                WAIT_BUCKETS);
        return new IMetricsTracker() {
            @Override
            public void recordConnectionAcquiredNanos(long nanos) {
                wait.record(nanos, TimeUnit.NANOSECONDS);
            }

            @Override
            public void recordConnectionTimeout() {
                metrics.count(OpsMetrics.POOL_TIMEOUTS, null);
            }
        };
    }
}
