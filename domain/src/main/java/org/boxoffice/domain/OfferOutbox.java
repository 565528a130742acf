package org.boxoffice.domain;

import java.util.List;

/**
 * Offer mails waiting to be sent: a waitlist offer puts its mail here in the same transaction that
 * records the offer ({@link WaitlistRepository#offered}), so an offer never exists without its
 * notice; a dispatcher sends them later, with retries. The sibling of {@link TicketOutbox}; a
 * claimed mail is leased to one dispatcher at a time.
 */
public interface OfferOutbox {

    /** A mail to send; {@code attempts} counts this one. */
    record OfferMail(long mailId, long entryId, String holdId, String showId, String accountId, String recipient,
                     List<String> seatIds, long expiresAt, int attempts) {
        public OfferMail {
            seatIds = List.copyOf(seatIds);
        }
    }

    /** Claims up to {@code max} mails due at {@code now}, leasing each for {@code leaseMillis}. */
    List<OfferMail> claim(int max, long now, long leaseMillis);

    void sent(long mailId, long now);

    /** Records a failed send: retried at {@code retryAt}, or never again if {@code giveUp}. */
    void failed(long mailId, String error, long retryAt, boolean giveUp);
}
