package org.boxoffice.grid;

import com.hazelcast.cluster.Cluster;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.EntryProcessor;
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
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.StaleInventoryException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.UUID;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Seat transitions on the grid: every change runs as a {@link BlockCommandProcessor} on the
 * partition owning the block and is written through to the referee before it is visible.
 *
 * <p>Thread-safe; callers block until the referee has answered. A hold spanning several blocks is
 * claimed block by block in ascending order and reported held only when every block is; if one
 * block refuses, the blocks already claimed are released again before the caller hears "no".
 */
public final class Inventory {

    private static final Logger LOG = Logger.getLogger(Inventory.class.getName());

    private final IMap<BlockKey, SeatBlock> map;
    private final Cluster cluster;
    private final com.hazelcast.splitbrainprotection.SplitBrainProtection quorum;
    /** Per block being claimed from this member now: its claims in flight and waiting (see {@link #claim}). */
    /** Claims one call on a block carries at most (the referee's transaction stays small). */
    private static final int MAX_CLAIMS = 16;
    /** Claims on a block queued while a call on it is in flight go together in the next (see {@link #claim}). */
    private final ClaimLanes<BlockKey, BlockCommand.Hold, BlockOutcome> lanes = new ClaimLanes<>(() -> MAX_CLAIMS,
            e -> new InventoryUnavailableException("claims on a block failed: " + e, e));
    private final LongAdder claimCalls = new LongAdder();
    private final LongAdder claimsSent = new LongAdder();

    public Inventory(HazelcastInstance hz) {
        this(hz, GridMaps.INVENTORY);
    }

    /** Seat blocks kept in the map {@code mapName} (a member's rehearsal uses a map of its own, with no referee). */
    public Inventory(HazelcastInstance hz, String mapName) {
        this.map = hz.getMap(mapName);
        this.cluster = hz.getCluster();
        this.quorum = hz.getConfig().getSplitBrainProtectionConfigs().containsKey(GridMaps.QUORUM)
                ? hz.getSplitBrainProtectionService().getSplitBrainProtection(GridMaps.QUORUM) : null;
    }

    /** The outcome of a multi-block hold. */
    public sealed interface ClaimResult {
        record Held() implements ClaimResult {
        }

        /** @param seatsByBlock the seats (block indexes) that caused the rejection */
        record Rejected(Rejection reason, Map<Integer, int[]> seatsByBlock) implements ClaimResult {
        }
    }

    /**
     * Puts every block of {@code show} in memory with all its seats available. Only for a rehearsal
     * map ({@link GridMaps#REHEARSAL_PREFIX}): blocks of the inventory come from the referee.
     */
    public void putFresh(Show show) {
        if (!map.getName().startsWith(GridMaps.REHEARSAL_PREFIX)) {
            throw new IllegalStateException("fresh blocks are put in a rehearsal map only, not in " + map.getName());
        }
        Map<BlockKey, SeatBlock> blocks = new java.util.HashMap<>();
        for (org.boxoffice.domain.ShowLayout.Block b : show.layout().blocks()) {
            blocks.put(key(show, b.blockId()), SeatBlock.fresh(show.showId(), b.blockId(), b.size()));
        }
        map.setAll(blocks);
    }

    /**
     * Loads every block of {@code show} that is not in memory yet from the referee, onto its owner
     * and onto its backups, and waits until they are there. Without it the owner loads a block at
     * its first read, but the backup only at the first change, when the backup's copy of the block
     * processor finds nothing and Hazelcast loads the block synchronously, on that member's
     * partition thread: at an on-sale's first claims, every block stopped a partition thread of
     * another member for a read of PostgreSQL. A block already in memory is kept as it is (a claim
     * that got there first is never replaced by an older read). With one data member there are no
     * backups, and the owner's loads at the first reads are offloaded: nothing is done.
     *
     * @return whether blocks were loaded (false with one data member)
     */
    public boolean preload(Show show) {
        return preload(show, show.layout().blocks().stream().map(org.boxoffice.domain.ShowLayout.Block::blockId).toList());
    }

