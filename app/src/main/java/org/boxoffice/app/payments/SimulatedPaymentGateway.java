package org.boxoffice.app.payments;

import io.helidon.config.Config;
import org.boxoffice.domain.PaymentGatewayException;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A payment provider simulated in-process, for the demo and the tests. It behaves like a real one
 * where it matters to the service:
 * <ul>
 *   <li>its own ledger of charges and refunds, keyed by the caller's idempotency keys: a repeated
 *       key answers with the first outcome and never charges or refunds twice;</li>
 *   <li>latency, declines, timeouts (the caller hears nothing; the charge may or may not exist) and
 *       late success (the caller gave up, then the charge succeeds), at configured rates;</li>
 *   <li>webhook events posted over HTTP to the service's own URL, signed with the shared secret,
 *       retried until answered 2xx, sometimes duplicated, and delayed at random so they arrive out
 *       of order.</li>
 * </ul>
 * A payment method can name its outcome, like a provider's test cards: {@code card_ok},
 * {@code card_declined}, {@code card_timeout} (never charged), {@code card_late_success} and
 * {@code card_pending} (captured later, reported by webhook only). Any other method gets an
 * outcome drawn from the configured rates.
 *
 * <p>Configured as {@code boxoffice.payments.provider: simulator}, its settings under
 * {@code boxoffice.payments.simulator.*} ({@link Settings}). Thread-safe. Calls block for the
 * simulated latency on the caller's thread; late captures and webhook deliveries run on the
 * simulator's own scheduler.
 */
public final class SimulatedPaymentGateway implements PaymentProvider {

    private static final Logger LOG = Logger.getLogger(SimulatedPaymentGateway.class.getName());

    /** Its name in {@code boxoffice.payments.provider}. */
    public static final String NAME = "simulator";

    /**
     * The simulated provider's behaviour ({@code boxoffice.payments.simulator.*}). Rates are
     * probabilities between 0 and 1, drawn per charge for payment methods that do not name an outcome.
     *
     * @param minLatency      shortest time a charge or refund takes
     * @param maxLatency      longest time a charge or refund takes
     * @param declineRate     share of charges declined
     * @param timeoutRate     share of charges whose answer never reaches the caller
     * @param lateSuccessRate share of those timed-out charges that succeed afterwards ("late success")
     * @param lateDelay       how long after the timeout a late success (or a pending charge) is captured
     * @param refundFailureRate share of refund calls that fail without refunding (the caller retries)
     * @param duplicateRate   share of webhook events delivered twice
     * @param webhookJitter   each delivery waits a random time up to this, so events arrive out of order
     * @param webhookAttempts deliveries of one event until it is given up (retried while the service answers non-2xx)
     * @param webhookUrl      where events are posted; null for the service's own webhook on loopback
     *                        (told by {@link #webhookAt} once the server listens)
     * @param seed            random seed (0: a new one each start)
     */
    public record Settings(Duration minLatency, Duration maxLatency, double declineRate, double timeoutRate,
                           double lateSuccessRate, Duration lateDelay, double refundFailureRate, double duplicateRate,
                           Duration webhookJitter, int webhookAttempts, URI webhookUrl, long seed)
            implements PaymentProvider.Settings {

        public Settings {
            for (double rate : new double[] {declineRate, timeoutRate, lateSuccessRate, refundFailureRate, duplicateRate}) {
                if (rate < 0 || rate > 1) {
                    throw new IllegalArgumentException("simulator rates are between 0 and 1: " + rate);
                }
            }
            if (maxLatency.compareTo(minLatency) < 0) {
                throw new IllegalArgumentException("simulator maxlatencymillis is below minlatencymillis");
            }
            if (webhookAttempts < 1) {
                throw new IllegalArgumentException("simulator webhookattempts must be at least 1");
            }
        }

        /** Fast, reliable and deterministic: what tests start from. */
        public static Settings reliable() {
            return new Settings(Duration.ZERO, Duration.ofMillis(5), 0, 0, 0, Duration.ofMillis(300), 0, 0,
                    Duration.ZERO, 8, null, 42);
        }

        /** Reads {@code boxoffice.payments.simulator.*}. */
        public static Settings from(Config sim) {
            String url = sim.get("webhookurl").asString().orElse("");
            return new Settings(
                    Duration.ofMillis(sim.get("minlatencymillis").asLong().orElse(50L)),
                    Duration.ofMillis(sim.get("maxlatencymillis").asLong().orElse(300L)),
                    sim.get("declinerate").asDouble().orElse(0.05),
                    sim.get("timeoutrate").asDouble().orElse(0.02),
                    sim.get("latesuccessrate").asDouble().orElse(0.5),
                    Duration.ofMillis(sim.get("latemillis").asLong().orElse(3_000L)),
                    sim.get("refundfailurerate").asDouble().orElse(0.0),
                    sim.get("duplicaterate").asDouble().orElse(0.1),
                    Duration.ofMillis(sim.get("jittermillis").asLong().orElse(300L)),
                    sim.get("webhookattempts").asInt().orElse(8),
                    url.isBlank() ? null : URI.create(url),
                    sim.get("seed").asLong().orElse(0L));
        }

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public PaymentProvider open(PaymentSettings payments, LongSupplier clock) {
            return new SimulatedPaymentGateway(payments.webhookSecret(), this, clock);
        }
    }

