package org.boxoffice.app.notify;

import org.boxoffice.domain.PhoneNumber;

import java.time.Duration;

/**
 * Where text messages leave the service. Called on the SMS dispatcher's thread, never on a booking's.
 * An implementation must pass {@code messageId} on to the provider so that a message sent again
 * (its answer was lost, or its lease ran out) is delivered once.
 */
public interface SmsProvider extends AutoCloseable {

    /** Sends {@code text} to {@code to}; throws if it was not accepted, or may not have been. */
    void send(String messageId, PhoneNumber to, String text) throws SmsException;

    /** The longest one {@link #send} can take, its retries included. */
    Duration longestSend();

    @Override
    default void close() {
    }

    /** A message not accepted by the provider (or its answer lost). Its text never holds the phone number. */
    final class SmsException extends Exception {
        public SmsException(String message) {
            super(message);
        }

        public SmsException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
