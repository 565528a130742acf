package org.boxoffice.domain;

/**
 * What the seat referee tells of its own work, for the operators' meters: its group commits (how
 * many transitions each applied and how long it took, which ones went one transition at a time)
 * and the account allowances it read for the grid's map loader. Counts since it was made.
 * Thread-safe.
 */
public interface RefereeStats {

    /** Batches committed, transitions in them and the largest batch. */
    GroupCommitStats groupCommitStats();

    /**
     * Tells {@code observer} about every group commit from now on: its transitions, the time it
     * took to apply and commit them, and how long each store in it took from its arrival at the
     * referee to its commit (for histograms). Called on a committer thread after the
     * commit, before the next batch is taken: it must be quick and must not throw.
     */
    void onBatch(BatchObserver observer);

    /** Allowance reads made so far: queries, and accounts read in them. */
    AllowanceReadStats allowanceReadStats();

    /** Hears of each group commit; see {@link #onBatch}. */
    @FunctionalInterface
    interface BatchObserver {
        /**
         * @param transitions the batch's transitions
         * @param nanos       the time to apply and commit them
         * @param storeNanos  per store in the batch (one block's change, one or more transitions): the
         *                    time from its arrival at the referee, waiting for the batch before its own, to the commit
         */
        void committed(int transitions, long nanos, long[] storeNanos);
    }

    /**
     * What the group commit achieved: {@code transitions / batches} is the average batch.
     *
     * @param oneByOne    batches of several transitions that PostgreSQL applied one at a time
     *                    because one of them was stale or already applied (the others stand)
     * @param commitNanos time spent applying and committing batches, summed over the batches
     */
    record GroupCommitStats(long batches, long transitions, long largestBatch, long oneByOne, long commitNanos) {
    }

    /** See {@link #allowanceReadStats()}: {@code accounts / queries} is the average batch. */
    record AllowanceReadStats(long queries, long accounts) {
    }
}
