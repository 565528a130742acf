package org.boxoffice.app.mail;

import org.boxoffice.app.ops.OpsMetrics;
import org.boxoffice.app.ops.PeriodicReading;
import org.boxoffice.domain.MailOutbox.Backlog;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * {@code boxoffice_messages_pending{channel}} and {@code boxoffice_messages_oldest_pending_seconds{channel}}:
 * the messages waiting to be sent (not sent, not given up) in each channel's outboxes, and how long
 * ago the oldest of them was written, read from PostgreSQL (one statement) every few seconds
 * ({@link PeriodicReading}). The figures are the cluster's (every member reads the same tables):
 * aggregate them with {@code max}, not {@code sum}. If the database cannot be read the last figures
 * stay. Thread-safe.
 */
public final class OutboxMeter implements AutoCloseable {

    /** How often the outboxes are read (one statement). */
    public static final long EVERY_MILLIS = 5_000;

    private final OpsMetrics metrics;
    private final LongSupplier clock;
    private final Map<String, Backlog> shown = new ConcurrentHashMap<>();
    private final PeriodicReading<Map<String, Backlog>> reading;

    /**
     * Reads the outboxes now and then every {@code everyMillis}.
     *
     * @param backlog the pending messages per channel ({@code email}, {@code sms}, {@code page})
     */
    public OutboxMeter(Supplier<Map<String, Backlog>> backlog, OpsMetrics metrics, LongSupplier clock, long everyMillis) {
        this.metrics = metrics;
        this.clock = clock;
        this.reading = PeriodicReading.every(everyMillis, "outbox-meter", "the outboxes' backlog", backlog, this::show);
    }

    private void show(Map<String, Backlog> now) {
        now.forEach((channel, b) -> {
            if (shown.put(channel, b) == null) {
                metrics.gauge("boxoffice_messages_pending", "messages waiting to be sent (not sent, not given up) in "
                        + "the channel's outboxes, cluster-wide (read every few seconds from PostgreSQL)", "channel",
                        channel, () -> shown.get(channel).pending());
                metrics.gauge("boxoffice_messages_oldest_pending_seconds", "how long ago the oldest message still "
                        + "waiting to be sent in the channel's outboxes was written (0: none waits)", "channel", channel,
                        () -> ageSeconds(shown.get(channel)));
            }
        });
    }

    private double ageSeconds(Backlog b) {
        return b.pending() == 0 || b.oldestWrittenAt() == 0 ? 0
                : Math.max(0, clock.getAsLong() - b.oldestWrittenAt()) / 1000.0;
    }

    @Override
    public void close() {
        reading.close();
    }
}
