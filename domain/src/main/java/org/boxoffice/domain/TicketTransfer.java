package org.boxoffice.domain;

import java.util.Objects;

/**
 * A ticket offered by its holder to another account: {@code OFFERED} until the recipient accepts
 * (the ticket is theirs, with a new code), the sender cancels, or it is refused (the booking was
 * cancelled meanwhile, or reached its limit of transfers).
 *
 * @param decidedAt when it left {@code OFFERED}, else 0
 */
public record TicketTransfer(long transferId, long bookingId, String showId, String seatId, String fromAccount,
                             String toAccount, Status status, String reason, long createdAt, long decidedAt) {

    public enum Status { OFFERED, ACCEPTED, CANCELLED, REFUSED }

    public TicketTransfer {
        Objects.requireNonNull(seatId);
        Objects.requireNonNull(status);
    }
}
