package org.boxoffice.grid;

import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.Show;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

/**
 * The one place that changes seats: holds, releases, extends, confirms, cancels, blocks. Each
 * operation is the whole sequence the product needs, in its order: the account's allowance, the
 * block processors in ascending block order (each written through to the referee before it is
 * acknowledged), the rollback when a later block refuses, and this member's seat-map snapshot
 * updated with what changed. Callers ask for a business operation and get its outcome as a value;
 * none of them touches the allowances, the block processors or the snapshots.
 *
 * <p>Thread-safe; every call blocks until the referee has answered. Technical failures (grid below
 * its quorum, referee unreachable) are {@link InventoryUnavailableException}s; business refusals
 * are values.
 */
public final class Seats {

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(Seats.class.getName());

    private final Inventory inventory;
    private final Allowances allowances;
    private final ShowSnapshots snapshots;
    /** Releases the referee decided whose seat step failed, by hold: {@link #finishReleases} does them. */
    private final Map<String, DecidedRelease> unfinished = new java.util.concurrent.ConcurrentHashMap<>();

    private record DecidedRelease(Show show, String holdId, String accountId, Set<Integer> blocks, String actor,
                                  String reason) {
    }

    private final StageTimer stages;

    /**
     * Where a claim's time goes, stage by stage: {@value #ALLOWANCE} (the account's allowance
     * reserved), {@value #TOKEN} (waiting for the caller's permit, its rate limit, after that) and
     * {@value #CLAIM} (the blocks' processors, each written through to the referee). For a
     * member's metrics; called on the claiming thread, so it must not block.
     */
    @FunctionalInterface
    public interface StageTimer {
        StageTimer NONE = (stage, nanos) -> { };

        void took(String stage, long nanos);
    }

    public static final String ALLOWANCE = "allowance";
    public static final String TOKEN = "token";
    public static final String CLAIM = "claim";

    public Seats(Inventory inventory, Allowances allowances, ShowSnapshots snapshots) {
        this(inventory, allowances, snapshots, StageTimer.NONE);
    }

    public Seats(Inventory inventory, Allowances allowances, ShowSnapshots snapshots, StageTimer stages) {
        this.inventory = inventory;
        this.allowances = allowances;
        this.snapshots = snapshots;
        this.stages = stages;
    }

    /**
     * Throws {@link InventoryUnavailableException} unless this member may change seats now (it sees
     * its quorum of members). For a caller about to do something that only a seat change can finish:
     * a checkout asks before it charges, so that a member cut off from its quorum takes no money it
     * cannot turn into a booking.
     */
    public void requireWritable() {
        inventory.requireQuorum();
    }

    /** The outcome of claiming seats for a new hold. */
    public sealed interface Claim {
        /** Every seat is held for the hold, durably. */
        record Held() implements Claim {
        }

        /** The account may take only {@code remaining} more seats of this show; nothing was claimed. */
        record OverLimit(int remaining) implements Claim {
        }

        /**
         * A block refused; nothing stays claimed. {@code takenByBlock}: the seats that caused the
         * refusal, by block (empty arrays when the block did not say).
         */
        record Refused(Rejection reason, Map<Integer, int[]> takenByBlock) implements Claim {
        }
    }

    /**
     * Claims {@code seatsByBlock} for a new hold of {@code accountId}, all or nothing: reserves the
     * account's allowance, holds block by block, rolls back on a refusal, and records the outcome
     * in the snapshot (held seats, or the seats found taken). For claims the product makes itself
     * (a settlement's reclaim, a waitlist offer): the grid decides whatever this member's map shows.
     */
    public Claim hold(Show show, String holdId, String accountId, SortedMap<Integer, int[]> seatsByBlock, long expiresAt,
                      long now, String[] holdSeatIds) {
        seatsByBlock.forEach((block, seats) -> snapshots.record(show, block, seats, SeatState.Status.HELD));
        return claim(show, holdId, accountId, seatsByBlock, expiresAt, now, holdSeatIds, NO_PERMIT);
    }

    private static final Runnable NO_PERMIT = () -> { };

    /**
     * A buyer's claim: as {@link #hold}, but refused at once, with nothing claimed and no grid call,
     * if this member's map shows one of the seats taken. The check and the marking of the seats on
     * the map are one step, so of two requests on this member for a seat, the second is refused
     * here while the first is still in flight, instead of reserving its allowance, queueing behind
     * the first on the block's partition and losing there. The map is advisory (the block
     * processors decide, across members too); it only spares the grid claims that cannot win.
     */
    public Claim holdIfFree(Show show, String holdId, String accountId, SortedMap<Integer, int[]> seatsByBlock,
                            long expiresAt, long now, String[] holdSeatIds) {
        return holdIfFree(show, holdId, accountId, seatsByBlock, expiresAt, now, holdSeatIds, NO_PERMIT);
    }

