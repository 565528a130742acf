package org.boxoffice.domain;

/**
 * The outcome of asking a {@link SeatBlock} for a transition: a new block value to store, no
 * change (the request was already applied, or there was nothing to do), or a business rejection.
 */
public sealed interface BlockDecision {

    record Changed(SeatBlock next) implements BlockDecision {
    }

    record Unchanged() implements BlockDecision {
    }

    /**
     * @param reason why
     * @param seats  the seat indexes (in the block) that caused it, e.g. the seats already taken
     */
    record Rejected(Rejection reason, int[] seats) implements BlockDecision {
    }
}