    /** As {@link #preload(Show)}, for some blocks of {@code show}. */
    public boolean preload(Show show, Collection<Integer> blockIds) {
        if (blockIds.isEmpty() || map.getName().startsWith(GridMaps.REHEARSAL_PREFIX)
                || cluster.getMembers().stream().filter(m -> !m.isLiteMember()).count() < 2) {
            return false;
        }
        Set<BlockKey> keys = new HashSet<>();
        for (int b : blockIds) {
            keys.add(key(show, b));
        }
        try {
            map.loadAll(keys, false);
            return true;
        } catch (RuntimeException e) {
            throw new InventoryUnavailableException("inventory of show " + show.showId() + " cannot be loaded now: " + e.getMessage(), e);
        }
    }

    public static BlockKey key(Show show, int blockId) {
        return BlockKey.of(show.showId(), blockId, show.blockGroups());
    }

    /**
     * Holds every seat of {@code seatsByBlock} for {@code holdId}, or none.
     *
     * @throws InventoryUnavailableException if the referee cannot be reached (nothing is held then,
     *                                       except seats whose compensation also failed: they carry
     *                                       the hold's expiry and return to sale with it)
     */
    public ClaimResult hold(Show show, String holdId, String accountId, SortedMap<Integer, int[]> seatsByBlock,
                            long expiresAt, long now, String[] holdSeatIds) {
        List<Integer> claimed = new ArrayList<>();
        try {
            for (Map.Entry<Integer, int[]> e : seatsByBlock.entrySet()) {
                BlockOutcome outcome = claim(show, e.getKey(), new BlockCommand.Hold(holdId, accountId, e.getValue(),
                        expiresAt, now, show.policy().graceMillis(), holdSeatIds));
                if (!outcome.applied()) {
                    rollBack(show, holdId, claimed, now);
                    Rejection reason = outcome.result() == BlockOutcome.Result.MISSING ? Rejection.UNKNOWN_SEAT : outcome.reason();
                    return new ClaimResult.Rejected(reason, Map.of(e.getKey(), outcome.seats()));
                }
                claimed.add(e.getKey());
            }
            return new ClaimResult.Held();
        } catch (RuntimeException e) {
            rollBack(show, holdId, claimed, now);
            throw e;
        }
    }

