package org.boxoffice.bench.check;

import java.util.List;

/**
 * A hold the system told its buyer was paid for: answered {@code 200 BOOKED} by checkout, or seen
 * {@code CONFIRMED} on {@code GET /v1/holds/{id}} after a {@code 202 PENDING}.
 *
 * @param bookingId the booking id of a 200 answer; null when the booking was seen through the hold
 * @param seatIds   the hold's seats, as its 201 named them
 */
public record AckedBooking(String holdId, String accountId, Long bookingId, List<String> seatIds) {

    public AckedBooking {
        seatIds = List.copyOf(seatIds);
    }
}
