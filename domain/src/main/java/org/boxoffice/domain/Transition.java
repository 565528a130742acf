package org.boxoffice.domain;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What one change of a {@link SeatBlock} did, carried by the new block value so that the
 * write-through store can apply exactly that change to PostgreSQL: the seats (indexes in the
 * block), the versions they must still have there, their old states, and the common target.
 * Every seat of one transition moves to the same {@code newStatus}.
 *
 * @param kind             what happened
 * @param at               when (epoch millis, decided by the caller, never read from a clock here)
 * @param actor            who asked (account id, {@code system:sweeper}, {@code admin:...})
 * @param reason           why, for the audit trail
 * @param seats            seat indexes inside the block, ascending
 * @param expectedVersions the versions the seats have before the change (the referee's predicate)
 * @param oldStatuses      the statuses before the change
 * @param oldHoldIds       per seat, the hold that held it before (null where none)
 * @param newStatus        the status every seat has after the change
 * @param holdId           the hold that now holds the seats (HOLD, EXTEND, CONFIRM) or null
 * @param accountId        the account of that hold, or null
 * @param expiresAt        the hold's expiry (HOLD, EXTEND) or 0
 * @param bookingId        the booking that now owns the seats (CONFIRM) or that is cancelled, or 0
 * @param holdSeatIds      for HOLD, every seat id of the whole hold (it may span blocks), else empty
 */
public record Transition(Kind kind, long at, String actor, String reason,
                         int[] seats, int[] expectedVersions, SeatState.Status[] oldStatuses,
                         String[] oldHoldIds, SeatState.Status newStatus,
                         String holdId, String accountId, long expiresAt, long bookingId,
                         String[] holdSeatIds) {

    public enum Kind { HOLD, RELEASE, EXPIRE, CONFIRM, EXTEND, CANCEL, BLOCK, UNBLOCK }

    /** The distinct holds this transition ended (released, expired, or displaced after lapsing). */
    public Set<String> endedHoldIds() {
        Set<String> ended = new LinkedHashSet<>();
        if (kind == Kind.EXTEND || kind == Kind.CONFIRM) {
            return ended;
        }
        for (String id : oldHoldIds) {
            if (id != null && !id.equals(holdId)) {
                ended.add(id);
            }
        }
        return ended;
    }

    /** The versions the seats have after the change. */
    public int[] newVersions() {
        int[] next = expectedVersions.clone();
        for (int i = 0; i < next.length; i++) {
            next[i]++;
        }
        return next;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Transition t && kind == t.kind && at == t.at && actor.equals(t.actor)
                && reason.equals(t.reason) && Arrays.equals(seats, t.seats)
                && Arrays.equals(expectedVersions, t.expectedVersions)
                && Arrays.equals(oldStatuses, t.oldStatuses) && Arrays.equals(oldHoldIds, t.oldHoldIds)
                && newStatus == t.newStatus && java.util.Objects.equals(holdId, t.holdId)
                && java.util.Objects.equals(accountId, t.accountId) && expiresAt == t.expiresAt
                && bookingId == t.bookingId && Arrays.equals(holdSeatIds, t.holdSeatIds);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(kind, at, holdId, bookingId, Arrays.hashCode(seats));
    }

    @Override
    public String toString() {
        return kind + " " + Arrays.toString(seats) + " v" + Arrays.toString(expectedVersions)
                + " -> " + newStatus + (holdId == null ? "" : " hold=" + holdId)
                + (bookingId == 0 ? "" : " booking=" + bookingId) + " by " + actor + " (" + reason + ")";
    }
}
