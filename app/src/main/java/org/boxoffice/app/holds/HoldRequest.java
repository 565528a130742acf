package org.boxoffice.app.holds;

import java.util.List;

/** What a buyer asks to hold: named seats, or the best adjacent ones the service can find. */
public sealed interface HoldRequest {

    record Seats(List<String> seatIds) implements HoldRequest {
    }

    /** @param section a section name, or null for any */
    record BestAvailable(int quantity, String section) implements HoldRequest {
    }
}
