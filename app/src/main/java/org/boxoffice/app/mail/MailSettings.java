package org.boxoffice.app.mail;

import java.time.Duration;

/**
 * How mails leave the service (keys under {@code boxoffice.mail}), shared by every kind of mail.
 *
 * @param host        SMTP server; empty: mails are logged instead of sent
 * @param recipient   where tickets go when the token has no {@code email} claim; {@code {accountId}} is replaced
 * @param timeout     connect, read and write timeout of one SMTP conversation
 * @param every       how often the outbox is polled
 * @param maxAttempts sends of one mail before it is given up (retries back off exponentially)
 */
public record MailSettings(String host, int port, String from, String recipient, String username, String password,
                           boolean startTls, Duration timeout, Duration every, int maxAttempts) {

    public boolean logOnly() {
        return host == null || host.isBlank();
    }

    /** No SMTP: mails are logged. */
    public static MailSettings logging() {
        return new MailSettings("", 25, "tickets@boxoffice.example", "{accountId}@example.test", "", "", false,
                Duration.ofSeconds(10), Duration.ofSeconds(1), 10);
    }

    public MailSettings withServer(String host, int port) {
        return new MailSettings(host, port, from, recipient, username, password, startTls, timeout, every, maxAttempts);
    }

    public MailSettings withTimeout(Duration timeout, Duration every, int maxAttempts) {
        return new MailSettings(host, port, from, recipient, username, password, startTls, timeout, every, maxAttempts);
    }

    @Override
    public String toString() {
        return "MailSettings[" + (logOnly() ? "log only" : host + ":" + port) + "]";
    }
}
