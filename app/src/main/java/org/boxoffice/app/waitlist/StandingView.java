package org.boxoffice.app.waitlist;

import org.boxoffice.domain.WaitlistStanding;

import java.time.Instant;
import java.util.List;

/**
 * A waitlist entry as the API shows it.
 *
 * @param entryId  a string: flake ids do not fit a JavaScript number
 * @param position 1 for the next in line; 0 once offered or ended
 * @param section  the section asked for (null: any); null too for an entry of an area
 * @param area     the general-admission area whose admissions the entry waits for, or null: seats
 * @param offer    the offer, once one was made, else null
 * @param reason   why the entry ended, or null
 */
public record StandingView(String entryId, String showId, String accountId, int quantity, String section, String area,
                           String status, long position, Instant joinedAt, Offer offer, String reason) {

    /** An offer: a hold for the waiter, checked out like any hold ({@code seatIds} empty for an offer of admissions). */
    public record Offer(String holdId, List<String> seatIds, Instant expiresAt, String checkout) {
    }

    static StandingView of(WaitlistStanding s) {
        Offer offer = s.offerExpiresAt() == 0 ? null : new Offer(s.holdId(), s.seatIds(),
                Instant.ofEpochMilli(s.offerExpiresAt()), "/v1/holds/" + s.holdId() + "/checkout");
        return new StandingView(Long.toString(s.entry().entryId()), s.entry().showId(), s.entry().accountId(),
                s.entry().quantity(), s.entry().section(), s.entry().area(), s.state().name(), s.position(),
                Instant.ofEpochMilli(s.entry().joinedAt()), offer, s.reason());
    }
}
