package org.boxoffice.bench.check;

import java.util.List;

/**
 * A hold the system acknowledged to a buyer (201): from then on the buyer owns these seats (or
 * this many admissions of a general-admission area) until it releases the hold or the hold expires.
 *
 * @param expiresAt epoch millis, as the system reported it
 * @param quantity  admissions of a hold by count; for a hold of seats, the number of seats
 */
public record AckedHold(String holdId, String accountId, List<String> seatIds, long expiresAt, int quantity) {

    public AckedHold {
        seatIds = List.copyOf(seatIds);
    }

    public AckedHold(String holdId, String accountId, List<String> seatIds, long expiresAt) {
        this(holdId, accountId, seatIds, expiresAt, seatIds.size());
    }
}
