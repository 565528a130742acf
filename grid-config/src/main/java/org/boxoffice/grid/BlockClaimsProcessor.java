package org.boxoffice.grid;

import com.hazelcast.map.EntryProcessor;
import org.boxoffice.domain.BlockDecision;
import org.boxoffice.domain.SeatBlock;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Several claims on one inventory block, decided one after another in one pass and stored together:
 * what a member sends for the claims on a block that queued while its previous call on the block
 * was in flight (see {@code Inventory}).
 *
 * <p>Each claim is decided on the value the claims before it left, exactly as if each had been its
 * own {@link BlockCommandProcessor}: a claim on seats an earlier claim of the pass took is refused.
 * The new value carries every transition of the pass (see {@link SeatBlock#after}), so the
 * write-through store applies them in one transaction and the pass is durable, or fails, as a
 * whole: if the store fails, memory keeps the old value and every claim of the pass fails with it.
 * Deterministic, like {@link BlockCommandProcessor}: a backup re-running it reaches the same value.
 *
 * @param claims the claims, in the order they are decided
 */
public record BlockClaimsProcessor(List<BlockCommand.Hold> claims)
        implements EntryProcessor<BlockKey, SeatBlock, ArrayList<BlockOutcome>> {

    public BlockClaimsProcessor {
        claims = List.copyOf(claims);
    }

    /** Per claim, in order: CHANGED (held), UNCHANGED, REJECTED with its seats, or MISSING for every claim. */
    @Override
    public ArrayList<BlockOutcome> process(Map.Entry<BlockKey, SeatBlock> entry) {
        SeatBlock current = entry.getValue();
        ArrayList<BlockOutcome> outcomes = new ArrayList<>(claims.size());
        if (current == null) {
            claims.forEach(c -> outcomes.add(new BlockOutcome(BlockOutcome.Result.MISSING, null, new int[0], 0)));
            return outcomes;
        }
        SeatBlock next = null;
        for (BlockCommand.Hold claim : claims) {
            SeatBlock on = next == null ? current : next;
            switch (claim.decide(on)) {
                case BlockDecision.Changed changed -> {
                    next = next == null ? changed.next() : changed.next().after(next);
                    outcomes.add(new BlockOutcome(BlockOutcome.Result.CHANGED, null,
                            changed.next().transition().seats(), next.revision()));
                }
                case BlockDecision.Unchanged u -> outcomes.add(new BlockOutcome(BlockOutcome.Result.UNCHANGED, null,
                        new int[0], on.revision()));
                case BlockDecision.Rejected r -> outcomes.add(new BlockOutcome(BlockOutcome.Result.REJECTED, r.reason(),
                        r.seats(), on.revision()));
            }
        }
        if (next != null) {
            entry.setValue(next);
        }
        return outcomes;
    }
}
