package org.boxoffice.app.checkout;

import io.helidon.config.Config;
import org.boxoffice.app.mail.MailSettings;
import org.boxoffice.app.payments.PaymentProvider;
import org.boxoffice.app.payments.PaymentSettings;
import org.boxoffice.app.secrets.SecretSetting;

import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * Everything checkout reads from configuration: {@code boxoffice.payments.*} (the provider),
 * {@code boxoffice.checkout.*} (hold extension, reconciliation), {@code boxoffice.tickets.*} and
 * {@code boxoffice.mail.*}, {@code boxoffice.transfers.*}. Keys are lower case so environment variables map onto them
 * ({@code BOXOFFICE_PAYMENTS_WEBHOOKSECRET}).
 *
 * @param paymentWindow   how far a hold is extended, once, when its first payment starts
 * @param reclaimHold     how long a late payment's re-claim of the seats holds them while it confirms
 * @param reconcileEvery  how often payments are reconciled with the provider (0: never by itself)
 * @param reconcileGrace  reconciliation leaves attempts alone until they are this old (live checkouts finish first)
 * @param settleLease     a settlement not finished after this long is taken over (its settler died)
 * @param abandonAfter    an attempt the provider never heard of is given up after this long
 * @param ticketSecret    the HMAC secret ticket codes are signed with
 * @param transfers       how often and until when tickets may change hands ({@code boxoffice.transfers.*})
 */
public record CheckoutSettings(PaymentSettings payments, Duration paymentWindow, Duration reclaimHold,
                               Duration reconcileEvery, Duration reconcileGrace, Duration settleLease,
                               Duration abandonAfter, String ticketSecret, MailSettings mail,
                               TransferSettings transfers) {

    /** The public demo value of {@code boxoffice.tickets.secret}: accepted in demo mode only. */
    public static final String DEMO_TICKET_SECRET = "boxoffice-demo-ticket-secret-change-me";
    private static final SecretSetting TICKET_SECRET = new SecretSetting("boxoffice.tickets.secret", DEMO_TICKET_SECRET);

    public CheckoutSettings {
        if (ticketSecret == null || ticketSecret.length() < 16) {
            throw new IllegalArgumentException("boxoffice.tickets.secret needs at least 16 characters");
        }
        if (paymentWindow.isNegative() || reclaimHold.isNegative() || reclaimHold.isZero()) {
            throw new IllegalArgumentException("checkout durations must be positive");
        }
    }

    /** Reads the settings under {@code boxoffice}. */
    public static CheckoutSettings from(Config boxoffice) {
        Config checkout = boxoffice.get("checkout");
        Config mail = boxoffice.get("mail");
        return new CheckoutSettings(
                PaymentSettings.from(boxoffice.get("payments")),
                Duration.ofSeconds(checkout.get("extendseconds").asLong().orElse(300L)),
                Duration.ofSeconds(checkout.get("reclaimseconds").asLong().orElse(60L)),
                Duration.ofMillis(checkout.get("reconcile.millis").asLong().orElse(30_000L)),
                Duration.ofSeconds(checkout.get("reconcile.graceseconds").asLong().orElse(60L)),
                Duration.ofSeconds(checkout.get("settleleaseseconds").asLong().orElse(30L)),
                Duration.ofSeconds(checkout.get("abandonseconds").asLong().orElse(3_600L)),
                boxoffice.get("tickets.secret").asString().orElse(DEMO_TICKET_SECRET),
                new MailSettings(
                        mail.get("host").asString().orElse(""),
                        mail.get("port").asInt().orElse(25),
                        mail.get("from").asString().orElse("tickets@boxoffice.example"),
                        mail.get("to").asString().orElse("{accountId}@example.test"),
                        mail.get("username").asString().orElse(""),
                        mail.get("password").asString().orElse(""),
                        mail.get("starttls").asBoolean().orElse(false),
                        Duration.ofMillis(mail.get("timeoutmillis").asLong().orElse(10_000L)),
                        Duration.ofMillis(mail.get("millis").asLong().orElse(1_000L)),
                        Duration.ofHours(mail.get("retryhours").asLong().orElse(MailSettings.DEFAULT_RETRY.toHours())),
                        mail.get("enabled").asBoolean().orElse(true),
                        mail.get("weburl").asString().orElse(MailSettings.DEFAULT_WEB_URL)),
                TransferSettings.from(boxoffice.get("transfers")));
    }

    /** Defaults for tests and embedded use: the simulated provider reliable and fast, mail logged, no periodic reconciliation. */
    public static CheckoutSettings defaults() {
        return new CheckoutSettings(
                PaymentSettings.reliableSimulator(),
                Duration.ofMinutes(5), Duration.ofSeconds(60), Duration.ZERO, Duration.ZERO, Duration.ofSeconds(30),
                Duration.ofHours(1), "test-ticket-secret-0123456789", MailSettings.logging(),
                TransferSettings.defaults());
    }

    /**
     * What keeps these settings from a start outside demo mode: the ticket codes' secret (a known one
     * forges tickets), then the payments' ({@link PaymentSettings#secretProblems}), each missing, the
     * public demo value or short ({@link SecretSetting#problem}).
     */
    public List<String> secretProblems() {
        return Stream.concat(TICKET_SECRET.problem(ticketSecret).stream(), payments.secretProblems().stream()).toList();
    }

    /**
     * These settings with the ticket codes' and the payments' secrets each replaced by the demo's own if
     * it is still its public demo value ({@code secretOf} gives a setting's secret by its name). For demo
     * mode only.
     */
    public CheckoutSettings withDemoSecrets(UnaryOperator<String> secretOf) {
        return withTicketSecret(TICKET_SECRET.replacingDemoValue(ticketSecret, secretOf))
                .withPayments(payments.withDemoSecrets(secretOf));
    }

    public CheckoutSettings withPayments(PaymentSettings payments) {
        return new CheckoutSettings(payments, paymentWindow, reclaimHold, reconcileEvery, reconcileGrace, settleLease,
                abandonAfter, ticketSecret, mail, transfers);
    }

    public CheckoutSettings withProvider(PaymentProvider.Settings provider) {
        return withPayments(payments.withProvider(provider));
    }

    public CheckoutSettings withPaymentWindow(Duration window) {
        return new CheckoutSettings(payments, window, reclaimHold, reconcileEvery, reconcileGrace, settleLease,
                abandonAfter, ticketSecret, mail, transfers);
    }

    public CheckoutSettings withReconcile(Duration every, Duration grace) {
        return new CheckoutSettings(payments, paymentWindow, reclaimHold, every, grace, settleLease, abandonAfter,
                ticketSecret, mail, transfers);
    }

    public CheckoutSettings withTicketSecret(String ticketSecret) {
        return new CheckoutSettings(payments, paymentWindow, reclaimHold, reconcileEvery, reconcileGrace, settleLease,
                abandonAfter, ticketSecret, mail, transfers);
    }

    public CheckoutSettings withTransfers(TransferSettings transfers) {
        return new CheckoutSettings(payments, paymentWindow, reclaimHold, reconcileEvery, reconcileGrace, settleLease,
                abandonAfter, ticketSecret, mail, transfers);
    }

    public CheckoutSettings withMail(MailSettings mail) {
        return new CheckoutSettings(payments, paymentWindow, reclaimHold, reconcileEvery, reconcileGrace, settleLease,
                abandonAfter, ticketSecret, mail, transfers);
    }
}
