package org.boxoffice.domain;

import java.util.List;

/**
 * Ticket mails waiting to be sent. A booking puts its mail here in the same transaction that makes
 * the booking, so a booking never exists without its mail; a dispatcher sends them later, with
 * retries, so a slow or absent mail server never holds up a booking. Thread-safe; several
 * dispatchers (one per member) may run at once: a claimed mail is leased to one of them.
 */
public interface TicketOutbox {

    /** A mail to send: the booking's tickets to {@code recipient}; {@code attempts} counts this one. */
    record TicketMail(long mailId, long bookingId, String recipient, int attempts) {
    }

    /**
     * Claims up to {@code max} mails that are due at {@code now}, leasing each for
     * {@code leaseMillis} (a dispatcher that dies mid-send leaves it to be claimed again).
     */
    List<TicketMail> claim(int max, long now, long leaseMillis);

    void sent(long mailId, long now);

    /** Records a failed send: retried at {@code retryAt}, or never again if {@code giveUp}. */
    void failed(long mailId, String error, long retryAt, boolean giveUp);
}
