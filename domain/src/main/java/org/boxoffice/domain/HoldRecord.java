package org.boxoffice.domain;

import java.util.List;

/**
 * A hold as the referee (PostgreSQL) records it.
 *
 * @param status ACTIVE, RELEASED, EXPIRED or CONFIRMED as written; {@link #statusAt} folds in lazy expiry
 */
public record HoldRecord(String holdId, String showId, String accountId, List<String> seatIds,
                         long expiresAt, String status, long createdAt, long totalCents, String currency) {

    /** The status a client sees at {@code now}: an ACTIVE hold past its expiry plus grace is EXPIRED. */
    public String statusAt(long now, long graceMillis) {
        if ("ACTIVE".equals(status)) {
            return HoldPolicy.lapsed(expiresAt, graceMillis, now) ? "EXPIRED" : "HELD";
        }
        return status;
    }
}
