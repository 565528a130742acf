package org.boxoffice.grid;

import org.boxoffice.domain.Rejection;

/**
 * What a {@link BlockCommandProcessor} did to one block.
 *
 * @param result   CHANGED (stored durably, then in memory), UNCHANGED, REJECTED or MISSING (no such block)
 * @param reason   the rejection reason, or null
 * @param seats    the seats the outcome is about (the changed ones, or the ones that caused a rejection)
 * @param revision the block's revision after the command
 */
public record BlockOutcome(Result result, Rejection reason, int[] seats, long revision) {

    public enum Result { CHANGED, UNCHANGED, REJECTED, MISSING }

    public boolean applied() {
        return result == Result.CHANGED || result == Result.UNCHANGED;
    }
}
