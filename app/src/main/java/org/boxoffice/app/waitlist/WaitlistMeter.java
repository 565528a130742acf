package org.boxoffice.app.waitlist;

import org.boxoffice.app.ops.OpsMetrics;
import org.boxoffice.grid.Daemons;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code boxoffice_waitlist_length{show}}: the entries waiting in each show's waitlist line, read
 * from PostgreSQL (one grouped query) every few seconds on its own thread, so a scrape reads
 * numbers and never the database. A show appears once its line has had a waiter and stays, at 0,
 * once its line is empty. If the database cannot be read the last figures stay. Thread-safe.
 */
public final class WaitlistMeter implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(WaitlistMeter.class.getName());

    private final Supplier<Map<String, Integer>> lineLengths;
    private final OpsMetrics metrics;
    private final Map<String, AtomicInteger> shown = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Daemons.scheduler("waitlist-meter");

    /** @param lineLengths the waiters in line per show, for the shows that have any */
    public WaitlistMeter(Supplier<Map<String, Integer>> lineLengths, OpsMetrics metrics) {
        this.lineLengths = lineLengths;
        this.metrics = metrics;
    }

    /** Reads the lines now and then every {@code everyMillis}. */
    public WaitlistMeter start(long everyMillis) {
        timer.scheduleWithFixedDelay(this::refresh, 0, everyMillis, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Reads the lines once. */
    public void refresh() {
        Map<String, Integer> now;
        try {
            now = lineLengths.get();
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "could not read the waitlists' lengths; the gauges keep their last figures", e);
            return;
        }
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
        timer.shutdownNow();
    }
}
