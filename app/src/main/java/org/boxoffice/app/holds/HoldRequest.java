package org.boxoffice.app.holds;

import java.util.List;

/**
 * What a buyer asks to hold: named seats, the best adjacent ones the service can find, or a number of
 * admissions to a general-admission area.
 */
public sealed interface HoldRequest {

    record Seats(List<String> seatIds) implements HoldRequest {
    }

    /** @param section a section name, or null for any */
    record BestAvailable(int quantity, String section) implements HoldRequest {
    }

    /** {@code quantity} admissions to the general-admission area {@code area}. */
    record Admissions(String area, int quantity) implements HoldRequest {
    }
}