    private void rollBack(Show show, String holdId, List<Integer> blocks, long now) {
        for (int blockId : blocks) {
            try {
                execute(show, blockId, new BlockCommand.Release(holdId, now, "system", "partial hold rolled back"));
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "could not roll back block " + blockId + " of hold " + holdId
                        + "; its seats return to sale when the hold expires", e);
            }
        }
    }

    /** Runs {@code command} on every block of {@code blockIds}; returns the outcomes by block. */
    public Map<Integer, BlockOutcome> executeAll(Show show, Set<Integer> blockIds, java.util.function.IntFunction<BlockCommand> command) {
        Map<Integer, BlockOutcome> out = new LinkedHashMap<>();
        for (int blockId : new java.util.TreeSet<>(blockIds)) {
            out.put(blockId, execute(show, blockId, command.apply(blockId)));
        }
        return out;
    }

    /**
     * Throws unless this member sees its quorum of members (split-brain protection): seat writes
     * are refused below it, and so is anything that would need one to finish, such as a charge.
     */
    public void requireQuorum() {
        if (quorum != null && !quorum.hasMinimumSize()) {
            throw new InventoryUnavailableException("split brain protection: the grid is below its quorum of members; seat writes are refused", null);
        }
    }

    /**
     * Runs one command on one block. If the referee refuses the transition because the grid's copy
     * is stale, drops the copy (it reloads from the referee) and asks once more, so the decision is
     * made against the referee's state.
     */
    public BlockOutcome execute(Show show, int blockId, BlockCommand command) {
        BlockKey key = key(show, blockId);
        requireQuorum();
        return onKey(key, new BlockCommandProcessor(command),
                () -> new BlockOutcome(BlockOutcome.Result.REJECTED, Rejection.SEATS_UNAVAILABLE, new int[0], 0));
    }

    /**
     * Runs {@code processor} on the block {@code key}; if the referee refuses its transitions as
     * stale, drops the copy (it reloads from the referee) and asks once more; if refused again,
     * drops the copy and answers {@code staleTwice}.
     */
    private <R> R onKey(BlockKey key, EntryProcessor<BlockKey, SeatBlock, R> processor, Supplier<R> staleTwice) {
        try {
            return map.executeOnKey(key, processor);
        } catch (RuntimeException first) {
            if (!isStale(first)) {
                throw unavailable(key, first);
            }
            LOG.info(() -> "referee refused a transition on " + key + ": reloading the block");
            map.evict(key);
            try {
                return map.executeOnKey(key, processor);
            } catch (RuntimeException second) {
                if (isStale(second)) {
                    map.evict(key);
                    return staleTwice.get();
                }
                throw unavailable(key, second);
            }
        }
    }

    /**
     * Claims seats of one block for a new hold. Claims on a block are decided one at a time, each
     * waiting for its durable store, so under an on-sale's rush the claims on a popular block queue
     * behind one another, each for a whole round trip to the referee. So a member sends one call per
     * block at a time: claims that arrive while it is in flight wait together, and the next call
     * carries all of them ({@link BlockClaimsProcessor}: decided in arrival order, stored in one
     * transaction). The claim that opens a call runs it on its own thread; before it answers, it
     * hands the block to the first of the claims that queued meanwhile.
     */
    private BlockOutcome claim(Show show, int blockId, BlockCommand.Hold hold) {
        BlockKey key = key(show, blockId);
        requireQuorum();
        return lanes.claim(key, hold, this::runClaims);
    }

    /** One call on the block for {@code holds}: their outcomes, in order. */
    private List<BlockOutcome> runClaims(BlockKey key, List<BlockCommand.Hold> holds) {
        List<BlockOutcome> outcomes = holds.size() == 1
                ? List.of(onKey(key, new BlockCommandProcessor(holds.get(0)), Inventory::staleClaim))
                : onKey(key, new BlockClaimsProcessor(holds),
                        () -> new ArrayList<>(java.util.Collections.nCopies(holds.size(), staleClaim())));
        claimCalls.increment();
        claimsSent.add(holds.size());
        return outcomes;
    }

    private static BlockOutcome staleClaim() {
        return new BlockOutcome(BlockOutcome.Result.REJECTED, Rejection.SEATS_UNAVAILABLE, new int[0], 0);
    }

    /** Claims of this member waiting for the call in flight on a block to return (for tests and diagnostics). */
    int claimsWaiting(Show show, int blockId) {
        return lanes.waiting(key(show, blockId));
    }

    /** Claims sent to the grid so far, and the calls that carried them: their ratio is how many a call combined. */
    public record ClaimStats(long calls, long claims) {
    }

    public ClaimStats claimStats() {
        return new ClaimStats(claimCalls.sum(), claimsSent.sum());
    }

    /** Current values of all blocks of {@code show} (copies), for snapshots. */
    public Map<BlockKey, SeatBlock> blocks(Show show) {
        return blocks(show, java.util.stream.IntStream.range(0, show.layout().blocks().size()).boxed().toList());
    }

    /**
     * Current values of some blocks of {@code show} (copies), in one call; a block that neither
     * the grid nor the referee knows is absent from the answer.
     *
     * @throws InventoryUnavailableException if the grid cannot answer now: for a moment after a
     *                                       member leaves, partitions it owned are still being
     *                                       promoted and loaded, and Hazelcast refuses to read them
     */
    public Map<BlockKey, SeatBlock> blocks(Show show, Collection<Integer> blockIds) {
        Set<BlockKey> keys = new HashSet<>();
        for (int b : blockIds) {
            keys.add(key(show, b));
        }
        try {
            return map.getAll(keys);
        } catch (RuntimeException e) {
            throw e instanceof InventoryUnavailableException u ? u
                    : new InventoryUnavailableException("inventory of show " + show.showId() + " cannot be read now: " + e.getMessage(), e);
        }
    }

    /** Stops the calls of an {@link #onChanges} subscription. */
    public interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Calls {@code changed} with the key of every block written, loaded, evicted or removed on any
     * member, and its new value (null when it went away), and {@code missed} when changes may have
     * gone unheard: the map was cleared or evicted as a whole (after a split-brain merge), or a
     * data member joined or left (events in flight from a lost member are gone, and partitions
     * move; a lite member's arrival or departure moves nothing).
     * The events carry the values, so a listener can apply a change the moment it hears of it,
     * without reading the block back from its owner.
     *
     * <p>Both run on Hazelcast's event threads: they must return quickly and never call the grid.
     * Delivery is best effort and may lag the change; whoever must converge also re-reads now and
     * then.
     */
    public Subscription onChanges(BiConsumer<BlockKey, SeatBlock> changed, Runnable missed) {
        UUID entries = map.addEntryListener(new BlockChanges(changed, missed), true);
        UUID members = Membership.onDataMemberChange(cluster, missed);
        return () -> {
            try {
                map.removeEntryListener(entries);
                cluster.removeMembershipListener(members);
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "could not stop listening to inventory changes (member shutting down?)", e);
            }
        };
    }

    /** Every kind of entry event means "this block's value may differ now": here is the new one (or null). */
    private record BlockChanges(BiConsumer<BlockKey, SeatBlock> changed, Runnable missed) implements
            EntryAddedListener<BlockKey, SeatBlock>, EntryUpdatedListener<BlockKey, SeatBlock>,
            EntryRemovedListener<BlockKey, SeatBlock>, EntryEvictedListener<BlockKey, SeatBlock>,
            EntryExpiredListener<BlockKey, SeatBlock>, EntryLoadedListener<BlockKey, SeatBlock>,
            EntryMergedListener<BlockKey, SeatBlock>, MapClearedListener, MapEvictedListener {

        @Override
        public void entryAdded(EntryEvent<BlockKey, SeatBlock> event) {
            changed.accept(event.getKey(), event.getValue());
        }

        @Override
        public void entryUpdated(EntryEvent<BlockKey, SeatBlock> event) {
            changed.accept(event.getKey(), event.getValue());
        }

        @Override
        public void entryRemoved(EntryEvent<BlockKey, SeatBlock> event) {
            changed.accept(event.getKey(), null);
        }

        @Override
        public void entryEvicted(EntryEvent<BlockKey, SeatBlock> event) {
            changed.accept(event.getKey(), null);
        }

        @Override
        public void entryExpired(EntryEvent<BlockKey, SeatBlock> event) {
            changed.accept(event.getKey(), null);
        }

        @Override
        public void entryLoaded(EntryEvent<BlockKey, SeatBlock> event) {
            changed.accept(event.getKey(), event.getValue());
        }

        @Override
        public void entryMerged(EntryEvent<BlockKey, SeatBlock> event) {
            changed.accept(event.getKey(), event.getValue());
        }

        @Override
        public void mapCleared(MapEvent event) {
            missed.run();
        }

        @Override
        public void mapEvicted(MapEvent event) {
            missed.run();
        }
    }

    /** Drops the grid's copy of a block; the next access reloads it from the referee. */
    public void evict(Show show, int blockId) {
        map.evict(key(show, blockId));
    }

    IMap<BlockKey, SeatBlock> map() {
        return map;
    }

    static boolean isStale(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof StaleInventoryException) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    private static InventoryUnavailableException unavailable(BlockKey key, RuntimeException e) {
        if (e instanceof InventoryUnavailableException u) {
            return u;
        }
        return new InventoryUnavailableException("inventory block " + key + " cannot be written now: " + e.getMessage(), e);
    }
}
