package org.boxoffice.app.checkout;

import org.boxoffice.domain.TicketTransfer;

import java.time.Instant;

/** A ticket transfer as the API shows it. */
public record TransferView(long transferId, long bookingId, String showId, String seatId, String fromAccountId,
                           String toAccountId, String status, String reason, Instant createdAt, Instant decidedAt) {

    static TransferView of(TicketTransfer t) {
        return new TransferView(t.transferId(), t.bookingId(), t.showId(), t.seatId(), t.fromAccount(), t.toAccount(),
                t.status().name(), t.reason(), Instant.ofEpochMilli(t.createdAt()),
                t.decidedAt() == 0 ? null : Instant.ofEpochMilli(t.decidedAt()));
    }
}
