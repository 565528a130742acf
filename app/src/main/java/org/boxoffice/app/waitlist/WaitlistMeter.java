package org.boxoffice.app.waitlist;

import org.boxoffice.app.ops.OpsMetrics;
import org.boxoffice.app.ops.PeriodicReading;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * {@code boxoffice_waitlist_length{show}}: the entries waiting in each show's waitlist line, read
 * from PostgreSQL (one grouped query) every few seconds ({@link PeriodicReading}). A show appears
 * once its line has had a waiter and stays, at 0, once its line is empty. If the database cannot be
 * read the last figures stay. Thread-safe.
 */
final class WaitlistMeter implements AutoCloseable {

    private final OpsMetrics metrics;
    private final Map<String, AtomicInteger> shown = new ConcurrentHashMap<>();
    private final PeriodicReading<Map<String, Integer>> reading;

    /** @param lineLengths the waiters in line per show, for the shows that have any; read every {@code everyMillis} */
    WaitlistMeter(Supplier<Map<String, Integer>> lineLengths, OpsMetrics metrics, long everyMillis) {
        this.metrics = metrics;
        this.reading = PeriodicReading.every(everyMillis, "waitlist-meter", "the waitlists' lengths", lineLengths,
                this::show);
    }

    private void show(Map<String, Integer> now) {
        shown.forEach((show, length) -> {
            if (!now.containsKey(show)) {
                length.set(0);
            }
        });
        now.forEach((show, n) -> shown.computeIfAbsent(show, s -> {
            AtomicInteger length = new AtomicInteger();
            metrics.gauge("boxoffice_waitlist_length", "entries waiting in the show's waitlist line (read every few "
                    + "seconds from PostgreSQL)", "show", s, length::get);
            return length;
        }).set(n));
    }

    @Override
    public void close() {
        reading.close();
    }
}
