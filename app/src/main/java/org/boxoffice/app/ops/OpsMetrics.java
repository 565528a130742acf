package org.boxoffice.app.ops;

import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.DistributionStatisticsConfig;
import io.helidon.metrics.api.DistributionSummary;
import io.helidon.metrics.api.FunctionalCounter;
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

    /**
     * A counter with one label whose usual values are known: those are exported at 0 from the start,
     * so {@code rate()} and {@code increase()} see the first event and an alert needs no
     * {@code absent()}. Other values (an error code) appear when first counted.
     */
    public record Family(String name, String label, String description, List<String> known) {
    }

    public static final Family CHECKOUTS = new Family("boxoffice_checkouts", "outcome", "checkout requests by outcome: "
            + "booked, pending, replayed (answered from its Idempotency-Key) or the error code",
            List.of("booked", "pending", "replayed", "PAYMENT_DECLINED", "HOLD_EXPIRED", "PAYMENT_IN_PROGRESS"));
    public static final Family PAYMENTS = new Family("boxoffice_payments", "outcome", "charges a checkout made, by the "
            + "provider's answer: captured, declined, pending (the provider decides later) or unknown (no answer: the "
            + "webhook or reconciliation decides)", List.of("captured", "declined", "pending", "unknown"));
    public static final Family BOOKINGS = new Family("boxoffice_bookings", "via", "bookings made (captured money turned "
            + "into sold seats): on_time, or late (the money came after the hold lapsed; its seats were still free)",
            List.of("on_time", "late"));
    public static final Family PAYMENTS_REFUSED = new Family("boxoffice_payments_refused", "reason", "captured payments "
            + "that could not become a booking and are refunded: late (after the hold lapsed, its seats taken; or it "
            + "lapsed while confirming), seats_lost, already_paid (the hold was paid by another payment)",
            List.of("late", "seats_lost", "already_paid"));
    public static final Family REFUNDS = new Family("boxoffice_refunds", "kind", "refunds the payment provider made: "
            + "cancellation (of a booking), refused_payment (money that could not become a booking), unmatched_charge "
            + "(a charge reconciliation found no live attempt for)", List.of("cancellation", "refused_payment",
            "unmatched_charge"));
    public static final Family WEBHOOK_EVENTS = new Family("boxoffice_webhook_events", "result", "payment provider "
            + "webhook deliveries by result: applied, ignored, duplicate_event, unknown_payment, or the error code",
            List.of("applied", "ignored", "duplicate_event", "unknown_payment", "INVALID_SIGNATURE", "PAYMENT_MISMATCH"));
    public static final Family RECONCILIATION_RUNS = new Family("boxoffice_reconciliation_runs", "result",
            "payment reconciliation passes by result", List.of("ok", "failed"));
    public static final Family RECONCILIATION_REPAIRS = new Family("boxoffice_reconciliation_repairs", "action",
            "what payment reconciliation repaired: settled, refunded, cancellation_finished, abandoned (an attempt the "
            + "provider never heard of), flagged (a booking whose charge the provider does not confirm), overran (a repair "
            + "still running after 10 s: the pass went on without it, and a later pass finds what it left)",
            List.of("settled", "refunded", "cancellation_finished", "abandoned", "flagged", "overran"));
    public static final Family STORE_FAILURES = new Family("boxoffice_mapstore_store_failures", "kind", "write-through "
            + "stores that failed: stale (the referee refused a grid copy behind PostgreSQL), error (PostgreSQL or the "
            + "connection failed)", List.of("stale", "error"));
    public static final Family POOL_TIMEOUTS = new Family("boxoffice_db_pool_timeouts", null, "borrows of a database "
            + "connection that gave up after the pool's connection timeout", List.of());
    public static final Family MESSAGES_GIVEN_UP = new Family("boxoffice_messages_given_up", "channel", "messages "
            + "(ticket mails, offer mails, SMS, notices) given up after they could not be sent for as long as their "
            + "channel retries (boxoffice.mail.retryhours, boxoffice.sms.retryhours; a minute for a page), by channel: "
            + "email, sms, page. A channel turned off gives up its messages uncounted", List.of("email", "sms", "page"));
    /** Every family above, declared when the metrics are made. */
    public static final List<Family> FAMILIES = List.of(CHECKOUTS, PAYMENTS, BOOKINGS, PAYMENTS_REFUSED, REFUNDS,
            WEBHOOK_EVENTS, RECONCILIATION_RUNS, RECONCILIATION_REPAIRS, STORE_FAILURES, POOL_TIMEOUTS, MESSAGES_GIVEN_UP);

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    /** The suppliers of the functional counters, by name: see {@link #counter(String, String, Supplier)}. */
    private final Map<String, Supplier<Long>> functionalCounters = new ConcurrentHashMap<>();
    private final Timer holdLatency;
    private final Counter holdAttempts;
    private final Map<String, Counter> holdOutcomes = new ConcurrentHashMap<>();
    private final Timer storeLatency;
    private final Map<RequestKey, Counter> requests = new ConcurrentHashMap<>();
    private final Map<String, Timer> holdStages = new ConcurrentHashMap<>();
    /** The stages of a hold past the seat map, in their order: {@link #holdStage}. */
    public static final List<String> HOLD_STAGES = List.of("idempotency", "allowance", "token", "claim", "reply");

    private record RequestKey(String method, String route, int status) {
    }

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
        HOLD_STAGES.forEach(this::holdStageTimer);
        for (String outcome : List.of("held", "replayed", "SEATS_UNAVAILABLE")) {
            holdOutcome(outcome);
        }
        for (Family family : FAMILIES) {
            if (family.label() == null) {
                counter(family.name(), family.description(), List.of());
            }
            family.known().forEach(value -> count(family, value, 0));
        }
    }

    /** Counts one event of {@code family} with its label at {@code value}. */
    public void count(Family family, String value) {
        count(family, value, 1);
    }

    /** Counts {@code n} events of {@code family} with its label at {@code value} (null for a family without a label). */
    public void count(Family family, String value, long n) {
        counter(family.name(), family.description(), family.label() == null ? List.of()
                : List.of(Tag.create(family.label(), value))).increment(n);
    }

    /** A hold request's outcome: {@code held} or the error code; counts attempts and records latency. */
    public void hold(String outcome, long nanos) {
        holdAttempts.increment();
        // on every hold request: one map look-up by the outcome itself, no key built per call
        holdOutcome(outcome).increment();
        holdLatency.record(nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Time a hold past the seat map spent in one of its {@link #HOLD_STAGES}: {@code idempotency}
     * (its key looked up and marked before it ran), {@code allowance}, {@code token} and
     * {@code claim} (see {@link org.boxoffice.grid.Seats.StageTimer}), {@code reply} (its answer
     * remembered under its key). Where a winner waits, member by member.
     */
    public void holdStage(String stage, long nanos) {
        holdStageTimer(stage).record(nanos, TimeUnit.NANOSECONDS);
    }

    private Timer holdStageTimer(String stage) {
        return holdStages.computeIfAbsent(stage, s -> registry.getOrCreate(Timer.builder("boxoffice_hold_stage")
                .description("time a hold request that went past the seat map spent in one stage: idempotency (its key "
                        + "looked up before it ran), allowance, token (its rate limit waited for), claim (the blocks' "
                        + "processors and the referee), reply (its answer remembered under its key)")
                .tags(List.of(Tag.create("stage", s))).buckets(LATENCY_BUCKETS).percentiles(new double[0])));
    }

    private Counter holdOutcome(String outcome) {
        return holdOutcomes.computeIfAbsent(outcome, o -> registry.getOrCreate(Counter.builder("boxoffice_hold_outcomes")
                .description("hold requests by outcome (held or error code)").tags(List.of(Tag.create("outcome", o)))));
    }

    public void store(long nanos) {
        storeLatency.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Counts {@code n} events with one tag. */
    public void count(String name, String description, String tag, String value, long n) {
        counter(name, description, List.of(Tag.create(tag, value))).increment(n);
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

    /** Counts an event with one tag. */
    public void count(String name, String description, String tag, String value) {
        count(name, description, tag, value, 1);
    }

    /** Counts one answered HTTP request by method, route template and status ({@code HttpRequestMeter}). */
    public void request(String method, String route, int status) {
        requests.computeIfAbsent(new RequestKey(method, route, status), k -> registry.getOrCreate(
                Counter.builder("boxoffice_http_requests").description("HTTP requests answered, by method, route and status")
                        .tags(List.of(Tag.create("method", k.method()), Tag.create("route", k.route()),
                                Tag.create("status", Integer.toString(k.status())))))).increment();
    }

    /**
     * A counter ({@code <name>_total}) read from {@code count} at every scrape, for a count kept
     * elsewhere that only grows. Replaces one of the same name, as {@link #gauge} does.
     */
    public void counter(String name, String description, Supplier<Long> count) {
        registry.remove(name, List.of());
        // the registry holds a functional counter's state object weakly (Micrometer's FunctionCounter):
        // without a strong reference here the supplier is collected at the next GC and the counter
        // stops counting
        functionalCounters.put(name, count);
        registry.getOrCreate(FunctionalCounter.builder(name, count, Supplier::get).description(description));
    }

    /** A histogram of plain numbers (no unit) with these bucket bounds, and no quantiles. */
    public DistributionSummary histogram(String name, String description, double... buckets) {
        return registry.getOrCreate(DistributionSummary.builder(name, DistributionStatisticsConfig.builder()
                .buckets(buckets).percentiles(new double[0])).description(description));
    }

    /** A histogram of durations ({@code <name>_seconds}) with these bucket bounds, and no quantiles. */
    public Timer timer(String name, String description, Duration... buckets) {
        return registry.getOrCreate(Timer.builder(name).description(description).buckets(buckets).percentiles(new double[0]));
    }

    /** As {@link #timer(String, String, Duration...)}, one of a family told apart by {@code tag}'s {@code value}. */
    public Timer timer(String name, String description, String tag, String value, Duration... buckets) {
        return registry.getOrCreate(Timer.builder(name).description(description).tags(List.of(Tag.create(tag, value)))
                .buckets(buckets).percentiles(new double[0]));
    }

    /**
     * A gauge read from {@code value} at every scrape. A gauge of the same name (and tags) registered
     * before is replaced: the registry is the JVM's, and a member started after another one in the
     * same JVM (the tests do this) reports its own state, not the earlier member's.
     */
    public void gauge(String name, String description, Supplier<? extends Number> value) {
        registry.remove(name, List.of());
        registry.getOrCreate(Gauge.builder(name, () -> value.get().doubleValue()).description(description));
    }

    /** Like {@link #gauge(String, String, Supplier)}, with one tag. */
    public void gauge(String name, String description, String tag, String tagValue, Supplier<? extends Number> value) {
        List<Tag> tags = List.of(Tag.create(tag, tagValue));
        registry.remove(name, tags);
        registry.getOrCreate(Gauge.builder(name, () -> value.get().doubleValue()).description(description).tags(tags));
    }

    private Counter counter(String name, String description, List<Tag> tags) {
        String key = name + tags;
        return counters.computeIfAbsent(key, k -> registry.getOrCreate(Counter.builder(name).description(description).tags(tags)));
    }
}
