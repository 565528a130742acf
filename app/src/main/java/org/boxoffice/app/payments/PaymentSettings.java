package org.boxoffice.app.payments;

import io.helidon.config.Config;

import java.time.Duration;
import java.util.Objects;

/**
 * How the service talks to its payment provider ({@code boxoffice.payments.*}).
 *
 * @param webhookSecret the secret webhook bodies are signed with (shared with the provider)
 * @param chargeTimeout how long a checkout waits for the provider's answer before it answers PENDING
 * @param provider      the provider {@code boxoffice.payments.provider} names, with its own settings
 *                      ({@code boxoffice.payments.<name>.*}; see {@link PaymentProviders})
 */
public record PaymentSettings(String webhookSecret, Duration chargeTimeout, PaymentProvider.Settings provider) {

    /** The public demo value of {@code boxoffice.payments.webhooksecret}: accepted in demo mode only. */
    public static final String DEMO_WEBHOOK_SECRET = "boxoffice-demo-webhook-secret-change-me";

    public PaymentSettings {
        new WebhookSignature(webhookSecret);
        Objects.requireNonNull(chargeTimeout, "chargeTimeout");
        Objects.requireNonNull(provider, "provider");
    }

    /**
     * Reads {@code boxoffice.payments.*}.
     *
     * @throws IllegalArgumentException if {@code provider} names no provider, or a setting is out of range
     */
    public static PaymentSettings from(Config payments) {
        return new PaymentSettings(
                payments.get("webhooksecret").asString().orElse(DEMO_WEBHOOK_SECRET),
                Duration.ofMillis(payments.get("timeoutmillis").asLong().orElse(10_000L)),
                PaymentProviders.settings(payments));
    }

    /** The simulated provider, fast and reliable, with a secret for tests: what tests and embedded use start from. */
    public static PaymentSettings reliableSimulator() {
        return new PaymentSettings("test-webhook-secret-0123456789", Duration.ofSeconds(5),
                SimulatedPaymentGateway.Settings.reliable());
    }

    public PaymentSettings withWebhookSecret(String secret) {
        return new PaymentSettings(secret, chargeTimeout, provider);
    }

    public PaymentSettings withProvider(PaymentProvider.Settings provider) {
        return new PaymentSettings(webhookSecret, chargeTimeout, provider);
    }
}
