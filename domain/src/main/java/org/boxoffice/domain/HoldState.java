package org.boxoffice.domain;

/**
 * A hold's status as its owner sees it at a moment ({@link HoldRecord#statusAt}): the referee's
 * {@link HoldStatus} with lazy expiry folded in, so an ACTIVE hold shows as HELD until it lapses
 * and as EXPIRED from then on, before any sweeper has written it.
 */
public enum HoldState {
    /** Holds its seats: ACTIVE and not lapsed. */
    HELD,
    /** Lapsed, whether or not the sweeper has written it yet. */
    EXPIRED,
    /** Given back by its owner (or rolled back, or taken off by an admin block). */
    RELEASED,
    /** Sold: the seats belong to a booking. */
    CONFIRMED
}
