package org.boxoffice.app.notify;

import org.boxoffice.domain.PhoneNumber;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * The demo's SMS provider ({@code boxoffice.sms.provider: simulator}, demo mode only): logs that a
 * message went, its id and its number masked (never its text, which may hold ticket codes), and keeps
 * the messages it was given by id, as a provider deduplicates them.
 */
public final class SimulatedSmsProvider implements SmsProvider {

    private static final Logger LOG = Logger.getLogger(SimulatedSmsProvider.class.getName());

    /** What was delivered: a message id, its number and text. */
    public record Sent(String messageId, PhoneNumber to, String text) {
    }

    private final Map<String, Sent> sent = new ConcurrentHashMap<>();

    @Override
    public void send(String messageId, PhoneNumber to, String text) {
        if (sent.putIfAbsent(messageId, new Sent(messageId, to, text)) == null) {
            // never the text: a ticket message's holds the codes that admit its fan
            LOG.info(() -> "SMS (simulated) " + messageId + " to " + to.masked() + ", " + text.length() + " characters");
        }
    }

    @Override
    public Duration longestSend() {
        return Duration.ZERO;
    }

    /** The messages delivered so far, by id. */
    public Map<String, Sent> sent() {
        return Map.copyOf(sent);
    }
}
