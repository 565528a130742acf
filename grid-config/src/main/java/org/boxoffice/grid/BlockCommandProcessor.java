package org.boxoffice.grid;

import com.hazelcast.map.EntryProcessor;
import org.boxoffice.domain.BlockDecision;
import org.boxoffice.domain.SeatBlock;

import java.util.Map;

/**
 * Runs one {@link BlockCommand} against an inventory block, on the partition that owns it.
 *
 * <p>Thin and deterministic: read the value, ask the domain, {@code setValue} a new immutable
 * value only if it changed, return the outcome. The stored object is never mutated, so when the
 * write-through store refuses the new value (the referee found the seat rows moved) memory keeps
 * the old one. Backups re-run this same processor with the same fields and reach the same value.
 */
public record BlockCommandProcessor(BlockCommand command) implements EntryProcessor<BlockKey, SeatBlock, BlockOutcome> {

    @Override
    public BlockOutcome process(Map.Entry<BlockKey, SeatBlock> entry) {
        SeatBlock current = entry.getValue();
        if (current == null) {
            return new BlockOutcome(BlockOutcome.Result.MISSING, null, new int[0], 0);
        }
        return switch (command.decide(current)) {
            case BlockDecision.Changed changed -> {
                entry.setValue(changed.next());
                yield new BlockOutcome(BlockOutcome.Result.CHANGED, null, changed.next().transition().seats(),
                        changed.next().revision());
            }
            case BlockDecision.Unchanged u -> new BlockOutcome(BlockOutcome.Result.UNCHANGED, null, new int[0],
                    current.revision());
            case BlockDecision.Rejected r -> new BlockOutcome(BlockOutcome.Result.REJECTED, r.reason(), r.seats(),
                    current.revision());
        };
    }
}
