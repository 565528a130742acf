package org.boxoffice.app.payments;

import io.helidon.config.Config;

import java.net.URI;
import java.time.Duration;

/**
 * How the service talks to its payment provider ({@code boxoffice.payments.*}).
 *
 * @param provider      which {@link org.boxoffice.domain.PaymentGateway} to use; only {@code simulator} is built in
 * @param webhookSecret the secret webhook bodies are signed with (shared with the provider)
 * @param chargeTimeout how long a checkout waits for the provider's answer before it answers PENDING
 * @param simulator     how the built-in simulated provider behaves
 */
public record PaymentSettings(String provider, String webhookSecret, Duration chargeTimeout, Simulator simulator) {

    /** The public demo value of {@code boxoffice.payments.webhooksecret}: accepted in demo mode only. */
    public static final String DEMO_WEBHOOK_SECRET = "boxoffice-demo-webhook-secret-change-me";

    /**
     * The simulated provider's behaviour. Rates are probabilities between 0 and 1, drawn per charge
     * for payment methods that do not name an outcome (see {@link SimulatedPaymentGateway}).
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
     * @param webhookUrl      where events are posted; null for http://127.0.0.1:{server.port}/v1/payments/webhook
     * @param seed            random seed (0: a new one each start)
     */
    public record Simulator(Duration minLatency, Duration maxLatency, double declineRate, double timeoutRate,
                            double lateSuccessRate, Duration lateDelay, double refundFailureRate, double duplicateRate,
                            Duration webhookJitter, int webhookAttempts, URI webhookUrl, long seed) {

        public Simulator {
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
        public static Simulator reliable() {
            return new Simulator(Duration.ZERO, Duration.ofMillis(5), 0, 0, 0, Duration.ofMillis(300), 0, 0,
                    Duration.ZERO, 8, null, 42);
        }
    }

    public PaymentSettings {
        if (!"simulator".equals(provider)) {
            throw new IllegalArgumentException("boxoffice.payments.provider: only 'simulator' is built in, not '"
                    + provider + "' (a real provider needs an adapter, see docs/checkout.md)");
        }
        new WebhookSignature(webhookSecret);
    }

    /** Reads {@code boxoffice.payments.*}; {@code serverPort} makes the default webhook URL. */
    public static PaymentSettings from(Config payments, int serverPort) {
        Config sim = payments.get("simulator");
        String url = sim.get("webhookurl").asString().orElse("");
        return new PaymentSettings(
                payments.get("provider").asString().orElse("simulator"),
                payments.get("webhooksecret").asString().orElse(DEMO_WEBHOOK_SECRET),
                Duration.ofMillis(payments.get("timeoutmillis").asLong().orElse(10_000L)),
                new Simulator(
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
                        url.isBlank() ? defaultWebhook(serverPort) : URI.create(url),
                        sim.get("seed").asLong().orElse(0L)));
    }

    /** The service's own webhook on loopback, or null while the port is not known (0: chosen at start). */
    static URI defaultWebhook(int serverPort) {
        return serverPort > 0 ? URI.create("http://127.0.0.1:" + serverPort + "/v1/payments/webhook") : null;
    }
}
