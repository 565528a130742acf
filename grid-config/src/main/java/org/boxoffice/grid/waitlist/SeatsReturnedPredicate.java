package org.boxoffice.grid.waitlist;

import com.hazelcast.query.Predicate;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.Transition;
import org.boxoffice.grid.BlockKey;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Selects inventory updates that put seats back on sale: a release, an expiry, a cancellation or
 * an unblock, whoever made it (buyer, sweeper, checkout, settlement, admin). Evaluated on the
 * partition thread for every update of a block, so it only reads the new value's transition.
 */
public record SeatsReturnedPredicate() implements Predicate<BlockKey, SeatBlock> {

    private static final Set<Transition.Kind> RETURNS = EnumSet.of(Transition.Kind.RELEASE, Transition.Kind.EXPIRE,
            Transition.Kind.CANCEL, Transition.Kind.UNBLOCK);

    @Override
    public boolean apply(Map.Entry<BlockKey, SeatBlock> entry) {
        SeatBlock block = entry.getValue();
        return block != null && block.transition() != null && RETURNS.contains(block.transition().kind());
    }
}
