package org.boxoffice.domain;

/**
 * Keeps the outbox of messages ({@link MailOutbox.Message}) from growing for ever: messages sent
 * before a moment are deleted. Messages not sent yet, and messages given up (kept for whoever looks
 * into why), stay. Safe on every member at once: a message is deleted once, whoever gets there
 * first. Thread-safe.
 *
 * <p>Deleting a sent message lets a message of the same kind, subject and channel be written again;
 * no fact is told again that late, so keeping sent messages a day or more keeps each notice once.
 */
public interface MessageRetention {

    /** Deletes the messages sent before {@code sentBefore} (epoch milliseconds); answers how many. */
    int deleteSentBefore(long sentBefore);
}
