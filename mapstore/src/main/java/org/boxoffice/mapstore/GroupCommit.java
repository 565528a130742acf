package org.boxoffice.mapstore;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.StaleInventoryException;

/**
 * The referee's group commit: the write-through stores of many partitions, each waiting on its own
 * thread, share one round trip and one commit.
 *
 * <p>A caller of {@link #apply} queues its transition and waits. Each committer thread (one is best,
 * see {@code PostgresInventoryRepository}) takes whatever is queued (up to {@code maxBatch}), applies it in one statement and one
 * transaction, and only then wakes the callers, each with its own outcome: so "a store returned"
 * still means "its transition is durable in PostgreSQL", as with one transaction per store. A
 * stale transition is refused on its own ({@link StaleInventoryException}) and never fails its
 * neighbours; if the batch statement fails for another reason, the batch is applied again one
 * transition at a time so that each caller hears about its own transition only.
 *
 * <p>Under no load a batch is one transition and costs what a direct call costs, plus a hand-over
 * between threads; under load the batch grows with the stores in flight (at most one per
 * partition: Hazelcast runs a partition's operations one at a time) and the commits per transition
 * fall. Thread-safe. The committer threads are daemons, started on first use, stopped by {@link #close}.
 */
final class GroupCommit implements AutoCloseable {

    /** Applies transitions to PostgreSQL: one alone, or many in one statement. */
    interface Referee {
        /** Applies one transition in its own transaction (throws as {@code InventoryRepository.apply} does). */
        void applyOne(SeatBlock next);

        /**
         * Applies many in one statement and one transaction; per transition, the seats moved (0: it
         * was already applied) or -1 if it was stale (rolled back alone).
         */
        int[] applyMany(List<SeatBlock> batch) throws SQLException;
    }

    private static final Logger LOG = Logger.getLogger(GroupCommit.class.getName());

    private record Pending(SeatBlock next, CompletableFuture<Void> done) {
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
    private volatile PostgresInventoryRepository.BatchObserver observer = (size, nanos) -> { };

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
        Pending pending = new Pending(next, new CompletableFuture<>());
        // if interrupted, the transition may still be applied: the grid then finds it applied, or stale, and reloads
        Handover.queueAndWait(queue, pending, pending.done(), () -> closed, "applying " + next.transition());
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
    void onBatch(PostgresInventoryRepository.BatchObserver observer) {
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
                queue.drainTo(batch, maxBatch - 1);
                long start = System.nanoTime();
                commit(batch);
                long nanos = System.nanoTime() - start;
                commitNanos.add(nanos);
                observer.committed(batch.size(), nanos);
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
        batches.increment();
        transitions.add(batch.size());
        largest.accumulate(batch.size());
        if (batch.size() == 1) {
            applyAlone(batch.get(0));
            return;
        }
        int[] results;
        try {
            results = referee.applyMany(batch.stream().map(Pending::next).toList());
        } catch (SQLException e) {
            if (e.getSQLState() != null && e.getSQLState().startsWith("08")) {
                // the connection failed: every transition's fate is unknown alike
                DatabaseException failure = new DatabaseException("applying a batch of " + batch.size() + " transitions", e);
                batch.forEach(p -> p.done().completeExceptionally(failure));
                return;
            }
            LOG.log(Level.FINE, "batch of " + batch.size() + " failed; applying its transitions one by one", e);
            batch.forEach(this::applyAlone);
            return;
        } catch (RuntimeException e) {
            batch.forEach(p -> p.done().completeExceptionally(e));
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            Pending p = batch.get(i);
            if (results[i] >= 0) {
                p.done().complete(null);
            } else {
                SeatBlock next = p.next();
                p.done().completeExceptionally(new StaleInventoryException(next.showId() + "/" + next.blockId()
                        + ": " + next.transition() + " refused: the seat rows moved on"));
            }
        }
    }

    private void applyAlone(Pending p) {
        try {
            referee.applyOne(p.next());
            p.done().complete(null);
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
                    + left.next().transition(), null));
        }
    }
}
