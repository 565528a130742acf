package org.boxoffice.app.ops;

import org.boxoffice.grid.Daemons;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Figures read for the metrics every few seconds on a thread of their own, so a scrape reads numbers
 * and never the database: each reading is handed on; a reading that fails is skipped (the gauges
 * keep their last figures) and tried again at the next round. Stops on {@link #close}.
 *
 * @param <T> what one reading gives
 */
public final class PeriodicReading<T> implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(PeriodicReading.class.getName());

    private final String what;
    private final Supplier<T> read;
    private final Consumer<T> use;
    private final ScheduledExecutorService timer;

    /**
     * Reads now and then every {@code everyMillis}.
     *
     * @param thread the reading thread's name
     * @param what   what is read, for the log line of a failed reading
     */
    public static <T> PeriodicReading<T> every(long everyMillis, String thread, String what, Supplier<T> read,
                                               Consumer<T> use) {
        PeriodicReading<T> reading = new PeriodicReading<>(thread, what, read, use);
        reading.timer.scheduleWithFixedDelay(reading::readOnce, 0, everyMillis, TimeUnit.MILLISECONDS);
        return reading;
    }

    private PeriodicReading(String thread, String what, Supplier<T> read, Consumer<T> use) {
        this.what = what;
        this.read = read;
        this.use = use;
        this.timer = Daemons.scheduler(thread);
    }

    private void readOnce() {
        T now;
        try {
            now = read.get();
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "could not read " + what + "; the gauges keep their last figures", e);
            return;
        }
        use.accept(now);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
