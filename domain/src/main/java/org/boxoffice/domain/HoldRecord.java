package org.boxoffice.domain;

import java.util.List;

/**
 * A hold as the referee (PostgreSQL) records it: of named seats, or of a number of admissions to a
 * general-admission area ({@code area} and {@code quantity}; no seats).
 *
 * @param status   as written; {@link #statusAt} folds in lazy expiry
 * @param area     the general-admission area of a hold by count, or null for a hold of seats
 * @param quantity the admissions a hold by count takes (0 for a hold of seats)
 */
public record HoldRecord(String holdId, String showId, String accountId, List<String> seatIds,
                         long expiresAt, HoldStatus status, long createdAt, long totalCents, String currency,
                         String area, int quantity) {

    /** A hold of seats. */
    public HoldRecord(String holdId, String showId, String accountId, List<String> seatIds, long expiresAt,
                      HoldStatus status, long createdAt, long totalCents, String currency) {
        this(holdId, showId, accountId, seatIds, expiresAt, status, createdAt, totalCents, currency, null, 0);
    }

    /** Whether this hold takes admissions to a general-admission area rather than seats. */
    public boolean byCount() {
        return area != null;
    }

    /** The status a client sees at {@code now}: an ACTIVE hold past its expiry plus grace is EXPIRED. */
    public HoldState statusAt(long now, long graceMillis) {
        return status.shownAt(expiresAt, graceMillis, now);
    }
}
