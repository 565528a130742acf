package org.boxoffice.grid.member;

import org.boxoffice.grid.Daemons;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.partition.PartitionLostEvent;
import com.hazelcast.partition.PartitionLostListener;
import org.boxoffice.grid.GridMaps;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Loads the catalog's listings again when a partition lost them. The listings map is a copy of
 * PostgreSQL's catalog, loaded in full when the map is first used. When more members leave at once
 * than the map keeps backups, the partitions they held with all their copies come back empty, and
 * nothing reloads them: a listing is asked for by key only when it is already known, and search
 * reads what the map holds. So those events would be missing from search until the cluster
 * restarts. On such a loss this member loads every listing again (keys already held are left as
 * they are), once for a burst of lost partitions: they are reported one by one.
 *
 * <p>Seat blocks and allowances need nothing of the kind: they are asked for by key, and a missing
 * one loads from the referee on its next use.
 */
final class CatalogRefill implements PartitionLostListener {

    private static final Logger LOG = Logger.getLogger(CatalogRefill.class.getName());
    /** Partition losses are reported one by one; the refill waits this long to take them together. */
    static final long SETTLE_MILLIS = 1_000;

    private final HazelcastInstance hz;
    private final int backupCount;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final AtomicLong refills = new AtomicLong();
    private final ScheduledExecutorService executor = Daemons.scheduler("catalog-refill");

    CatalogRefill(HazelcastInstance hz, int backupCount) {
        this.hz = hz;
        this.backupCount = backupCount;
    }

    /**
     * Runs on Hazelcast's event thread: only schedules. {@code getLostBackupCount()} is the highest
     * copy lost (0: the owner only), so a map with that many backups or fewer lost the partition.
     */
    @Override
    public void partitionLost(PartitionLostEvent event) {
        if (event.getLostBackupCount() < backupCount || !scheduled.compareAndSet(false, true)) {
            return;
        }
        try {
            executor.schedule(this::refill, SETTLE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            scheduled.set(false);   // shutting down
        }
    }

    private void refill() {
        scheduled.set(false);
        if (!hz.getLifecycleService().isRunning()) {
            return;
        }
        try {
            hz.getMap(GridMaps.CATALOG_EVENTS).loadAll(false);
            refills.incrementAndGet();
            LOG.info("partitions were lost with all their backups: the catalog's listings were loaded again");
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not load the catalog's listings again after a partition loss;"
                    + " events in lost partitions are missing from search until the next refill or restart", e);
        }
    }

    /** How many refills ran (for tests). */
    long refills() {
        return refills.get();
    }

    void close() {
        executor.shutdownNow();
    }
}
