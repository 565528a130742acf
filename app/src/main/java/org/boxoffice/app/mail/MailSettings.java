package org.boxoffice.app.mail;

import java.time.Duration;

/**
 * How mails leave the service (keys under {@code boxoffice.mail}), shared by every kind of mail.
 *
 * @param host      SMTP server; empty: mails are logged instead of sent (demo mode only: a start outside
 *                  demo mode refuses it unless mail is off)
 * @param recipient where tickets go when the token has no {@code email} claim; {@code {accountId}} is replaced
 * @param timeout   connect, read and write timeout of one SMTP conversation
 * @param every     how often the outbox is polled
 * @param retryFor  how long after it was written a mail that cannot be sent is still tried again (with
 *                  backoff, at most {@link MailDispatcher#MAX_BACKOFF} apart); then it is given up
 * @param enabled   {@code boxoffice.mail.enabled}: false turns email off (nothing is sent or logged;
 *                  every mail is given up at once, its error saying why)
 * @param webUrl    {@code boxoffice.mail.weburl}: the web app's address as fans reach it, for the links in
 *                  mails and texts (a show that admits live codes only sends a link to the fan's tickets)
 */
public record MailSettings(String host, int port, String from, String recipient, String username, String password,
                           boolean startTls, Duration timeout, Duration every, Duration retryFor, boolean enabled,
                           String webUrl) {

    /** How long a message that cannot be sent is tried again, unless configured otherwise. */
    public static final Duration DEFAULT_RETRY = Duration.ofHours(24);

    /** The demo's own address: {@code ./boxoffice run} serves the web app there. */
    public static final String DEFAULT_WEB_URL = "http://localhost:8080";

    /** The fan's page of booking {@code bookingId} in the web app, with its tickets' live codes. */
    public String ticketsLink(long bookingId) {
        return webUrl + "/#/booking/" + bookingId;
    }

    public MailSettings {
        if (retryFor.isNegative() || retryFor.isZero()) {
            throw new IllegalArgumentException("boxoffice.mail.retryhours must be positive");
        }
        webUrl = webUrl == null || webUrl.isBlank() ? DEFAULT_WEB_URL : webUrl.trim().replaceAll("/+$", "");
        if (!webUrl.startsWith("https://") && !webUrl.startsWith("http://")) {
            throw new IllegalArgumentException("boxoffice.mail.weburl is an http(s) address, not '" + webUrl + "'");
        }
    }

    public boolean logOnly() {
        return host == null || host.isBlank();
    }

    /** No SMTP: mails are logged (demo mode). */
    public static MailSettings logging() {
        return new MailSettings("", 25, "tickets@boxoffice.example", "{accountId}@example.test", "", "", false,
                Duration.ofSeconds(10), Duration.ofSeconds(1), DEFAULT_RETRY, true, DEFAULT_WEB_URL);
    }

    public MailSettings withServer(String host, int port) {
        return new MailSettings(host, port, from, recipient, username, password, startTls, timeout, every, retryFor, enabled, webUrl);
    }

    public MailSettings withTimeout(Duration timeout, Duration every, Duration retryFor) {
        return new MailSettings(host, port, from, recipient, username, password, startTls, timeout, every, retryFor, enabled, webUrl);
    }

    public MailSettings withWebUrl(String webUrl) {
        return new MailSettings(host, port, from, recipient, username, password, startTls, timeout, every, retryFor, enabled, webUrl);
    }

    public MailSettings withEnabled(boolean enabled) {
        return new MailSettings(host, port, from, recipient, username, password, startTls, timeout, every, retryFor, enabled, webUrl);
    }

    @Override
    public String toString() {
        return "MailSettings[" + (!enabled ? "off" : logOnly() ? "log only" : host + ":" + port) + "]";
    }
}
