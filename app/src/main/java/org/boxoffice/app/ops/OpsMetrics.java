package org.boxoffice.app.ops;

import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.Gauge;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Metrics;
import io.helidon.metrics.api.Tag;
import io.helidon.metrics.api.Timer;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Boxoffice's meters in Helidon's registry, exported at {@code /observe/metrics} (Prometheus text
 * with {@code Accept: text/plain}). Names are prefixed {@code boxoffice_}.
 */
public final class OpsMetrics {

    private static final Duration[] LATENCY_BUCKETS = {
        Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(20),
        Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1)
    };

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Timer holdLatency;
    private final Counter holdAttempts;
    private final Map<String, Counter> holdOutcomes = new ConcurrentHashMap<>();
    private final Timer storeLatency;

    public OpsMetrics() {
        this(Metrics.globalRegistry());
    }

    public OpsMetrics(MeterRegistry registry) {
        this.registry = registry;
        // Helidon's built-in gauges thread.count, thread.daemon.count, thread.max.count and
        // classloader.loadedClasses.count end in _count, which Prometheus reserves for histograms and
        // summaries (promtool refuses them); Boxoffice exports the same figures as boxoffice_jvm_threads
        // and boxoffice_jvm_classes_loaded
        for (io.helidon.metrics.api.Meter meter : List.copyOf(registry.meters())) {
            if (meter instanceof io.helidon.metrics.api.Gauge<?> && meter.id().name().endsWith("count")) {
                registry.remove(meter);
            }
        }
        this.holdLatency = registry.getOrCreate(Timer.builder("boxoffice_hold_latency")
                .description("time to answer a hold request").buckets(LATENCY_BUCKETS).percentiles(new double[0]));
        this.holdAttempts = counter("boxoffice_hold_attempts", "hold requests", List.of());
        this.storeLatency = registry.getOrCreate(Timer.builder("boxoffice_mapstore_store_latency")
                .description("time of one write-through store (one transition applied to PostgreSQL)").buckets(LATENCY_BUCKETS)
                .percentiles(new double[0]));
    }

    /** A hold request's outcome: {@code held} or the error code; counts attempts and records latency. */
    public void hold(String outcome, long nanos) {
        holdAttempts.increment();
        // on every hold request: one map look-up by the outcome itself, no key built per call
        holdOutcomes.computeIfAbsent(outcome, o -> registry.getOrCreate(Counter.builder("boxoffice_hold_outcomes")
                .description("hold requests by outcome (held or error code)").tags(List.of(Tag.create("outcome", o)))))
                .increment();
        holdLatency.record(nanos, TimeUnit.NANOSECONDS);
    }

    public void store(long nanos) {
        storeLatency.record(nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * A request turned away as automated or unadmitted traffic: {@code reason} is a
     * {@code BotRefusal}'s label, {@code show} the show it was for ({@code "-"} when none or unknown,
     * so a client cannot make up labels).
     */
    public void botRefusal(String reason, String show) {
        counter("boxoffice_bot_refusals", "requests refused as automated or unadmitted traffic, by reason and show",
                List.of(Tag.create("reason", reason), Tag.create("show", show))).increment();
    }

    /** Counts an event with one tag (payment outcomes, invariant violations...). */
    public void count(String name, String description, String tag, String value) {
        counter(name, description, List.of(Tag.create(tag, value))).increment();
    }

    public void gauge(String name, String description, Supplier<? extends Number> value) {
        registry.getOrCreate(Gauge.builder(name, () -> value.get().doubleValue()).description(description));
    }

    public void gauge(String name, String description, String tag, String tagValue, Supplier<? extends Number> value) {
        registry.getOrCreate(Gauge.builder(name, () -> value.get().doubleValue()).description(description)
                .tags(List.of(Tag.create(tag, tagValue))));
    }

    private Counter counter(String name, String description, List<Tag> tags) {
        String key = name + tags;
        return counters.computeIfAbsent(key, k -> registry.getOrCreate(Counter.builder(name).description(description).tags(tags)));
    }
}
