package org.boxoffice.grid;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A member's claims on grid entries that take them one at a time, each waiting for its durable
 * store (a seat block, a general-admission stripe): under an on-sale's rush the claims on a popular
 * entry would queue behind one another, each for a whole round trip to the referee. So this member
 * sends one call per entry at a time: claims that arrive while it is in flight wait together, and
 * the next call carries all of them (up to {@code maxClaims}), decided in arrival order by one
 * processor and stored in one write. The claim that opens a call runs it on its own thread; before
 * it answers, it hands the entry to the first of the claims that queued meanwhile.
 *
 * <p>Thread-safe. A lane leaves the map when it goes idle, so the map holds only entries being
 * claimed now.
 *
 * @param <K> the entry's key
 * @param <C> a claim
 * @param <O> a claim's outcome
 */
final class ClaimLanes<K, C, O> {

    /** One call on an entry for several claims: their outcomes, in the claims' order. */
    @FunctionalInterface
    interface Call<K, C, O> {
        List<O> run(K key, List<C> claims);
    }

    private final ConcurrentHashMap<K, Lane<C, O>> lanes = new ConcurrentHashMap<>();
    private final java.util.function.IntSupplier maxClaims;
    private final Function<Throwable, RuntimeException> failure;

    /**
     * @param maxClaims the most claims one call carries (the referee's write stays small), asked as
     *                  each call is made up: 1 while a peer could not read a call with several
     * @param failure   what the claims of a call hear when it failed with an {@link Error} (a runtime
     *                  exception reaches each of them as it was)
     */
    ClaimLanes(java.util.function.IntSupplier maxClaims, Function<Throwable, RuntimeException> failure) {
        this.maxClaims = maxClaims;
        this.failure = failure;
    }

    /** {@code claim}'s outcome, decided in a call of {@code call} on {@code key} with the claims queued beside it. */
    O claim(K key, C claim, Call<K, C, O> call) {
        Ticket<C, O> mine = new Ticket<>(claim);
        Lane<C, O> lane;
        List<Ticket<C, O>> batch;
        while (true) {
            lane = lanes.computeIfAbsent(key, k -> new Lane<>());
            synchronized (lane) {
                if (lane.retired) {
                    continue; // went idle and left the map meanwhile: use the one there now
                }
                lane.waiting.add(mine);
                batch = lane.busy ? null : lane.open(maxClaims.getAsInt());
            }
            break;
        }
        if (batch == null) {
            Object turn = mine.await();
            if (!(turn instanceof Lead<?, ?> lead)) {
                @SuppressWarnings("unchecked")
                O outcome = (O) turn;
                return outcome;
            }
            @SuppressWarnings("unchecked")
            List<Ticket<C, O>> handed = ((Lead<C, O>) lead).batch();
            batch = handed;
        }
        return run(key, lane, batch, mine, call);
    }

    /** Runs one call for {@code batch}, hands the entry on, answers every claim of the batch. */
    private O run(K key, Lane<C, O> lane, List<Ticket<C, O>> batch, Ticket<C, O> mine, Call<K, C, O> call) {
        List<O> outcomes = null;
        RuntimeException failed = null;
        try {
            outcomes = call.run(key, batch.stream().map(Ticket::claim).toList());
        } catch (RuntimeException e) {
            failed = e;
        } catch (Error e) {
            // whatever happens, the claims waiting on this call hear of it and the entry is handed on
            failed = failure.apply(e);
        }
        List<Ticket<C, O>> next;
        synchronized (lane) {
            next = lane.waiting.isEmpty() ? null : lane.open(maxClaims.getAsInt());
            if (next == null) {
                lane.busy = false;
                lane.retired = true;
                lanes.remove(key, lane);
            }
        }
        if (next != null) {
            next.get(0).lead(next);
        }
        O own = null;
        for (int i = 0; i < batch.size(); i++) {
            Ticket<C, O> t = batch.get(i);
            if (t == mine) {
                own = failed == null ? outcomes.get(i) : null;
            } else if (failed == null) {
                t.answer(outcomes.get(i));
            } else {
                t.fail(failed);
            }
        }
        if (failed != null) {
            throw failed;
        }
        return own;
    }

    /** Claims of this member waiting for the call in flight on {@code key} to return (tests and diagnostics). */
    int waiting(K key) {
        Lane<C, O> lane = lanes.get(key);
        if (lane == null) {
            return 0;
        }
        synchronized (lane) {
            return lane.waiting.size();
        }
    }

    /**
     * The claims on one entry: at most one call in flight ({@code busy}); claims that arrive
     * meanwhile wait in {@code waiting}. Guarded by its own monitor. {@code retired}: idle and out of
     * the map (a claim that still finds it takes the map's new one).
     */
    private static final class Lane<C, O> {
        final ArrayDeque<Ticket<C, O>> waiting = new ArrayDeque<>();
        boolean busy;
        boolean retired;

        /** Takes the next call's claims off the queue; the lane is busy until that call's runner hands it on. */
        List<Ticket<C, O>> open(int maxClaims) {
            List<Ticket<C, O>> batch = new ArrayList<>(Math.min(waiting.size(), maxClaims));
            while (!waiting.isEmpty() && batch.size() < maxClaims) {
                batch.add(waiting.poll());
            }
            busy = true;
            return batch;
        }
    }

    /** The lead of the next call, handed to the first of its claims. */
    private record Lead<C, O>(List<Ticket<C, O>> batch) {
    }

    /** One claim waiting in a lane: it gets its outcome, or the {@link Lead} of the next call. */
    private record Ticket<C, O>(C claim, CompletableFuture<Object> turn) {
        Ticket(C claim) {
            this(claim, new CompletableFuture<>());
        }

        void answer(O outcome) {
            turn.complete(outcome);
        }

        void lead(List<Ticket<C, O>> batch) {
            turn.complete(new Lead<>(batch));
        }

        void fail(RuntimeException e) {
            turn.completeExceptionally(e);
        }

        /** Waits for the outcome or the lead; a failure of the call it rode in is thrown as it was. */
        Object await() {
            try {
                return turn.join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
        }
    }
}
