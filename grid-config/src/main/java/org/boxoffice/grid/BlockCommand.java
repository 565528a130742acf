package org.boxoffice.grid;

import org.boxoffice.domain.BlockDecision;
import org.boxoffice.domain.SeatBlock;

/**
 * A transition asked of one inventory block. Carries everything the decision needs (time, ids,
 * limits) so that the primary and every backup replica reach the same new value.
 */
public sealed interface BlockCommand {

    /** Asks the domain; never changes {@code block}. */
    BlockDecision decide(SeatBlock block);

    record Hold(String holdId, String accountId, int[] seats, long expiresAt, long now, long graceMillis,
                String[] holdSeatIds) implements BlockCommand {
        @Override
        public BlockDecision decide(SeatBlock block) {
            return block.hold(holdId, accountId, seats, expiresAt, now, graceMillis, holdSeatIds);
        }
    }

    record Release(String holdId, long now, String actor, String reason) implements BlockCommand {
        @Override
        public BlockDecision decide(SeatBlock block) {
            return block.release(holdId, now, actor, reason);
        }
    }

    record Expire(long now, long graceMillis) implements BlockCommand {
        @Override
        public BlockDecision decide(SeatBlock block) {
            return block.expire(now, graceMillis);
        }
    }

    record Extend(String holdId, long newExpiresAt, long now, long graceMillis) implements BlockCommand {
        @Override
        public BlockDecision decide(SeatBlock block) {
            return block.extend(holdId, newExpiresAt, now, graceMillis);
        }
    }

    record Confirm(String holdId, int[] seats, long bookingId, long now, long graceMillis) implements BlockCommand {
        @Override
        public BlockDecision decide(SeatBlock block) {
            return block.confirm(holdId, seats, bookingId, now, graceMillis);
        }
    }

    record Cancel(long bookingId, long now, String actor, String reason) implements BlockCommand {
        @Override
        public BlockDecision decide(SeatBlock block) {
            return block.cancel(bookingId, now, actor, reason);
        }
    }

    record Block(int[] seats, long now, String actor, String reason) implements BlockCommand {
        @Override
        public BlockDecision decide(SeatBlock block) {
            return block.block(seats, now, actor, reason);
        }
    }

    record Unblock(int[] seats, long now, String actor, String reason) implements BlockCommand {
        @Override
        public BlockDecision decide(SeatBlock block) {
            return block.unblock(seats, now, actor, reason);
        }
    }
}
