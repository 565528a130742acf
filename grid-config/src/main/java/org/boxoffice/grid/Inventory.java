package org.boxoffice.grid;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.StaleInventoryException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
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
    private final com.hazelcast.splitbrainprotection.SplitBrainProtection quorum;

    public Inventory(HazelcastInstance hz) {
        this.map = hz.getMap(GridMaps.INVENTORY);
        this.quorum = hz.getConfig().getSplitBrainProtectionConfigs().containsKey(GridMember.QUORUM)
                ? hz.getSplitBrainProtectionService().getSplitBrainProtection(GridMember.QUORUM) : null;
    }

    /** The outcome of a multi-block hold. */
    public sealed interface ClaimResult {
        record Held() implements ClaimResult {
        }

        /** @param seatsByBlock the seats (block indexes) that caused the rejection */
        record Rejected(Rejection reason, Map<Integer, int[]> seatsByBlock) implements ClaimResult {
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
     * Runs one command on one block. If the referee refuses the transition because the grid's copy
     * is stale, drops the copy (it reloads from the referee) and asks once more, so the decision is
     * made against the referee's state.
     */
    public BlockOutcome execute(Show show, int blockId, BlockCommand command) {
        BlockKey key = key(show, blockId);
        if (quorum != null && !quorum.hasMinimumSize()) {
            throw new InventoryUnavailableException("split brain protection: the grid is below its quorum of members; seat writes are refused", null);
        }
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

    /** Current values of the given blocks (copies), for snapshots. */
    public Map<BlockKey, SeatBlock> blocks(Show show) {
        Set<BlockKey> keys = new HashSet<>();
        for (int b = 0; b < show.layout().blocks().size(); b++) {
            keys.add(key(show, b));
        }
        return map.getAll(keys);
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