    private enum Outcome { OK, DECLINE, TIMEOUT, LATE_SUCCESS, PENDING }

    private static final Map<String, Outcome> TEST_CARDS = Map.of(
            "card_ok", Outcome.OK, "card_declined", Outcome.DECLINE, "card_timeout", Outcome.TIMEOUT,
            "card_late_success", Outcome.LATE_SUCCESS, "card_pending", Outcome.PENDING);

    /** A charge in the ledger; guarded by the gateway's lock. */
    private static final class Charge {
        final String id;
        final String key;
        final long amount;
        final String currency;
        final String method;
        final String reference;
        final long createdAt;
        ChargeStatus.State state;
        String declineReason;
        long refunded;
        /** The caller was told nothing (timeout); a retry with the key is told "still processing". */
        boolean callerGaveUp;

        Charge(String id, String key, long amount, String currency, String method, String reference, long createdAt) {
            this.id = id;
            this.key = key;
            this.amount = amount;
            this.currency = currency;
            this.method = method;
            this.reference = reference;
            this.createdAt = createdAt;
        }

        ChargeStatus status() {
            return new ChargeStatus(id, key, amount, currency, state, refunded, createdAt);
        }
    }

    private record Refund(String id, String chargeKey, long amount) {
    }

    /** One signed event as it was (first) sent, for tests that redeliver events. */
    public record SentEvent(String id, String type, String body) {
    }

    private final Settings settings;
    private final WebhookSignature signature;
    private final LongSupplier clock;
    private final Random random;
    private final ScheduledExecutorService scheduler;
    private final HttpClient http;
    private final Map<String, Charge> charges = new LinkedHashMap<>();
    private final Map<String, Refund> refunds = new LinkedHashMap<>();
    private static final java.security.SecureRandom IDS = new java.security.SecureRandom();
    private final AtomicInteger busy = new AtomicInteger();
    private final AtomicInteger delivered = new AtomicInteger();
    private final List<SentEvent> sent = new CopyOnWriteArrayList<>();
    private volatile URI webhook;
    private volatile boolean dropWebhooks;

