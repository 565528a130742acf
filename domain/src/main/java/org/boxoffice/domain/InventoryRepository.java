package org.boxoffice.domain;

import java.util.List;
import java.util.Optional;

/**
 * The durable referee for seat inventory. Implemented on PostgreSQL; the grid calls it from its
 * write-through store, before a new block value is put in memory.
 */
public interface InventoryRepository {

    /**
     * Applies {@code next.transition()} in one transaction: the seat rows move only if they still
     * have the transition's expected versions; the hold row and one audit row per seat are written
     * with it. Applying a transition that is already applied (same target versions and owner) is a
     * no-op. Does nothing when {@code next} carries no transition.
     *
     * @throws StaleInventoryException if any seat row has moved on; nothing is written then
     */
    void apply(SeatBlock next);

    /** Rebuilds a block from the seat rows, or empty if the show has no such block. */
    Optional<SeatBlock> load(String showId, int blockId);

    /** The hold as recorded, or empty. */
    Optional<HoldRecord> findHold(String holdId);

    /** Blocks that still have seats HELD by a hold that lapsed before {@code lapsedBefore} (reconciliation). */
    List<BlockId> blocksWithHoldsLapsedBefore(long lapsedBefore);

    /** The seats an account has in a show: its ACTIVE holds and its bought seats. */
    AccountAllowance allowance(String showId, String accountId);

    /**
     * Per block of a show, the sum of its seats' versions (every transition raises the version of
     * each seat it moves): a block whose copy sums less is behind the referee.
     */
    java.util.Map<Integer, Long> versionSums(String showId);

    /** Every audited transition of one seat, oldest first. */
    java.util.List<SeatEvent> history(String showId, String seatId);

    /** A show's block. */
    record BlockId(String showId, int blockId) {
    }
}
