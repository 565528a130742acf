package org.boxoffice.domain;

import java.util.List;

/**
 * Mails waiting to be sent, one outbox per kind of mail. Whatever a mail tells of puts it here in
 * the same transaction that records it (a booking its {@link TicketMail}, a waitlist offer its
 * {@link OfferMail}, see {@link WaitlistRepository#offered}), so the fact never exists without its
 * mail; a dispatcher sends them later, with retries, so a slow or absent mail server never holds
 * up a sale. Thread-safe; several dispatchers (one per member) may run at once: a claimed mail is
 * leased to one of them.
 *
 * @param <M> the kind of mail this outbox holds
 */
public interface MailOutbox<M extends MailOutbox.Mail> {

    /** What a dispatcher needs of every kind of mail. */
    interface Mail {

        long mailId();

        String recipient();

        /** Sends tried so far, this one included. */
        int attempts();
    }

    /** A booking's tickets, to {@code recipient}. */
    record TicketMail(long mailId, long bookingId, String recipient, int attempts) implements Mail {
    }

    /**
     * Seats, or {@code quantity} admissions to general-admission area {@code area} (then {@code seatIds}
     * is empty), held for a waiter until {@code expiresAt}, for them to buy or decline.
     */
    record OfferMail(long mailId, long entryId, String holdId, String showId, String accountId, String recipient,
                     List<String> seatIds, String area, int quantity, long expiresAt, int attempts) implements Mail {
        public OfferMail {
            seatIds = List.copyOf(seatIds);
        }
    }

    /**
     * A message of the shared outbox, told by one channel: a booking's tickets by SMS, a notice that
     * a hold lapsed, or a waitlist offer made (to the fan's page only) or about to lapse. One per kind,
     * subject and channel, whoever found the fact first.
     *
     * @param subject   the booking id ({@link Kind#TICKETS}) or the hold id
     * @param recipient the phone number (SMS), the address (email; null: the account's default) or null (a page)
     * @param expiresAt when the offer lapses ({@link Kind#OFFER_MADE}, {@link Kind#OFFER_LAPSING}), else 0
     * @param offer     what the offer holds ({@link Kind#OFFER_MADE}, {@link Kind#OFFER_LAPSING}, and {@link Kind#HOLD_LAPSED}
     *                  when the lapsed hold was a waitlist offer), else null
     */
    record Message(long mailId, Kind kind, Channel channel, String subject, String showId, String accountId,
                   String recipient, long expiresAt, Offered offer, int attempts) implements Mail {

        /** What a message tells of. */
        public enum Kind { TICKETS, HOLD_LAPSED, OFFER_MADE, OFFER_LAPSING }

        /** How it reaches the fan: their page open on the show (the live stream), email or SMS. */
        public enum Channel { PAGE, EMAIL, SMS }

        /** What a waitlist offer holds: its seats, or (then {@code seatIds} is empty) {@code quantity} admissions to {@code area}. */
        public record Offered(List<String> seatIds, String area, int quantity) {
            public Offered {
                seatIds = List.copyOf(seatIds);
            }
        }

        /** The same message to {@code recipient}. */
        public Message to(String recipient) {
            return new Message(mailId, kind, channel, subject, showId, accountId, recipient, expiresAt, offer, attempts);
        }
    }

    /** What waits in the outboxes of one channel: how many messages, and when the oldest was written (epoch ms; 0 if none). */
    record Backlog(int pending, long oldestWrittenAt) {
    }

    /**
     * Claims up to {@code max} mails that are due at {@code now}, leasing each for
     * {@code leaseMillis} (a dispatcher that dies mid-send leaves it to be claimed again).
     */
    List<M> claim(int max, long now, long leaseMillis);

    void sent(long mailId, long now);

    /** Marks every one of {@code mailIds} sent, at once: one statement (and commit) for a batch of sends. */
    default void sent(java.util.Collection<Long> mailIds, long now) {
        for (long id : mailIds) {
            sent(id, now);
        }
    }

    /**
     * Records a failed send: the mail is given up (never tried again) if it was written
     * {@code retryForMillis} ago or longer (by the outbox's own clock, the one that stamped it
     * written; 0: whenever it was written), else retried at {@code retryAt}. Answers whether it was
     * given up.
     */
    boolean failed(long mailId, String error, long retryAt, long retryForMillis);
}
