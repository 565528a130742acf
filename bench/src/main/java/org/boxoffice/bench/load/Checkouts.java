package org.boxoffice.bench.load;

import com.fasterxml.jackson.databind.JsonNode;
import org.HdrHistogram.Recorder;
import org.boxoffice.bench.check.AckedBooking;
import org.boxoffice.bench.http.HttpConnection;
import org.boxoffice.bench.http.HttpResponse;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The buyers who pay for their hold at once, through {@code POST /v1/holds/{holdId}/checkout}.
 *
 * <p>A paying buyer first pays with {@value #METHOD}, a payment method the simulated provider
 * treats by its configured rates (some declined, some answered late or never). After a 402 the
 * buyer tries once more with {@value #APPROVING_METHOD}, as a fan tries another card. A
 * {@code 202 PENDING} does not keep the buyer's connection: the pending payment is handed to one
 * watcher thread that reads {@code GET /v1/holds/{holdId}} every {@value #POLL_MS} ms until the
 * hold is CONFIRMED, or counts it as pending once {@link #PENDING_WAIT_NANOS} have passed.
 *
 * <p>Thread-safe: {@link #pay} runs on every load thread at once, {@link #watchPending} on its own.
 */
public final class Checkouts {

    /** Drawn from the simulator's rates: mostly captured at once, a few declined, a few late. */
    static final String METHOD = "card";
    /** The simulator's test card that is always captured at once. */
    static final String APPROVING_METHOD = "card_ok";
    /** How long a buyer answered 202 waits for its booking before it counts as pending. */
    static final long PENDING_WAIT_NANOS = 5_000_000_000L;
    static final long POLL_MS = 250;

    /**
     * The run's payments.
     *
     * @param buyers             buyers who paid for their hold
     * @param requests           checkout requests sent (a retry after a decline counts)
     * @param booked             buyers answered 200 BOOKED
     * @param bookedAfterPending buyers answered 202 whose hold was CONFIRMED within the wait
     * @param pending            buyers still pending when the wait ended
     * @param declined           buyers declined twice (and left with their hold)
     * @param declines           402 answers, including those a retry turned into a booking
     * @param retried            buyers who tried another card after a 402
     * @param failed             buyers left without a booking by another answer (see errors)
     * @param errors             failed checkouts and failed reads of pending holds, by kind:
     *                           {@code checkout-409}, {@code transport}, {@code pending-then-EXPIRED}, ...
     * @param seatsBooked        seats of the booked buyers (both kinds)
     * @param latency            per checkout request
     */
    public record Summary(long buyers, long requests, long booked, long bookedAfterPending, long pending,
                          long declined, long declines, long retried, long failed, Map<String, Long> errors,
                          long seatsBooked, Latency latency) {

        public long allBooked() {
            return booked + bookedAfterPending;
        }
    }

    private record Pending(Buyer buyer, String holdId, List<String> seatIds, long deadlineNanos) {
    }

    private final Target target;
    private final Recorder latency = new Recorder(3);
    private final LongAdder buyers = new LongAdder();
    private final LongAdder requests = new LongAdder();
    private final LongAdder booked = new LongAdder();
    private final LongAdder bookedAfterPending = new LongAdder();
    private final LongAdder stillPending = new LongAdder();
    private final LongAdder declined = new LongAdder();
    private final LongAdder declines = new LongAdder();
    private final LongAdder retried = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder seatsBooked = new LongAdder();
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final Queue<Pending> pending = new ConcurrentLinkedQueue<>();
    private final Queue<AckedBooking> bookings = new ConcurrentLinkedQueue<>();
    private final Set<String> paidHolds = ConcurrentHashMap.newKeySet();
    private final AtomicLong keys = new AtomicLong();
    private volatile boolean saleOver;

    Checkouts(Target target) {
        this.target = target;
    }

    /** One buyer pays for the hold it was just given, on the buyer's connection. */
    void pay(HttpConnection connection, Buyer buyer, String holdId, List<String> seatIds) {
        buyers.increment();
        paidHolds.add(holdId);
        HttpResponse response = checkout(connection, buyer, holdId, METHOD);
        if (response != null && response.status() == 402) {
            declines.increment();
            retried.increment();
            response = checkout(connection, buyer, holdId, APPROVING_METHOD);
            if (response != null && response.status() == 402) {
                declines.increment();
                declined.increment();
                return;
            }
        }
        if (response == null) {
            failed.increment();
            return;
        }
        switch (response.status()) {
            case 200 -> {
                Long bookingId = null;
                try {
                    JsonNode id = response.json().path("bookingId");
                    bookingId = id.canConvertToLong() ? id.asLong() : null;
                } catch (RuntimeException e) {
                    // the check looks the booking up by its hold
                }
                booked(buyer, holdId, bookingId, seatIds);
                booked.increment();
            }
            case 202 -> pending.add(new Pending(buyer, holdId, seatIds, System.nanoTime() + PENDING_WAIT_NANOS));
            default -> {
                failed.increment();
                error("checkout-" + response.status());
            }
        }
    }

    /** Null after a transport failure (counted). */
    private HttpResponse checkout(HttpConnection connection, Buyer buyer, String holdId, String method) {
        // unique per attempt: a second card is a new payment, not a replay of the first
        String key = "Idempotency-Key: bench-" + holdId + "-" + keys.incrementAndGet();
        long t0 = System.nanoTime();
        try {
            HttpResponse r = connection.send("POST", "/v1/holds/" + holdId + "/checkout", buyer.token(), null, key,
                    "{\"paymentMethod\":\"" + method + "\"}");
            latency.recordValue((System.nanoTime() - t0) / 1_000);
            return r;
        } catch (IOException | RuntimeException e) {
            error("transport");
            return null;
        } finally {
            requests.increment();
        }
    }

    private void booked(Buyer buyer, String holdId, Long bookingId, List<String> seatIds) {
        bookings.add(new AckedBooking(holdId, buyer.accountId(), bookingId, seatIds));
        seatsBooked.add(seatIds.size());
    }

    private void error(String kind) {
        errors.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    /**
     * Follows the pending payments until the sale is over and none is left, each for at most
     * {@link #PENDING_WAIT_NANOS}: runs on a thread of its own with a connection of its own.
     */
    void watchPending() {
        try (HttpConnection c = new HttpConnection(target.host(), target.port())) {
            while (!(saleOver && pending.isEmpty())) {
                List<Pending> again = new ArrayList<>();
                for (Pending p; (p = pending.poll()) != null; ) {
                    if (!resolved(c, p)) {
                        again.add(p);
                    }
                }
                pending.addAll(again);
                Thread.sleep(POLL_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stillPending.add(pending.size());
            pending.clear();
        }
    }

    /** Whether the pending payment is decided (booked, failed, or given up on). */
    private boolean resolved(HttpConnection c, Pending p) {
        if (System.nanoTime() > p.deadlineNanos()) {
            stillPending.increment();
            return true;
        }
        String status;
        try {
            HttpResponse r = c.send("GET", "/v1/holds/" + p.holdId(), p.buyer().token(), null, null, null);
            if (r.status() != 200) {
                error("pending-read-" + r.status());
                return false;
            }
            status = r.json().path("status").asText();
        } catch (IOException | RuntimeException e) {
            error("transport");
            return false;
        }
        switch (status) {
            case "CONFIRMED" -> {
                booked(p.buyer(), p.holdId(), null, p.seatIds());
                bookedAfterPending.increment();
                return true;
            }
            case "HELD" -> {
                return false;
            }
            default -> {
                // the hold ended before the money arrived: the service refunds it, the buyer has nothing
                failed.increment();
                error("pending-then-" + status);
                return true;
            }
        }
    }

    /** No more payments start; {@link #watchPending} ends once the last pending one is decided. */
    void saleOver() {
        saleOver = true;
    }

    /** Call once, after the load threads and the watcher have ended. */
    Summary summary() {
        Map<String, Long> errorCounts = new TreeMap<>();
        errors.forEach((k, v) -> errorCounts.put(k, v.sum()));
        return new Summary(buyers.sum(), requests.sum(), booked.sum(), bookedAfterPending.sum(), stillPending.sum(),
                declined.sum(), declines.sum(), retried.sum(), failed.sum(), errorCounts, seatsBooked.sum(),
                Latency.of(latency.getIntervalHistogram()));
    }

    List<AckedBooking> bookings() {
        return List.copyOf(bookings);
    }

    Set<String> paidHolds() {
        return Set.copyOf(paidHolds);
    }
}
