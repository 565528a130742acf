package org.boxoffice.app.notify;

import io.helidon.config.Config;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * What messages beside the ticket mail read from configuration: {@code boxoffice.sms.*} (the SMS
 * provider) and {@code boxoffice.notices.*} (notices of lapsing holds and offers, and how long sent
 * messages are kept).
 *
 * @param sms        the SMS provider and how its outbox is sent
 * @param offerLead  a waitlist fan is told this long before their offer lapses
 * @param every      how often pages are told of notices and offers about to lapse are looked for
 * @param keepSent   how long a sent message stays in the outbox ({@code boxoffice.notices.keepsentdays}, at least a day)
 * @param purgeEvery how often messages sent longer ago than that are deleted
 */
public record NotifySettings(SmsSettings sms, Duration offerLead, Duration every, Duration keepSent, Duration purgeEvery) {

    /** The public demo value of {@code boxoffice.sms.http.apikey}: the HTTP provider refuses it outside demo mode. */
    public static final String DEMO_SMS_API_KEY = "boxoffice-demo-sms-api-key";

    public NotifySettings {
        if (offerLead.isNegative() || every.isNegative() || every.isZero()) {
            throw new IllegalArgumentException("boxoffice.notices durations must be positive");
        }
        // a day at least: a message deleted sooner could be written and told again (MessageRetention)
        if (keepSent.compareTo(Duration.ofDays(1)) < 0 || purgeEvery.isNegative() || purgeEvery.isZero()) {
            throw new IllegalArgumentException("boxoffice.notices.keepsentdays must be at least 1 and "
                    + "boxoffice.notices.purgeminutes positive");
        }
    }

    /**
     * The SMS provider.
     *
     * @param provider    {@code simulator} (logs; the default, for demo mode only), {@code http}, or {@code off}
     *                    (no SMS: a message for a phone number is given up at once, saying why)
     * @param url         the HTTP provider's endpoint (a JSON POST per message)
     * @param apiKey      sent as {@code Authorization: Bearer <apiKey>}
     * @param timeout     one HTTP call's timeout
     * @param retries     calls after the first one within one send, with backoff (then the outbox retries later)
     * @param every       how often the SMS outbox is polled
     * @param retryFor    how long after it was written a message that cannot be sent is tried again
     */
    public record SmsSettings(String provider, URI url, String apiKey, Duration timeout, int retries,
                              Duration every, Duration retryFor) {

        public SmsSettings {
            provider = provider.trim().toLowerCase(Locale.ROOT);
            if (!provider.equals("simulator") && !provider.equals("http") && !provider.equals("off")) {
                throw new IllegalArgumentException("boxoffice.sms.provider is 'simulator', 'http' or 'off', not '"
                        + provider + "'");
            }
            if (provider.equals("http") && url == null) {
                throw new IllegalArgumentException("boxoffice.sms.provider http needs boxoffice.sms.http.url");
            }
            if (retries < 0 || retryFor.isNegative() || retryFor.isZero()) {
                throw new IllegalArgumentException("boxoffice.sms.http.retries >= 0 and boxoffice.sms.retryhours > 0");
            }
        }

        /**
         * What keeps these settings from a start outside demo mode: with the HTTP provider, its key
         * missing or the public demo value. Its length is the provider's business, and the demo keeps
         * the demo key (it may try a provider with it), so it is not one of the service's own secrets.
         */
        public List<String> secretProblems() {
            boolean unset = apiKey == null || apiKey.isBlank();
            if (!http() || !unset && !apiKey.equals(DEMO_SMS_API_KEY)) {
                return List.of();
            }
            return List.of("boxoffice.sms.http.apikey is " + (unset ? "not set" : "the public demo value")
                    + "; set your SMS provider's key (BOXOFFICE_SMS_HTTP_APIKEY)");
        }

        public boolean http() {
            return provider.equals("http");
        }

        public boolean simulated() {
            return provider.equals("simulator");
        }

        public boolean off() {
            return provider.equals("off");
        }

        /** The simulated provider, polled every 500 ms. */
        public static SmsSettings simulator() {
            return new SmsSettings("simulator", null, DEMO_SMS_API_KEY, Duration.ofSeconds(5), 2,
                    Duration.ofMillis(500), Duration.ofHours(24));
        }

        /** The HTTP provider at {@code url}. */
        public SmsSettings withHttp(URI url, String apiKey, Duration timeout, int retries) {
            return new SmsSettings("http", url, apiKey, timeout, retries, every, retryFor);
        }

        public SmsSettings withApiKey(String apiKey) {
            return new SmsSettings(provider, url, apiKey, timeout, retries, every, retryFor);
        }

        /** No SMS ({@code boxoffice.sms.provider=off}). */
        public SmsSettings turnedOff() {
            return new SmsSettings("off", url, apiKey, timeout, retries, every, retryFor);
        }

        public SmsSettings withRetryFor(Duration retryFor) {
            return new SmsSettings(provider, url, apiKey, timeout, retries, every, retryFor);
        }
    }

    /** Reads the settings under {@code boxoffice}. */
    public static NotifySettings from(Config boxoffice) {
        Config sms = boxoffice.get("sms");
        Config notices = boxoffice.get("notices");
        return new NotifySettings(
                new SmsSettings(
                        sms.get("provider").asString().orElse("simulator"),
                        sms.get("http.url").asString().map(String::trim).filter(s -> !s.isEmpty()).map(URI::create)
                                .orElse(null),
                        sms.get("http.apikey").asString().orElse(DEMO_SMS_API_KEY),
                        Duration.ofMillis(sms.get("http.timeoutmillis").asLong().orElse(5_000L)),
                        sms.get("http.retries").asInt().orElse(2),
                        Duration.ofMillis(sms.get("millis").asLong().orElse(1_000L)),
                        Duration.ofHours(sms.get("retryhours").asLong().orElse(24L))),
                Duration.ofSeconds(notices.get("offerleadseconds").asLong().orElse(120L)),
                Duration.ofMillis(notices.get("millis").asLong().orElse(1_000L)),
                Duration.ofDays(notices.get("keepsentdays").asLong().orElse(30L)),
                Duration.ofMinutes(notices.get("purgeminutes").asLong().orElse(60L)));
    }

    /**
     * Defaults for tests and embedded use: simulated SMS, offers told 2 minutes ahead, looked at every
     * 250 ms; sent messages kept 30 days, looked for hourly.
     */
    public static NotifySettings defaults() {
        return new NotifySettings(SmsSettings.simulator(), Duration.ofMinutes(2), Duration.ofMillis(250),
                Duration.ofDays(30), Duration.ofHours(1));
    }

    /** What keeps these settings from a start outside demo mode: the SMS provider's key ({@link SmsSettings#secretProblems}). */
    public List<String> secretProblems() {
        return sms.secretProblems();
    }

    public NotifySettings withSms(SmsSettings sms) {
        return new NotifySettings(sms, offerLead, every, keepSent, purgeEvery);
    }

    public NotifySettings withOfferLead(Duration offerLead) {
        return new NotifySettings(sms, offerLead, every, keepSent, purgeEvery);
    }

    public NotifySettings withRetention(Duration keepSent, Duration purgeEvery) {
        return new NotifySettings(sms, offerLead, every, keepSent, purgeEvery);
    }
}
