package org.boxoffice.domain;

import java.util.List;

/**
 * A waitlist entry as the referee (PostgreSQL) records it.
 *
 * @param position       1 for the next in line; 0 when the entry is not in line (offered or ended)
 * @param holdId         the offer's hold, once an offer was started, else null
 * @param seatIds        the offered seats (empty before an offer)
 * @param offerExpiresAt when the offer lapses (epoch millis), 0 before an offer
 * @param reason         why the entry ended, or null
 */
public record WaitlistStanding(WaitlistEntry entry, WaitlistEntry.State state, long position, String holdId,
                               List<String> seatIds, long offerExpiresAt, String reason, long updatedAt) {

    public WaitlistStanding {
        seatIds = seatIds == null ? List.of() : List.copyOf(seatIds);
    }
}
