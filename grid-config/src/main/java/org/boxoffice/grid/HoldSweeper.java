package org.boxoffice.grid;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.Show;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Returns lapsed holds to sale without any request touching the show. Entry-expiry events can be
 * lost, so expiry never depends on them: every member sweeps the blocks it owns for holds past
 * expiry plus grace (a local query, then an expire processor per block), and a slower
 * reconciliation asks the referee for HELD rows past their time, in case the grid lost or never
 * loaded a block: those blocks are expired, and reloaded first if the grid's copy disagrees.
 */
public final class HoldSweeper implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(HoldSweeper.class.getName());

    private final HazelcastInstance hz;
    private final IMap<BlockKey, SeatBlock> map;
    private final Seats seats;
    private final InventoryRepository repository;
    private final Function<String, Optional<Show>> shows;
    private final LongSupplier clock;
    private final ScheduledExecutorService timer;
    /** How long past expiry a HELD row must be before reconciliation steps in (the sweeper goes first). */
    private volatile long reconcileSlackMillis = 10_000;

    public HoldSweeper(HazelcastInstance hz, Seats seats, InventoryRepository repository,
                       Function<String, Optional<Show>> shows, LongSupplier clock) {
        this.hz = hz;
        this.map = hz.getMap(GridMaps.INVENTORY);
        this.seats = seats;
        this.repository = repository;
        this.shows = shows;
        this.clock = clock;
        this.timer = Daemons.scheduler("hold-sweeper");
    }

    /** Starts sweeping every {@code sweepMillis} and reconciling every {@code reconcileMillis}. */
    public HoldSweeper start(long sweepMillis, long reconcileMillis) {
        timer.scheduleWithFixedDelay(() -> guarded(this::sweepOnce), sweepMillis, sweepMillis, TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(() -> guarded(this::reconcileOnce), reconcileMillis, reconcileMillis,
                TimeUnit.MILLISECONDS);
        return this;
    }

    /** Sets how far past its expiry a HELD row must be before reconciliation handles it (must exceed any grace). */
    public HoldSweeper reconcileSlack(long millis) {
        this.reconcileSlackMillis = millis;
        return this;
    }

    /**
     * Finishes releases whose seat step failed on this member ({@link Seats#finishReleases}), then
     * expires lapsed holds in the blocks this member owns; returns how many blocks expiry changed.
     */
    public int sweepOnce() {
        long now = clock.getAsLong();
        seats.finishReleases(now);
        Set<BlockKey> lapsed = map.localKeySet(new LapsedHoldsPredicate(now, 0));
        int changed = 0;
        for (BlockKey key : lapsed) {
            Optional<Show> show = shows.apply(key.showId());
            if (show.isEmpty()) {
                continue;
            }
            if (seats.expire(show.get(), key.blockId(), now, false)) {
                changed++;
            }
        }
        return changed;
    }

    /** Expires blocks the referee says still hold lapsed seats, reloading any the grid disagrees on. */
    public int reconcileOnce() {
        long now = clock.getAsLong();
        int fixed = 0;
        for (InventoryRepository.BlockId id : repository.blocksWithHoldsLapsedBefore(now - reconcileSlackMillis)) {
            Optional<Show> show = shows.apply(id.showId());
            if (show.isEmpty()) {
                continue;
            }
            BlockKey key = Inventory.key(show.get(), id.blockId());
            com.hazelcast.cluster.Member owner = hz.getPartitionService().getPartition(key).getOwner();
            if (owner == null || !owner.localMember()) {
                continue; // another member's block, or the partition is being assigned: next round
            }
            // a block copy with nothing to expire disagrees with the referee: Seats reloads it and asks again
            seats.expire(show.get(), id.blockId(), now, true);
            fixed++;
        }
        return fixed;
    }

    private void guarded(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "hold sweep failed; trying again on the next tick", e);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
