package org.boxoffice.mapstore;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.boxoffice.domain.RefereeStats;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.StaleInventoryException;
import org.boxoffice.domain.Transition;

/**
 * The referee's group commit: the write-through stores of many partitions, each waiting on its own
 * thread, share one round trip and one commit.
 *
 * <p>A caller of {@link #apply} queues its store (the transitions one block value carries: one, or
 * several when the grid combined claims on a block) and waits. Each committer thread (one is best,
 * see {@code PostgresInventoryRepository}) takes whatever is queued (up to {@code maxBatch}
 * transitions), applies it in one statement and one transaction, and only then wakes the callers,
 * each with its own outcome: so "a store returned" still means "its transitions are durable in
 * PostgreSQL", as with one transaction per store. A stale store is refused on its own ({@link
 * StaleInventoryException}) and never fails its neighbours; a store is all or none, so a batch
 * that would keep part of one is rolled back and its stores applied one by one. If the batch
 * statement fails for another reason, the batch is applied again one store at a time so that
 * each caller hears about its own store only.
 *
 * <p>Under no load a batch is one transition and costs what a direct call costs, plus a hand-over
 * between threads; under load the batch grows with the stores in flight (at most one per
 * partition: Hazelcast runs a partition's operations one at a time) and the commits per transition
 * fall. Thread-safe. The committer threads are daemons, started on first use, stopped by {@link #close}.
 */
final class GroupCommit implements AutoCloseable {

    /** One transition of one block: what the referee applies. */
    record Step(String showId, int blockId, Transition transition) {
        static List<Step> of(SeatBlock next) {
            return next.transitions().stream().map(t -> new Step(next.showId(), next.blockId(), t)).toList();
        }
    }

    /** Applies transitions to PostgreSQL: one alone, or many in one statement. */
    interface Referee {
        /** Applies one transition in its own transaction (throws as {@code InventoryRepository.apply} does). */
        void applyOne(Step step);

        /**
         * Applies many in one statement and one transaction; per transition, the seats moved (0: it
         * was already applied) or -1 if it was stale (rolled back alone). With {@code keep}, the
         * transaction is committed only if {@code keep} accepts the results; otherwise it is rolled
         * back and null returned.
         */
        int[] applyMany(List<Step> steps, Predicate<int[]> keep) throws SQLException;
    }

    private static final Logger LOG = Logger.getLogger(GroupCommit.class.getName());

    /**
     * One store: the transitions of one block value (several when the grid combined claims), applied
     * all or none.
     */
    private record Pending(SeatBlock next, List<Step> steps, CompletableFuture<Void> done, long queuedAt) {
        /** Whether {@code results} (this store's, in order) keep some transitions and refuse others as stale. */
        boolean split(int[] results, int from) {
            boolean stale = false;
            boolean kept = false;
            for (int i = from; i < from + steps.size(); i++) {
                stale |= results[i] < 0;
                kept |= results[i] >= 0;
            }
            return stale && kept;
        }
    }

    private final Referee referee;
    private final int committers;
    private final int maxBatch;
    private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final LongAdder batches = new LongAdder();
    private final LongAdder transitions = new LongAdder();
    private final LongAccumulator largest = new LongAccumulator(Math::max, 0);
    private final LongAdder commitNanos = new LongAdder();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean started;
    private volatile boolean closed;
    private volatile RefereeStats.BatchObserver observer = (size, nanos, stores) -> { };

    GroupCommit(Referee referee, int committers, int maxBatch) {
        if (committers < 1 || maxBatch < 1) {
            throw new IllegalArgumentException("committers and maxBatch must be positive");
        }
        this.referee = referee;
        this.committers = committers;
        this.maxBatch = maxBatch;
    }

    /** Applies {@code next}'s transition together with whatever else is in flight; returns once it is durable. */
    void apply(SeatBlock next) {
        if (closed) {
            throw new DatabaseException("the referee is closed", null);
        }
        start();
        Pending pending = new Pending(next, Step.of(next), new CompletableFuture<>(), System.nanoTime());
        // if interrupted, the transition may still be applied: the grid then finds it applied, or stale, and reloads
        Handover.queueAndWait(queue, pending, pending.done(), () -> closed, () -> "applying " + next.transition());
    }

    /** What group commit achieved so far: batches committed, transitions in them, the largest batch, time spent. */
    record Stats(long batches, long transitions, long largestBatch, long commitNanos) {
        public double averageBatch() {
            return batches == 0 ? 0 : (double) transitions / batches;
        }
    }

    Stats stats() {
        return new Stats(batches.sum(), transitions.sum(), largest.get(), commitNanos.sum());
    }

    /** Tells {@code observer} of every batch committed from now on, on the committer thread (metrics). */
    void onBatch(RefereeStats.BatchObserver observer) {
        this.observer = observer;
    }

    private void start() {
        if (started) {
            return;
        }
        synchronized (threads) {
            if (started || closed) {
                return;
            }
            for (int i = 0; i < committers; i++) {
                Thread t = new Thread(this::commitLoop, "referee-group-commit-" + i);
                t.setDaemon(true);
                t.start();
                threads.add(t);
            }
            started = true;
        }
    }

