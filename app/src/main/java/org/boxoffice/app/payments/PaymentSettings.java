package org.boxoffice.app.payments;

import io.helidon.config.Config;
import org.boxoffice.app.secrets.SecretSetting;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

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
    private static final SecretSetting WEBHOOK_SECRET =
            new SecretSetting("boxoffice.payments.webhooksecret", DEMO_WEBHOOK_SECRET);

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

    /**
     * What keeps these settings from a start outside demo mode: the webhook secret missing, the public
     * demo value or short ({@link SecretSetting#problem}); a known one forges the provider's word that
     * money arrived.
     */
    public List<String> secretProblems() {
        return WEBHOOK_SECRET.problem(webhookSecret).stream().toList();
    }

    /**
     * These settings with the webhook secret replaced by the demo's own if it is still the public demo
     * value ({@code secretOf} gives a setting's secret by its name). For demo mode only.
     */
    public PaymentSettings withDemoSecrets(UnaryOperator<String> secretOf) {
        return withWebhookSecret(WEBHOOK_SECRET.replacingDemoValue(webhookSecret, secretOf));
    }

    public PaymentSettings withWebhookSecret(String secret) {
        return new PaymentSettings(secret, chargeTimeout, provider);
    }

    public PaymentSettings withProvider(PaymentProvider.Settings provider) {
        return new PaymentSettings(webhookSecret, chargeTimeout, provider);
    }
}