    /**
     * As {@link #holdIfFree(Show, String, String, SortedMap, long, long, String[])}, with {@code permit}
     * run after the allowance is reserved and before any block is claimed: a permit that throws (the
     * caller's rate limit, answered meanwhile) stops the claim, the reservation is given back and the
     * exception goes on to the caller.
     */
    public Claim holdIfFree(Show show, String holdId, String accountId, SortedMap<Integer, int[]> seatsByBlock,
                            long expiresAt, long now, String[] holdSeatIds, Runnable permit) {
        if (!snapshots.markHeldIfFree(show, seatsByBlock)) {
            return new Claim.Refused(Rejection.SEATS_UNAVAILABLE, Map.of());
        }
        return claim(show, holdId, accountId, seatsByBlock, expiresAt, now, holdSeatIds, permit);
    }

    /**
     * The claim proper, with the seats already marked held on this member's map: while it is in
     * flight, requests for them that reach this member are refused by the map instead of queueing
     * behind it on the block's partition (the map is advisory: the processor decides, and the
     * next refresh repaints the blocks from the grid). Every way out that claims nothing puts the
     * seats back.
     */
    private Claim claim(Show show, String holdId, String accountId, SortedMap<Integer, int[]> seatsByBlock,
                        long expiresAt, long now, String[] holdSeatIds, Runnable permit) {
        int seatCount = 0;
        for (int[] seats : seatsByBlock.values()) {
            seatCount += seats.length;
        }
        Inventory.ClaimResult result;
        long t0 = System.nanoTime();
        try {
            int remaining = allowances.reserve(show.showId(), accountId, holdId, seatCount, expiresAt, now,
                    show.policy().graceMillis(), show.policy().maxPerAccount());
            stages.took(ALLOWANCE, System.nanoTime() - t0);
            if (remaining >= 0) {
                unmark(show, seatsByBlock, Map.of());
                return new Claim.OverLimit(remaining);
            }
        } catch (RuntimeException e) {
            unmark(show, seatsByBlock, Map.of());
            throw e;
        }
        try {
            long t1 = System.nanoTime();
            permit.run();
            long t2 = System.nanoTime();
            stages.took(TOKEN, t2 - t1);
            result = inventory.hold(show, holdId, accountId, seatsByBlock, expiresAt, now, holdSeatIds);
            stages.took(CLAIM, System.nanoTime() - t2);
        } catch (RuntimeException e) {
            allowances.release(show.showId(), accountId, holdId);
            unmark(show, seatsByBlock, Map.of());
            throw e;
        }
        return switch (result) {
            case Inventory.ClaimResult.Held held -> {
                // recorded again now that the blocks answered: a refresh that began after the mark
                // above but read a block before its claim had landed would otherwise publish the
                // seats as free until the block's change event arrives
                seatsByBlock.forEach((block, seats) -> snapshots.record(show, block, seats, SeatState.Status.HELD));
                yield new Claim.Held();
            }
            case Inventory.ClaimResult.Rejected rejected -> {
                allowances.release(show.showId(), accountId, holdId);
                Map<Integer, int[]> taken = rejected.reason() == Rejection.SEATS_UNAVAILABLE ? rejected.seatsByBlock() : Map.of();
                unmark(show, seatsByBlock, taken);
                yield new Claim.Refused(rejected.reason(), rejected.seatsByBlock());
            }
        };
    }

    /** Puts back on this member's map the seats of a claim that did not happen, but those found {@code taken}. */
    private void unmark(Show show, SortedMap<Integer, int[]> claimed, Map<Integer, int[]> taken) {
        claimed.forEach((block, seats) -> {
            int[] takenHere = taken.getOrDefault(block, new int[0]);
            int[] free = java.util.Arrays.stream(seats)
                    .filter(seat -> java.util.Arrays.stream(takenHere).noneMatch(t -> t == seat)).toArray();
            if (free.length > 0) {
                snapshots.record(show, block, free, SeatState.Status.AVAILABLE);
            }
        });
    }

    /** Loads blocks of {@code show} onto their owners and backups ahead of their changes: {@link Inventory#preload(Show, java.util.Collection)}. */
    public boolean preload(Show show, java.util.Collection<Integer> blockIds) {
        return inventory.preload(show, blockIds);
    }