    private void commitLoop() {
        List<Pending> batch = new ArrayList<>(maxBatch);
        while (!closed) {
            try {
                Pending first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                int steps = first.steps().size();
                // at most maxBatch transitions, unless one store alone has more
                for (Pending more; steps < maxBatch && (more = queue.peek()) != null
                        && steps + more.steps().size() <= maxBatch && queue.remove(more); ) {
                    batch.add(more);
                    steps += more.steps().size();
                }
                long start = System.nanoTime();
                commit(batch);
                long end = System.nanoTime();
                long nanos = end - start;
                commitNanos.add(nanos);
                long[] storeNanos = new long[batch.size()];
                for (int i = 0; i < storeNanos.length; i++) {
                    storeNanos[i] = end - batch.get(i).queuedAt();
                }
                observer.committed(steps, nanos, storeNanos);
            } catch (InterruptedException e) {
                if (closed) {
                    break;
                }
            } catch (RuntimeException | Error e) {
                // commit() completes every pending it took; this is only a last guard for the thread
                LOG.log(Level.SEVERE, "group commit failed unexpectedly", e);
                batch.forEach(p -> p.done().completeExceptionally(new DatabaseException("group commit failed", e)));
            } finally {
                batch.clear();
            }
        }
    }

    private void commit(List<Pending> batch) {
        List<Step> steps = new ArrayList<>();
        boolean grouped = false;
        for (Pending p : batch) {
            steps.addAll(p.steps());
            grouped |= p.steps().size() > 1;
        }
        batches.increment();
        transitions.add(steps.size());
        largest.accumulate(steps.size());
        if (batch.size() == 1) {
            applyAlone(batch.get(0));
            return;
        }
        int[] results;
        try {
            // a store of several transitions is all or none: a batch that would keep part of one is undone
            results = referee.applyMany(steps, grouped ? r -> noneSplit(batch, r) : null);
        } catch (SQLException e) {
            if (e.getSQLState() != null && e.getSQLState().startsWith("08")) {
                // the connection failed: every transition's fate is unknown alike
                DatabaseException failure = new DatabaseException("applying a batch of " + steps.size() + " transitions", e);
                batch.forEach(p -> p.done().completeExceptionally(failure));
                return;
            }
            LOG.log(Level.FINE, "batch of " + steps.size() + " failed; applying its stores one by one", e);
            batch.forEach(this::applyAlone);
            return;
        } catch (RuntimeException e) {
            batch.forEach(p -> p.done().completeExceptionally(e));
            return;
        }
        if (results == null) {
            LOG.log(Level.FINE, "a batch of " + steps.size() + " transitions would split a store; applying its stores one by one");
            batch.forEach(this::applyAlone);
            return;
        }
        int from = 0;
        for (Pending p : batch) {
            finish(p, results, from);
            from += p.steps().size();
        }
    }

    private static boolean noneSplit(List<Pending> batch, int[] results) {
        int from = 0;
        for (Pending p : batch) {
            if (p.split(results, from)) {
                return false;
            }
            from += p.steps().size();
        }
        return true;
    }

    /** Completes {@code p} from its results (at {@code from}): applied if none is stale. */
    private static void finish(Pending p, int[] results, int from) {
        for (int i = from; i < from + p.steps().size(); i++) {
            if (results[i] < 0) {
                refuse(p, p.steps().get(i - from));
                return;
            }
        }
        p.done().complete(null);
    }

    private static void refuse(Pending p, Step stale) {
        p.done().completeExceptionally(new StaleInventoryException(stale.showId() + "/" + stale.blockId()
                + ": " + stale.transition() + " refused: the seat rows moved on"));
    }

    /** One store in its own transaction: a lone transition, or a store's several all or none. */
    private void applyAlone(Pending p) {
        try {
            if (p.steps().size() == 1) {
                referee.applyOne(p.steps().get(0));
                p.done().complete(null);
                return;
            }
            int[] results = referee.applyMany(p.steps(), r -> Arrays.stream(r).allMatch(moved -> moved >= 0));
            if (results == null) {
                refuse(p, p.steps().get(0)); // rolled back: some transition of the store was stale
            } else {
                finish(p, results, 0);
            }
        } catch (SQLException e) {
            p.done().completeExceptionally(new DatabaseException("applying " + p.steps().size() + " transitions of "
                    + p.next().showId() + "/" + p.next().blockId(), e));
        } catch (RuntimeException e) {
            p.done().completeExceptionally(e);
        }
    }

    /** Stops the committers; transitions still queued are failed (their stores fail, memory is unchanged). */
    @Override
    public void close() {
        closed = true;
        synchronized (threads) {
            threads.forEach(Thread::interrupt);
            for (Thread t : threads) {
                try {
                    t.join(5_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        Pending left;
        while ((left = queue.poll()) != null) {
            left.done().completeExceptionally(new DatabaseException("the referee closed before applying "
                    + left.steps(), null));
        }
    }
}
