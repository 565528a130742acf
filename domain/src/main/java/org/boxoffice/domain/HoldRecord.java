package org.boxoffice.domain;

import java.util.List;

/**
 * A hold as the referee (PostgreSQL) records it.
 *
 * @param status as written; {@link #statusAt} folds in lazy expiry
 */
public record HoldRecord(String holdId, String showId, String accountId, List<String> seatIds,
                         long expiresAt, HoldStatus status, long createdAt, long totalCents, String currency) {

    /** The status a client sees at {@code now}: an ACTIVE hold past its expiry plus grace is EXPIRED. */
    public HoldState statusAt(long now, long graceMillis) {
        return status.shownAt(expiresAt, graceMillis, now);
    }
}
