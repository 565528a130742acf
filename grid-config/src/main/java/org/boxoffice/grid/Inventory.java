package org.boxoffice.grid;

import com.hazelcast.cluster.Cluster;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
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
import java.util.function.Consumer;
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

    /** Drops this inventory's map from the cluster; only for a rehearsal map. */
    public void destroy() {
        if (!map.getName().startsWith(GridMaps.REHEARSAL_PREFIX)) {
            throw new IllegalStateException("only a rehearsal map is destroyed, not " + map.getName());
        }
        map.destroy();
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
                BlockOutcome outcome = execute(show, e.getKey(), new BlockCommand.Hold(holdId, accountId, e.getValue(),
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
        BlockCommandProcessor processor = new BlockCommandProcessor(command);
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
                    return new BlockOutcome(BlockOutcome.Result.REJECTED, Rejection.SEATS_UNAVAILABLE, new int[0], 0);
                }
                throw unavailable(key, second);
            }
        }
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
     * member, and {@code missed} when changes may have gone unheard: the map was cleared or
     * evicted as a whole (after a split-brain merge), or a member joined or left (events in flight
     * from a lost member are gone, and partitions move). Events carry no values.
     *
     * <p>Both run on Hazelcast's event threads: they must return quickly and never call the grid.
     * Delivery is best effort and may lag the change; whoever must converge also re-reads now and
     * then.
     */
    public Subscription onChanges(Consumer<BlockKey> changed, Runnable missed) {
        UUID entries = map.addEntryListener(new BlockChanges(changed, missed), false);
        UUID members = cluster.addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                missed.run();
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                missed.run();
            }
        });
        return () -> {
            try {
                map.removeEntryListener(entries);
                cluster.removeMembershipListener(members);
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "could not stop listening to inventory changes (member shutting down?)", e);
            }
        };
    }

    /** Every kind of entry event means "this block's value may differ now". */
    private record BlockChanges(Consumer<BlockKey> changed, Runnable missed) implements
            EntryAddedListener<BlockKey, SeatBlock>, EntryUpdatedListener<BlockKey, SeatBlock>,
            EntryRemovedListener<BlockKey, SeatBlock>, EntryEvictedListener<BlockKey, SeatBlock>,
            EntryExpiredListener<BlockKey, SeatBlock>, EntryLoadedListener<BlockKey, SeatBlock>,
            EntryMergedListener<BlockKey, SeatBlock>, MapClearedListener, MapEvictedListener {

        @Override
        public void entryAdded(EntryEvent<BlockKey, SeatBlock> event) {
            changed.accept(event.getKey());
        }

        @Override
        public void entryUpdated(EntryEvent<BlockKey, SeatBlock> event) {
            changed.accept(event.getKey());
        }

        @Override
        public void entryRemoved(EntryEvent<BlockKey, SeatBlock> event) {
            changed.accept(event.getKey());
        }

        @Override
        public void entryEvicted(EntryEvent<BlockKey, SeatBlock> event) {
            changed.accept(event.getKey());
        }

        @Override
        public void entryExpired(EntryEvent<BlockKey, SeatBlock> event) {
            changed.accept(event.getKey());
        }

        @Override
        public void entryLoaded(EntryEvent<BlockKey, SeatBlock> event) {
            changed.accept(event.getKey());
        }

        @Override
        public void entryMerged(EntryEvent<BlockKey, SeatBlock> event) {
            changed.accept(event.getKey());
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
