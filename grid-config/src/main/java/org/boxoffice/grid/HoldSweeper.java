package org.boxoffice.grid;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.MapEvent;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryEvictedListener;
import com.hazelcast.map.listener.EntryExpiredListener;
import com.hazelcast.map.listener.EntryLoadedListener;
import com.hazelcast.map.listener.EntryMergedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import com.hazelcast.map.listener.MapClearedListener;
import com.hazelcast.map.listener.MapEvictedListener;
import com.hazelcast.partition.MigrationListener;
import com.hazelcast.partition.MigrationState;
import com.hazelcast.partition.ReplicaMigrationEvent;
import org.boxoffice.domain.HoldPolicy;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.Show;

import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Returns lapsed holds to sale without any request touching the show. Entry-expiry events can be
 * lost, so expiry never depends on them: every member sweeps the blocks it owns for holds past
 * expiry plus grace (an expire processor per block), and a slower reconciliation asks the referee
 * for HELD rows past their time, in case the grid lost or never loaded a block: those blocks are
 * expired, and reloaded first if the grid's copy disagrees.
 *
 * <p>Which blocks to sweep comes from a calendar: the earliest expiry of each block with holds, kept
 * from the changes to the blocks this member owns (a local listener: no event crosses the network).
 * A sweep then costs the blocks with holds, not the whole inventory. Listener events are best
 * effort, and a member that takes over partitions has no calendar for them, so a full scan of the
 * owned blocks (a local query) runs at the first sweep, every {@value #FULL_SCAN_MILLIS} ms, and at
 * the next sweep after partitions moved or a data member came or went.
 */
public final class HoldSweeper implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(HoldSweeper.class.getName());
    /** How often a sweep scans every owned block, whatever the calendar says. */
    static final long FULL_SCAN_MILLIS = 10_000;

    private final HazelcastInstance hz;
    private final IMap<BlockKey, SeatBlock> map;
    private final Seats seats;
    private final InventoryRepository repository;
    private final Function<String, Optional<Show>> shows;
    private final LongSupplier clock;
    private final ScheduledExecutorService timer;
    /** How long past expiry a HELD row must be before reconciliation steps in (the sweeper goes first). */
    private volatile long reconcileSlackMillis = 10_000;
    private volatile Admissions admissions;
    /** The earliest hold expiry of each block with holds this member owned when it last changed. */
    private final Map<BlockKey, Long> calendar = new ConcurrentHashMap<>();
    /** When the next sweep scans every owned block; 0: the next sweep does. */
    private volatile long nextFullScan;
    private UUID changes;
    private UUID migrations;
    private UUID members;
    private UUID lost;
    /** How often, after a data member left, the blocks this member owns are compared with the referee. */
    static final long REPAIR_EVERY_MILLIS = 2_000;
    /** The most comparisons after one loss (a cluster that stays unsafe longer is met by the next loss's or by claims). */
    static final int REPAIR_ROUNDS = 30;
    private final java.util.concurrent.atomic.AtomicLong repaired = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong fullScans = new java.util.concurrent.atomic.AtomicLong();

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
        changes = map.addLocalEntryListener(new Changes());
        migrations = hz.getPartitionService().addMigrationListener(new Migrations());
        members = Membership.onDataMemberChange(hz.getCluster(), this::scanAllNext);
        lost = hz.getCluster().addMembershipListener(new com.hazelcast.cluster.MembershipListener() {
            @Override
            public void memberAdded(com.hazelcast.cluster.MembershipEvent event) {
            }

            @Override
            public void memberRemoved(com.hazelcast.cluster.MembershipEvent event) {
                if (!event.getMember().isLiteMember()) {
                    // once its partitions have been taken over, and again in case that took longer
                    repairAfterLoss(0);
                }
            }
        });
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
        Set<BlockKey> lapsed;
        if (changes == null || now >= nextFullScan) {
            nextFullScan = now + FULL_SCAN_MILLIS;
            lapsed = scanAll(now);
        } else {
            lapsed = dueInCalendar(now);
        }
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
        if (admissions != null) {
            changed += admissions.sweepOnce(shows);
        }
        return changed;
    }

    /**
     * Sweeps general admission's stripes too: each sweep ends lapsed holds' parts in the stripes this
     * member owns, and each reconciliation those the referee still counts.
     */
    public HoldSweeper alsoAdmissions(Admissions admissions) {
        this.admissions = admissions;
        return this;
    }

    /**
     * Every owned block with holds, read into the calendar (which then knows the blocks that were
     * held before this member followed them or took them over); returns those lapsed at {@code now}.
     * A calendar entry already due that the scan did not find (a change it missed) is dropped.
     */
    private Set<BlockKey> scanAll(long now) {
        fullScans.incrementAndGet();
        Set<BlockKey> lapsed = new HashSet<>();
        Set<BlockKey> held = new HashSet<>();
        // a block's holds all lapse by the end of time: this selects the blocks with any hold
        Set<BlockKey> withHolds = map.localKeySet(new LapsedHoldsPredicate(Long.MAX_VALUE, 0));
        for (Map.Entry<BlockKey, SeatBlock> e : map.getAll(withHolds).entrySet()) {
            long expiry = e.getValue().nextExpiry();
            held.add(e.getKey());
            calendar.put(e.getKey(), expiry);
            if (HoldPolicy.lapsed(expiry, 0, now)) {
                lapsed.add(e.getKey());
            }
        }
        calendar.entrySet().removeIf(e -> !held.contains(e.getKey()) && HoldPolicy.lapsed(e.getValue(), 0, now));
        return lapsed;
    }

    /** The calendar's blocks whose earliest hold has lapsed (before any grace) and that this member still owns. */
    private Set<BlockKey> dueInCalendar(long now) {
        Set<BlockKey> due = new HashSet<>();
        for (Map.Entry<BlockKey, Long> e : calendar.entrySet()) {
            if (!HoldPolicy.lapsed(e.getValue(), 0, now)) {
                continue;
            }
            com.hazelcast.cluster.Member owner = hz.getPartitionService().getPartition(e.getKey()).getOwner();
            if (owner != null && owner.localMember()) {
                due.add(e.getKey());
            } else {
                calendar.remove(e.getKey(), e.getValue()); // moved away: its new owner sweeps it
            }
        }
        return due;
    }

    /** How many sweeps scanned every owned block so far. */
    long fullScans() {
        return fullScans.get();
    }

    /** The next sweep scans every owned block. */
    private void scanAllNext() {
        nextFullScan = 0;
    }

    private void noted(BlockKey key, SeatBlock block) {
        if (block == null || block.nextExpiry() == Long.MAX_VALUE) {
            calendar.remove(key);
        } else {
            calendar.put(key, block.nextExpiry());
        }
    }

    /** Changes to the blocks this member owns, into the calendar; a cleared or evicted map calls for a full scan. */
    private final class Changes implements EntryAddedListener<BlockKey, SeatBlock>, EntryUpdatedListener<BlockKey, SeatBlock>,
            EntryRemovedListener<BlockKey, SeatBlock>, EntryEvictedListener<BlockKey, SeatBlock>,
            EntryExpiredListener<BlockKey, SeatBlock>, EntryLoadedListener<BlockKey, SeatBlock>,
            EntryMergedListener<BlockKey, SeatBlock>, MapClearedListener, MapEvictedListener {

        @Override
        public void entryAdded(EntryEvent<BlockKey, SeatBlock> event) {
            noted(event.getKey(), event.getValue());
        }

        @Override
        public void entryUpdated(EntryEvent<BlockKey, SeatBlock> event) {
            noted(event.getKey(), event.getValue());
        }

        @Override
        public void entryRemoved(EntryEvent<BlockKey, SeatBlock> event) {
            noted(event.getKey(), null);
        }

        @Override
        public void entryEvicted(EntryEvent<BlockKey, SeatBlock> event) {
            noted(event.getKey(), null);
        }

        @Override
        public void entryExpired(EntryEvent<BlockKey, SeatBlock> event) {
            noted(event.getKey(), null);
        }

        @Override
        public void entryLoaded(EntryEvent<BlockKey, SeatBlock> event) {
            noted(event.getKey(), event.getValue());
        }

        @Override
        public void entryMerged(EntryEvent<BlockKey, SeatBlock> event) {
            noted(event.getKey(), event.getValue());
        }

        @Override
        public void mapCleared(MapEvent event) {
            scanAllNext();
        }

        @Override
        public void mapEvicted(MapEvent event) {
            scanAllNext();
        }
    }

    /** Partitions that moved (to or from this member) call for a full scan once they have. */
    private final class Migrations implements MigrationListener {

        @Override
        public void migrationStarted(MigrationState state) {
        }

        @Override
        public void migrationFinished(MigrationState state) {
            scanAllNext();
        }

        @Override
        public void replicaMigrationCompleted(ReplicaMigrationEvent event) {
        }

        @Override
        public void replicaMigrationFailed(ReplicaMigrationEvent event) {
        }
    }

    /** Expires blocks the referee says still hold lapsed seats, reloading any the grid disagrees on. */
    public int reconcileOnce() {
        long now = clock.getAsLong();
        int fixed = 0;
        Map<String, Show> showsOf = new java.util.LinkedHashMap<>();
        Map<String, java.util.List<Integer>> mine = new java.util.LinkedHashMap<>();
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
            showsOf.putIfAbsent(id.showId(), show.get());
            mine.computeIfAbsent(id.showId(), s -> new java.util.ArrayList<>()).add(id.blockId());
        }
        for (Map.Entry<String, java.util.List<Integer>> e : mine.entrySet()) {
            Show show = showsOf.get(e.getKey());
            // blocks not in memory (a show of before the cluster started) go onto their owners and
            // backups first, off the partition threads: expired cold, each backup would load its
            // block on its partition thread
            try {
                seats.preload(show, e.getValue());
            } catch (RuntimeException ex) {
                LOG.log(Level.FINE, "blocks of " + e.getKey() + " not preloaded before their reconciliation", ex);
            }
            for (int blockId : e.getValue()) {
                // a block copy with nothing to expire disagrees with the referee: Seats reloads it and asks again
                seats.expire(show, blockId, now, true);
                fixed++;
            }
        }
        if (admissions != null) {
            fixed += admissions.reconcileOnce(shows, now - reconcileSlackMillis);
        }
        return fixed;
    }

    /**
     * Compares the blocks this member owns with the referee {@value #REPAIR_EVERY_MILLIS} ms from now,
     * and again every as long until a comparison began with the cluster safe (every partition has
     * its owner and backups in sync: the lost member's partitions have been taken over, whoever took
     * them), at most {@value #REPAIR_ROUNDS} times.
     */
    private void repairAfterLoss(int round) {
        try {
            timer.schedule(() -> {
                boolean safe;
                try {
                    safe = hz.getPartitionService().isClusterSafe();
                } catch (RuntimeException e) {
                    safe = false;
                }
                guarded(this::repairBehindReferee);
                if (!safe && round + 1 < REPAIR_ROUNDS) {
                    repairAfterLoss(round + 1);
                }
            }, REPAIR_EVERY_MILLIS, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            // this member is shutting down
        }
    }

    /**
     * Drops the copies of the blocks this member owns that are behind the referee, so that they load
     * again from it; returns how many. A member lost after a block's write reached PostgreSQL and
     * before the write's backup reached another member leaves that backup, the block's owner now, one
     * write behind: its seats would show free on every seat map until a claim on them is refused as
     * stale (which reloads the block) or the hold lapses. Every transition raises the versions of the
     * seats it moves, so a copy whose versions sum less than the referee's rows is behind. A copy
     * that sums the same or more is left alone (a write in flight lands in the referee first, and a
     * dropped copy only costs a load). Runs after a data member left (graceful or not: a graceful
     * exit hands every write over, and the check then drops nothing), per show one query.
     */
    int repairBehindReferee() {
        Map<String, java.util.List<BlockKey>> byShow = new java.util.HashMap<>();
        for (BlockKey key : map.localKeySet()) {
            byShow.computeIfAbsent(key.showId(), s -> new java.util.ArrayList<>()).add(key);
        }
        int dropped = 0;
        for (Map.Entry<String, java.util.List<BlockKey>> e : byShow.entrySet()) {
            Map<Integer, Long> referee = repository.versionSums(e.getKey());
            Set<BlockKey> behind = new java.util.HashSet<>();
            for (Map.Entry<BlockKey, SeatBlock> copy : map.getAll(new java.util.HashSet<>(e.getValue())).entrySet()) {
                Long theirs = referee.get(copy.getKey().blockId());
                long ours = java.util.Arrays.stream(copy.getValue().versionArray()).asLongStream().sum();
                if (theirs != null && theirs > ours) {
                    map.evict(copy.getKey());
                    behind.add(copy.getKey());
                    dropped++;
                    LOG.info("block " + copy.getKey().blockId() + " of show " + e.getKey() + " was behind the referee after a"
                            + " member left (seat versions " + ours + " against " + theirs + "): loaded again from it");
                }
            }
            if (!behind.isEmpty()) {
                // onto the owner and its backups now, off the partition threads (as a preload does)
                map.loadAll(behind, false);
            }
        }
        repaired.addAndGet(dropped);
        return dropped;
    }

    /** Blocks dropped so far because they were behind the referee after a member left (tests, metrics). */
    public long repairedBehindReferee() {
        return repaired.get();
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
        try {
            if (changes != null) {
                map.removeEntryListener(changes);
                hz.getPartitionService().removeMigrationListener(migrations);
                hz.getCluster().removeMembershipListener(members);
                hz.getCluster().removeMembershipListener(lost);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "could not stop following the inventory (member shutting down?)", e);
        }
    }
}
