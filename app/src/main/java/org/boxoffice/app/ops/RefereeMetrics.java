package org.boxoffice.app.ops;

import io.helidon.metrics.api.DistributionSummary;
import io.helidon.metrics.api.Timer;
import org.boxoffice.domain.RefereeStats;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The referee's meters: PostgreSQL as the member uses it. Its group commits
 * ({@code boxoffice_referee_*}), the allowance reads of the map loader, the connection pool
 * ({@code boxoffice_db_pool_*}, {@link PoolMetrics}) and the schema version. The only place that
 * registers a {@code boxoffice_referee_} meter (AppArchitectureTest).
 */
public final class RefereeMetrics {

    private static final Duration[] COMMIT_BUCKETS = {
        Duration.ofNanos(250_000), Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(2),
        Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
        Duration.ofMillis(250), Duration.ofSeconds(1)
    };

    /**
     * The batch sizes a store's time is told by ({@code batch} tag of {@code boxoffice_referee_store}):
     * the upper bound of each class, and its label.
     */
    private static final int[] BATCH_CLASS_MAX = {1, 4, 16, Integer.MAX_VALUE};
    static final java.util.List<String> BATCH_CLASSES = java.util.List.of("1", "2-4", "5-16", "17+");

    private RefereeMetrics() {
    }

    /** The {@code batch} tag of a batch of {@code transitions}. */
    static int batchClass(int transitions) {
        int c = 0;
        while (transitions > BATCH_CLASS_MAX[c]) {
            c++;
        }
        return c;
    }

    /**
     * Meters {@code referee} and the pool it writes through; call once, before the grid member starts.
     *
     * @param schemaVersion the latest database migration applied (Flyway's version)
     */
    public static void register(RefereeStats referee, DataSource dataSource, double schemaVersion, OpsMetrics metrics) {
        DistributionSummary batches = metrics.histogram("boxoffice_referee_batch_size", "seat transitions per group "
                + "commit of the referee (_count: commits, _sum: transitions)", 1, 2, 4, 8, 16, 32, 48);
        Timer commits = metrics.timer("boxoffice_referee_commit", "time to apply and commit one group commit of the "
                + "referee", COMMIT_BUCKETS);
        Timer[] stores = new Timer[BATCH_CLASSES.size()];
        for (int c = 0; c < stores.length; c++) {
            stores[c] = metrics.timer("boxoffice_referee_store", "time from a store's arrival at the referee (one "
                    + "block's change) to its commit, waiting for the batch before its own included, by the size of the "
                    + "batch it went in (batch: transitions)", "batch", BATCH_CLASSES.get(c), COMMIT_BUCKETS);
        }
        referee.onBatch((transitions, nanos, storeNanos) -> {
            batches.record(transitions);
            commits.record(nanos, TimeUnit.NANOSECONDS);
            Timer store = stores[batchClass(transitions)];
            for (long n : storeNanos) {
                store.record(n, TimeUnit.NANOSECONDS);
            }
        });
        metrics.counter("boxoffice_referee_one_by_one_batches", "group commits PostgreSQL applied one transition at a "
                + "time (one of them was stale or already applied)", () -> referee.groupCommitStats().oneByOne());
        metrics.counter("boxoffice_referee_allowance_queries", "queries reading accounts' allowances for the map "
                + "loader (reads asked for at once share one)", () -> referee.allowanceReadStats().queries());
        metrics.counter("boxoffice_referee_allowance_accounts", "accounts whose allowance the map loader read",
                () -> referee.allowanceReadStats().accounts());
        PoolMetrics.meter(dataSource, metrics);
        metrics.gauge("boxoffice_schema_version", "the latest database migration applied (Flyway version)", () -> schemaVersion);
    }
}
