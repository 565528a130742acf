package org.boxoffice.grid;

import com.hazelcast.query.Predicate;
import org.boxoffice.domain.SeatBlock;

import java.util.Map;

/** Selects blocks with at least one hold whose expiry plus grace has passed at {@code now}. */
public record LapsedHoldsPredicate(long now, long graceMillis) implements Predicate<BlockKey, SeatBlock> {

    @Override
    public boolean apply(Map.Entry<BlockKey, SeatBlock> entry) {
        SeatBlock block = entry.getValue();
        return block != null && block.nextExpiry() != Long.MAX_VALUE && org.boxoffice.domain.HoldPolicy.lapsed(block.nextExpiry(), graceMillis, now);
    }
}