    /** A simulator signing its webhook events with {@code webhookSecret}. */
    public SimulatedPaymentGateway(String webhookSecret, Settings settings, LongSupplier clock) {
        this.settings = settings;
        this.signature = new WebhookSignature(webhookSecret);
        this.clock = clock;
        this.random = this.settings.seed() == 0 ? new Random() : new Random(this.settings.seed());
        this.webhook = this.settings.webhookUrl();
        this.scheduler = Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "payment-simulator");
            t.setDaemon(true);
            return t;
        });
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    }

    // ------------------------------------------------------------------ the port

    @Override
    public ChargeResult charge(ChargeRequest request) {
        pause();
        Charge charge;
        Outcome outcome;
        synchronized (this) {
            Charge existing = charges.get(request.idempotencyKey());
            if (existing != null) {
                if (existing.amount != request.amountCents() || !existing.currency.equals(request.currency())) {
                    throw new IllegalArgumentException("idempotency key " + request.idempotencyKey()
                            + " was used for another amount");
                }
                return answer(existing);
            }
            outcome = decide(request.method());
            if (outcome == Outcome.TIMEOUT) {
                // the request was lost on its way: nothing is charged, a retry is a new request
                throw new PaymentGatewayException("payment provider timed out");
            }
            charge = new Charge("ch_" + randomId(), request.idempotencyKey(), request.amountCents(),
                    request.currency(), request.method(), request.reference(), clock.getAsLong());
            charges.put(charge.key, charge);
            switch (outcome) {
                case OK -> charge.state = ChargeStatus.State.CAPTURED;
                case DECLINE -> {
                    charge.state = ChargeStatus.State.DECLINED;
                    charge.declineReason = random.nextBoolean() ? "insufficient_funds" : "card_declined";
                }
                default -> {
                    charge.state = ChargeStatus.State.PENDING;
                    charge.callerGaveUp = outcome == Outcome.LATE_SUCCESS;
                }
            }
        }
        switch (outcome) {
            case OK -> emit(WebhookEvents.CAPTURED, charge, null);
            case DECLINE -> emit(WebhookEvents.DECLINED, charge, null);
            default -> later(settings.lateDelay().toMillis(), () -> capture(charge));
        }
        if (outcome == Outcome.LATE_SUCCESS) {
            throw new PaymentGatewayException("payment provider timed out");
        }
        synchronized (this) {
            return answer(charge);
        }
    }

    @Override
    public RefundResult refund(RefundRequest request) {
        pause();
        Refund refund;
        Charge charge;
        synchronized (this) {
            Refund existing = refunds.get(request.refundKey());
            if (existing != null) {
                return new RefundResult(existing.id(), existing.amount());
            }
            if (settings.refundFailureRate() > 0 && random.nextDouble() < settings.refundFailureRate()) {
                throw new PaymentGatewayException("payment provider unavailable (simulated refund failure)");
            }
            charge = charges.get(request.chargeKey());
            if (charge == null || charge.state != ChargeStatus.State.CAPTURED) {
                throw new IllegalArgumentException("no captured charge under " + request.chargeKey());
            }
            if (request.amountCents() <= 0 || request.amountCents() > charge.amount - charge.refunded) {
                throw new IllegalArgumentException("refund of " + request.amountCents() + " exceeds what is left of "
                        + charge.id);
            }
            charge.refunded += request.amountCents();
            refund = new Refund("re_" + randomId(), charge.key, request.amountCents());
            refunds.put(request.refundKey(), refund);
        }
        emit(WebhookEvents.REFUNDED, charge, refund);
        return new RefundResult(refund.id(), refund.amount());
    }

    @Override
    public synchronized Optional<ChargeStatus> status(String idempotencyKey) {
        return Optional.ofNullable(charges.get(idempotencyKey)).map(Charge::status);
    }

    @Override
    public synchronized List<ChargeStatus> charges(long since) {
        return charges.values().stream().filter(c -> c.createdAt >= since).map(Charge::status)
                .sorted(Comparator.comparingLong(ChargeStatus::createdAt)).toList();
    }

    // ------------------------------------------------------------------ behaviour

    private ChargeResult answer(Charge c) {
        return switch (c.state) {
            case CAPTURED -> new ChargeResult.Captured(c.id);
            case DECLINED -> new ChargeResult.Declined(c.id, c.declineReason);
            case PENDING -> {
                if (c.callerGaveUp) {
                    throw new PaymentGatewayException("payment provider is still processing this request");
                }
                yield new ChargeResult.Pending(c.id);
            }
        };
    }

    private Outcome decide(String method) {
        Outcome named = TEST_CARDS.get(method);
        if (named != null) {
            return named;
        }
        if (random.nextDouble() < settings.timeoutRate()) {
            return random.nextDouble() < settings.lateSuccessRate() ? Outcome.LATE_SUCCESS : Outcome.TIMEOUT;
        }
        return random.nextDouble() < settings.declineRate() ? Outcome.DECLINE : Outcome.OK;
    }

    private void capture(Charge charge) {
        synchronized (this) {
            if (charge.state != ChargeStatus.State.PENDING) {
                return;
            }
            charge.state = ChargeStatus.State.CAPTURED;
            charge.callerGaveUp = false;
        }
        emit(WebhookEvents.CAPTURED, charge, null);
    }

    private void pause() {
        long min = settings.minLatency().toMillis();
        long max = settings.maxLatency().toMillis();
        long millis;
        synchronized (this) {
            millis = max > min ? min + random.nextLong(max - min + 1) : min;
        }
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new PaymentGatewayException("interrupted while calling the payment provider", e);
            }
        }
    }

    // ------------------------------------------------------------------ webhooks

    private void emit(String type, Charge charge, Refund refund) {
        String id = "evt_" + randomId();
        StringBuilder body = new StringBuilder(256).append("{\"id\":\"").append(id).append("\",\"type\":\"")
                .append(type).append("\",\"created\":").append(clock.getAsLong()).append(",\"data\":{")
                .append("\"chargeId\":\"").append(charge.id).append("\",\"idempotencyKey\":\"")
                .append(escape(charge.key)).append("\",\"amount\":").append(charge.amount)
                .append(",\"currency\":\"").append(escape(charge.currency)).append('"');
        synchronized (this) {
            if (charge.declineReason != null) {
                body.append(",\"reason\":\"").append(charge.declineReason).append('"');
            }
        }
        if (refund != null) {
            body.append(",\"refundId\":\"").append(refund.id()).append("\",\"refundAmount\":").append(refund.amount());
        }
        String json = body.append("}}").toString();
        sent.add(new SentEvent(id, type, json));
        if (dropWebhooks) {
            return;
        }
        int copies;
        synchronized (this) {
            copies = settings.duplicateRate() > 0 && random.nextDouble() < settings.duplicateRate() ? 2 : 1;
        }
        for (int i = 0; i < copies; i++) {
            later(jitter(), () -> deliver(json, 1));
        }
    }

    private void deliver(String json, int attempt) {
        URI target = webhook;
        boolean ok = false;
        if (target != null) {
            try {
                byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(target)
                        .timeout(Duration.ofSeconds(10))
                        .header("Content-Type", "application/json")
                        .header(WebhookSignature.HEADER, signature.sign(bytes))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(bytes)).build(),
                        HttpResponse.BodyHandlers.discarding());
                ok = r.statusCode() / 100 == 2;
                if (!ok) {
                    LOG.fine(() -> "webhook answered " + r.statusCode() + "; retrying");
                }
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                    return;
                }
                LOG.log(Level.FINE, "webhook delivery failed; retrying", e);
            }
        }
        if (ok) {
            delivered.incrementAndGet();
        } else if (attempt < settings.webhookAttempts()) {
            long backoff = Math.min(10_000, 100L << Math.min(attempt, 7));
            later(backoff, () -> deliver(json, attempt + 1));
        } else {
            LOG.warning(() -> "webhook event given up after " + attempt + " deliveries: " + json);
        }
    }

    private long jitter() {
        long max = settings.webhookJitter().toMillis();
        synchronized (this) {
            return max > 0 ? random.nextLong(max + 1) : 0;
        }
    }

    private void later(long delayMillis, Runnable task) {
        busy.incrementAndGet();
        try {
            scheduler.schedule(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "payment simulator task failed", e);
                } finally {
                    busy.decrementAndGet();
                }
            }, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            busy.decrementAndGet();
            throw e;
        }
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    // ------------------------------------------------------------------ for the wiring, the demo and tests

    /** Posts events to {@code url} from now on. */
    public void deliverTo(URI url) {
        this.webhook = url;
    }

    /** Posts events to {@code webhook} from now on, unless {@code webhookurl} names another place. */
    @Override
    public void webhookAt(URI webhook) {
        if (settings.webhookUrl() == null) {
            this.webhook = webhook;
        }
    }

    /** While true, events are "lost": recorded as sent but never delivered. */
    public void dropWebhooks(boolean drop) {
        this.dropWebhooks = drop;
    }

    /** Every event sent so far, in the order it was emitted. */
    public List<SentEvent> sentEvents() {
        return List.copyOf(sent);
    }

    /** How many deliveries the service acknowledged. */
    public int deliveredCount() {
        return delivered.get();
    }

    /** Waits until no late capture or delivery is scheduled; false if still busy at the timeout. */
    public boolean awaitQuiet(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (busy.get() > 0) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** Total captured across the ledger. */
    public synchronized long capturedCents() {
        return charges.values().stream().filter(c -> c.state == ChargeStatus.State.CAPTURED).mapToLong(c -> c.amount).sum();
    }

    /** Total refunded across the ledger. */
    public synchronized long refundedCents() {
        return charges.values().stream().mapToLong(c -> c.refunded).sum();
    }

    /** How many charges the ledger holds. */
    public synchronized int chargeCount() {
        return charges.size();
    }

    /** The charges, for assertions. */
    public synchronized List<ChargeStatus> ledger() {
        return new ArrayList<>(charges.values().stream().map(Charge::status).toList());
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }

    /**
     * A charge's or an event's id as providers make them: random, so no one can guess the next one
     * (sequential ids let a forged event of an unknown type take a real capture's id before it
     * arrived), and no count of the provider's business shows in them.
     */
    private static String randomId() {
        byte[] b = new byte[12];
        IDS.nextBytes(b);
        return java.util.HexFormat.of().formatHex(b);
    }
}