    /**
     * Releases what hold {@code holdId} of {@code accountId} still holds in {@code blocks}, gives its
     * allowance back, and puts the freed seats on this member's map.
     *
     * @param knownActive the referee calls the hold ACTIVE: a block copy that does not know it may be
     *                    stale (for a moment after a split heals), so that copy is dropped, reloaded
     *                    from PostgreSQL and asked again
     * @return the outcome per block
     */
    public Map<Integer, BlockOutcome> release(Show show, String holdId, String accountId, Set<Integer> blocks, long now,
                                              String actor, String reason, boolean knownActive) {
        Map<Integer, BlockOutcome> outcomes = new LinkedHashMap<>(inventory.executeAll(show, blocks,
                block -> new BlockCommand.Release(holdId, now, actor, reason)));
        if (knownActive) {
            for (Map.Entry<Integer, BlockOutcome> e : outcomes.entrySet()) {
                if (e.getValue().result() == BlockOutcome.Result.UNCHANGED) {
                    inventory.evict(show, e.getKey());
                    e.setValue(inventory.execute(show, e.getKey(), new BlockCommand.Release(holdId, now, actor, reason)));
                }
            }
        }
        recordChanged(show, outcomes, SeatState.Status.AVAILABLE);
        allowances.release(show.showId(), accountId, holdId);
        return outcomes;
    }

    /**
     * Releases a hold the referee has already marked RELEASED (the buyer's decision, durable there):
     * the seats go back as {@link #release} with {@code knownActive} does. If the seat step fails
     * (the grid fell below its quorum between the referee's commit and this step, say), the release
     * is kept and {@link #finishReleases} does it once the grid can, so the seats do not wait for the
     * hold's expiry. Kept on this member only: if it dies first, the hold's expiry frees the seats.
     *
     * @return true if the seats went back now, false if the release waits for {@link #finishReleases}
     */
    public boolean releaseDecided(Show show, String holdId, String accountId, Set<Integer> blocks, long now,
                                  String actor, String reason) {
        DecidedRelease decided = new DecidedRelease(show, holdId, accountId, Set.copyOf(blocks), actor, reason);
        unfinished.put(holdId, decided);
        try {
            finish(decided, now);
            return true;
        } catch (RuntimeException e) {
            LOG.log(java.util.logging.Level.WARNING, "hold " + holdId + " is released, but its seats cannot go back "
                    + "this moment; they go back as soon as the grid can: " + e.getMessage());
            return false;
        }
    }

    /** Finishes the decided releases whose seat step failed earlier; returns how many are still waiting. */
    public int finishReleases(long now) {
        if (unfinished.isEmpty()) {
            return 0;
        }
        try {
            inventory.requireQuorum();
            for (DecidedRelease decided : List.copyOf(unfinished.values())) {
                finish(decided, now);
            }
        } catch (RuntimeException e) {
            LOG.fine(() -> unfinished.size() + " released holds' seats still wait for the grid: " + e.getMessage());
        }
        return unfinished.size();
    }

    private void finish(DecidedRelease d, long now) {
        release(d.show(), d.holdId(), d.accountId(), d.blocks(), now, d.actor(), d.reason(), true);
        unfinished.remove(d.holdId(), d);
    }

    /**
     * Extends a hold to {@code expiresAt} in every block and in the allowance. If any block no longer
     * holds it (it lapsed), nothing is extended, the hold is released everywhere, and false is returned.
     */
    public boolean extend(Show show, String holdId, String accountId, Set<Integer> blocks, long expiresAt, long now,
                          String actor, String reasonIfLapsed) {
        long grace = show.policy().graceMillis();
        Map<Integer, BlockOutcome> outcomes = inventory.executeAll(show, blocks,
                block -> new BlockCommand.Extend(holdId, expiresAt, now, grace));
        if (outcomes.values().stream().allMatch(BlockOutcome::applied)) {
            allowances.extend(show.showId(), accountId, holdId, expiresAt);
            return true;
        }
        release(show, holdId, accountId, blocks, now, actor, reasonIfLapsed, false);
        return false;
    }

