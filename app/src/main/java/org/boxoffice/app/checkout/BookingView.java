package org.boxoffice.app.checkout;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.boxoffice.domain.HoldOrigin;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * A booking as the API shows it. Tickets are listed while the booking is CONFIRMED: one per seat
 * the booking's account still holds, with its signed code and the address of its QR image; a ticket
 * transferred away is listed under {@code transfers}, the booking's history of tickets changing hands.
 * Its {@code origin} is its hold's: {@code fan}, or {@code waitlist-offer} when a waitlist offer was bought.
 */
public record BookingView(long bookingId, String holdId, String paymentId, String showId, String accountId,
                          String status, BigDecimal totalAmount, String currency, Instant createdAt,
                          Instant cancellableUntil, List<SeatLine> seats, List<TicketLine> tickets,
                          List<TransferView> transfers) {

    /** Where the booking's hold came from, as the API names it ({@link HoldOrigin}). */
    @JsonProperty("origin")
    public String origin() {
        return HoldOrigin.of(holdId).apiName();
    }

    public record SeatLine(String seatId, String section, String row, int number, BigDecimal price) {
    }

    public record TicketLine(String seatId, String code, String qr) {
    }
}
