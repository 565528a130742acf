package org.boxoffice.grid;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Claims on one grid entry combined into one call: what a member does for the claims on a seat
 * block ({@link Inventory}) and on a stripe of a general-admission area ({@link Admissions}).
 *
 * <p>Claims on an entry are decided one at a time, each waiting for its durable store, so under an
 * on-sale's rush the claims on a popular entry queue behind one another, each for a whole round
 * trip to the referee. So a member sends one call per entry at a time: claims that arrive while it
 * is in flight wait together, and the next call carries all of them (up to {@code maxClaims}; the
 * call decides each on its own, in arrival order, and stores them together). The claim that opens
 * a call runs it on its own thread; before it answers, it hands the entry to the first of the claims
 * that queued meanwhile. A call that fails fails every claim it carried, with its exception.
 *
 * <p>Thread-safe. A lane leaves the map when it goes idle, so the map holds only entries being
 * claimed now.
 *
 * @param <K> the entry's key
 * @param <C> a claim
 * @param <O> a claim's outcome
 */
final class ClaimLanes<K, C, O> {

    /** One call on an entry for {@code claims}: their outcomes, in their order. */
    @FunctionalInterface
    interface Call<K, C, O> {
        List<O> run(K key, List<C> claims);
    }

    private final int maxClaims;
    private final Call<K, C, O> call;
    private final ConcurrentHashMap<K, Lane<C>> lanes = new ConcurrentHashMap<>();
    private final LongAdder calls = new LongAdder();
    private final LongAdder claims = new LongAdder();

    ClaimLanes(int maxClaims, Call<K, C, O> call) {
        if (maxClaims < 1) {
            throw new IllegalArgumentException("maxClaims must be positive");
        }
        this.maxClaims = maxClaims;
        this.call = call;
    }

    /** Decides {@code claim} on {@code key}, alone or together with the claims on it that queue meanwhile. */
    O claim(K key, C claim) {
        Ticket<C> mine = new Ticket<>(claim);
        Lane<C> lane;
        List<Ticket<C>> batch;
        while (true) {
            lane = lanes.computeIfAbsent(key, k -> new Lane<>());
            synchronized (lane) {
                if (lane.retired) {
                    continue; // went idle and left the map meanwhile: use the one there now
                }
                lane.waiting.add(mine);
                batch = lane.busy ? null : lane.open(maxClaims);
            }
            break;
        }
        if (batch == null) {
            Object turn = mine.await();
            if (!(turn instanceof Lead<?> lead)) {
                @SuppressWarnings("unchecked")
                O outcome = (O) turn;
                return outcome;
            }
            @SuppressWarnings("unchecked")
            List<Ticket<C>> handed = ((Lead<C>) lead).batch();
            batch = handed;
        }
        return run(key, lane, batch, mine);
    }

    /** Runs one call for {@code batch}, hands the entry on, answers every claim of the batch. */
    private O run(K key, Lane<C> lane, List<Ticket<C>> batch, Ticket<C> mine) {
        List<O> outcomes = null;
        RuntimeException failure = null;
        try {
            List<C> asked = new ArrayList<>(batch.size());
            batch.forEach(t -> asked.add(t.claim()));
            outcomes = call.run(key, asked);
            if (outcomes.size() != batch.size()) {
                throw new IllegalStateException(outcomes.size() + " outcomes for " + batch.size() + " claims on " + key);
            }
            calls.increment();
            claims.add(batch.size());
        } catch (RuntimeException | Error e) {
            // whatever happens, the claims waiting on this call hear of it and the entry is handed on
            failure = e instanceof RuntimeException r ? r
                    : new InventoryUnavailableException("claims on " + key + " failed: " + e, e);
        }
        List<Ticket<C>> next;
        synchronized (lane) {
            next = lane.waiting.isEmpty() ? null : lane.open(maxClaims);
            if (next == null) {
                lane.busy = false;
                lane.retired = true;
                lanes.remove(key, lane);
            }
        }
        if (next != null) {
            next.get(0).turn().complete(new Lead<>(next));
        }
        O own = null;
        for (int i = 0; i < batch.size(); i++) {
            Ticket<C> t = batch.get(i);
            if (t == mine) {
                own = failure == null ? outcomes.get(i) : null;
            } else if (failure == null) {
                t.turn().complete(outcomes.get(i));
            } else {
                t.turn().completeExceptionally(failure);
            }
        }
        if (failure != null) {
            throw failure;
        }
        return own;
    }

    /** Claims waiting for the call in flight on {@code key} to return (for tests and diagnostics). */
    int waiting(K key) {
        Lane<C> lane = lanes.get(key);
        if (lane == null) {
            return 0;
        }
        synchronized (lane) {
            return lane.waiting.size();
        }
    }

    /** Calls made so far. */
    long calls() {
        return calls.sum();
    }

    /** Claims the calls so far carried. */
    long claims() {
        return claims.sum();
    }

    /**
     * A member's claims on one entry: at most one call in flight ({@code busy}); claims that arrive
     * meanwhile wait in {@code waiting} and go together in the next call. Guarded by its own monitor.
     */
    private static final class Lane<C> {
        final ArrayDeque<Ticket<C>> waiting = new ArrayDeque<>();
        boolean busy;
        boolean retired;

        /** Takes the next call's claims off the queue; the lane is busy until that call's runner hands it on. */
        List<Ticket<C>> open(int max) {
            List<Ticket<C>> batch = new ArrayList<>(Math.min(waiting.size(), max));
            while (!waiting.isEmpty() && batch.size() < max) {
                batch.add(waiting.poll());
            }
            busy = true;
            return batch;
        }
    }

    /** The lead of the next call, handed to the first claim of its batch. */
    private record Lead<C>(List<Ticket<C>> batch) {
    }

    /** One claim waiting in a lane: it gets its outcome, or the {@link Lead} of the next call. */
    private record Ticket<C>(C claim, CompletableFuture<Object> turn) {
        Ticket(C claim) {
            this(claim, new CompletableFuture<>());
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
