package org.boxoffice.bench.check;

import java.util.List;

/**
 * A hold the system acknowledged to a buyer (201): from then on the buyer owns these seats until
 * it releases the hold or the hold expires.
 *
 * @param expiresAt epoch millis, as the system reported it
 */
public record AckedHold(String holdId, String accountId, List<String> seatIds, long expiresAt) {

    public AckedHold {
        seatIds = List.copyOf(seatIds);
    }
}
