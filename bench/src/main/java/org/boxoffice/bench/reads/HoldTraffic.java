package org.boxoffice.bench.reads;

import org.boxoffice.bench.http.HttpConnection;
import org.boxoffice.bench.http.HttpResponse;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Seat-map churn beside the reads: one thread holds one seat and releases it at once, {@code
 * perSecond} times a second, with accounts taken in turn (so no account meets its per-minute
 * limit). Each hold and each release changes the seat map, as selling does.
 */
public final class HoldTraffic implements AutoCloseable {

    private final AtomicBoolean stop = new AtomicBoolean();
    private final LongAdder holds = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final Thread thread;

    public HoldTraffic(String host, int port, String showId, List<String> seatIds, List<String> tokens, double perSecond) {
        long interval = (long) (1e9 / perSecond);
        this.thread = Thread.ofPlatform().name("hold-traffic").daemon().start(() -> {
            long due = System.nanoTime();
            int i = 0;
            try (HttpConnection c = new HttpConnection(host, port)) {
                while (!stop.get()) {
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    due += interval;
                    String token = tokens.get(i % tokens.size());
                    String seat = seatIds.get(i % seatIds.size());
                    i++;
                    try {
                        HttpResponse r = c.post("/v1/shows/" + showId + "/holds", token, "{\"seatIds\":[\"" + seat + "\"]}");
                        if (r.status() != 201) {
                            failures.increment();
                            continue;
                        }
                        holds.increment();
                        c.delete("/v1/holds/" + r.json().path("holdId").asText(), token);
                    } catch (IOException | RuntimeException e) {
                        failures.increment();
                    }
                }
            }
        });
    }

    public long holds() {
        return holds.sum();
    }

    public long failures() {
        return failures.sum();
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        thread.join();
    }
}