    /**
     * Sells the seats hold {@code holdId} holds, block by block, to booking {@code bookingId}; blocks
     * already in {@code confirmed} are skipped and every block confirmed now is added to it, so a
     * caller can resume or undo. Returns null if every block is confirmed, else the first refusal.
     * {@link #sold} completes a sale once every block is confirmed.
     */
    public Rejection confirm(Show show, String holdId, SortedMap<Integer, int[]> seatsByBlock, long bookingId, long now,
                             List<Integer> confirmed) {
        long grace = show.policy().graceMillis();
        for (Map.Entry<Integer, int[]> e : seatsByBlock.entrySet()) {
            if (confirmed.contains(e.getKey())) {
                continue;
            }
            BlockOutcome outcome = inventory.execute(show, e.getKey(),
                    new BlockCommand.Confirm(holdId, e.getValue(), bookingId, now, grace));
            if (!outcome.applied()) {
                return outcome.reason() == null ? Rejection.HOLD_NOT_FOUND : outcome.reason();
            }
            confirmed.add(e.getKey());
        }
        return null;
    }

    /** A confirmed sale: the hold's allowance counts as bought, and the seats show as sold on this member's map. */
    public void sold(Show show, String accountId, String holdId, SortedMap<Integer, int[]> seatsByBlock) {
        allowances.confirm(show.showId(), accountId, holdId);
        seatsByBlock.forEach((block, seats) -> snapshots.record(show, block, seats, SeatState.Status.SOLD));
    }

    /**
     * Puts booking {@code bookingId}'s seats in {@code blocks} back on sale (a cancelled or refused
     * sale); with {@code accountId}, the account's allowance gives the seats back too.
     *
     * @return how many seats went back on sale
     */
    public int cancelSale(Show show, long bookingId, String accountId, Set<Integer> blocks, long now, String actor,
                          String reason) {
        Map<Integer, BlockOutcome> outcomes = inventory.executeAll(show, blocks,
                block -> new BlockCommand.Cancel(bookingId, now, actor, reason));
        int released = recordChanged(show, outcomes, SeatState.Status.AVAILABLE);
        if (released > 0 && accountId != null) {
            allowances.cancelSale(show.showId(), accountId, released);
        }
        return released;
    }

    /**
     * Returns the lapsed holds of one block to sale (the sweeper's and the reconciliation's work)
     * and puts the freed seats on this member's map. With {@code reloadIfUnchanged} (the referee
     * says the block still holds lapsed seats), a block copy that finds nothing to expire is
     * dropped, reloaded from PostgreSQL and asked again.
     *
     * @return whether seats went back on sale
     */
    public boolean expire(Show show, int blockId, long now, boolean reloadIfUnchanged) {
        BlockCommand.Expire command = new BlockCommand.Expire(now, show.policy().graceMillis());
        BlockOutcome outcome = inventory.execute(show, blockId, command);
        if (outcome.result() != BlockOutcome.Result.CHANGED && reloadIfUnchanged) {
            LOG.warning(() -> "grid and referee disagree on " + show.showId() + "/" + blockId + ": reloading it from the referee");
            inventory.evict(show, blockId);
            outcome = inventory.execute(show, blockId, command);
        }
        return recordChanged(show, Map.of(blockId, outcome), SeatState.Status.AVAILABLE) > 0;
    }

    /** Blocks or unblocks seats (admin); the outcome per block, in ascending order, stopping at a refusal. */
    public Map<Integer, BlockOutcome> block(Show show, SortedMap<Integer, int[]> seatsByBlock, boolean block, long now,
                                            String actor, String reason) {
        Map<Integer, BlockOutcome> outcomes = new LinkedHashMap<>();
        for (Map.Entry<Integer, int[]> e : seatsByBlock.entrySet()) {
            BlockCommand command = block ? new BlockCommand.Block(e.getValue(), now, actor, reason)
                    : new BlockCommand.Unblock(e.getValue(), now, actor, reason);
            BlockOutcome outcome = inventory.execute(show, e.getKey(), command);
            outcomes.put(e.getKey(), outcome);
            if (outcome.result() == BlockOutcome.Result.REJECTED) {
                break;
            }
        }
        recordChanged(show, outcomes, block ? SeatState.Status.BLOCKED : SeatState.Status.AVAILABLE);
        return outcomes;
    }

    /** Writes the changed blocks' seats into this member's snapshot; returns how many seats changed. */
    private int recordChanged(Show show, Map<Integer, BlockOutcome> outcomes, SeatState.Status status) {
        int changed = 0;
        for (Map.Entry<Integer, BlockOutcome> e : outcomes.entrySet()) {
            if (e.getValue().result() == BlockOutcome.Result.CHANGED) {
                snapshots.record(show, e.getKey(), e.getValue().seats(), status, e.getValue().revision());
                changed += e.getValue().seats().length;
            }
        }
        return changed;
    }
}
