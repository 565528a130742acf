package org.boxoffice.mapstore;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The caller's side of a batching thread ({@link GroupCommit}, {@link GroupLoad}): queue one item,
 * wait for its own outcome, and never wait on a batcher that closed meanwhile.
 */
final class Handover {

    private Handover() {
    }

    /**
     * Puts {@code pending} on {@code queue} and waits for {@code done}. A runtime failure of the item
     * is thrown as it is; anything else becomes a {@link DatabaseException} about {@code what}, which
     * is only asked for then (every store and read passes here: no message is built for nothing).
     *
     * @param closed whether the batcher closed: if it did while the item was being queued, the item is
     *               taken back (the caller checks before it starts the batcher)
     */
    static <P, T> T queueAndWait(BlockingQueue<P> queue, P pending, CompletableFuture<T> done, BooleanSupplier closed,
                                 Supplier<String> what) {
        queue.add(pending);
        if (closed.getAsBoolean() && queue.remove(pending)) {
            throw new DatabaseException("the referee is closed", null);
        }
        try {
            return done.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DatabaseException("interrupted while " + what.get(), e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new DatabaseException(what.get(), e.getCause());
        }
    }
}
