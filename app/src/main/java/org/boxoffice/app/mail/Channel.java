package org.boxoffice.app.mail;

import java.time.Duration;

/**
 * How a {@link MailDispatcher} delivers what it took from an outbox: SMTP ({@link SmtpChannel}), an
 * SMS provider, a fan's open page. Called on the dispatcher's thread, one message at a time.
 */
public interface Channel {

    /**
     * Delivers {@code content} to {@code recipient}. {@code messageId} is the same on every try of
     * one message, so a channel whose far end deduplicates (an SMS provider) never delivers it twice.
     * Throws if it was not delivered, or may not have been: the message is tried again later.
     */
    void deliver(String messageId, String recipient, MailContent content) throws Exception;

    /** The longest one delivery can take, retries included: a claimed message is leased for longer. */
    Duration longestDelivery();

    /** How a recipient reads in the log: masked, never the whole address or number. */
    default String shown(String recipient) {
        return Recipients.mask(recipient);
    }

    /**
     * A channel the operator turned off ({@code boxoffice.mail.enabled=false}, {@code boxoffice.sms.provider=off}):
     * it delivers nothing, and the dispatcher gives each of its messages up at once, saying why.
     */
    static Channel off(String why) {
        return new Channel() {
            @Override
            public void deliver(String messageId, String recipient, MailContent content) throws Off {
                throw new Off(why);
            }

            @Override
            public Duration longestDelivery() {
                return Duration.ZERO;
            }
        };
    }

    /** Thrown by a channel that is {@linkplain #off off}. */
    final class Off extends Exception {
        public Off(String why) {
            super(why);
        }
    }
}
