package org.boxoffice.domain;

/**
 * A hold's status as the referee records it. What its owner sees folds in lazy expiry
 * ({@link HoldRecord#statusAt}): an ACTIVE hold shows as HELD until it lapses, then as EXPIRED,
 * before any sweeper has written it.
 */
public enum HoldStatus {
    /** Holds its seats until its expiry (plus grace). */
    ACTIVE,
    /** Given back by its owner (or rolled back, or taken off by an admin block). */
    RELEASED,
    /** Lapsed and returned to sale by the sweeper or a later claim. */
    EXPIRED,
    /** Sold: the seats belong to a booking. */
    CONFIRMED;

    /** What the owner of a hold with this status sees at {@code now}. */
    public HoldState shownAt(long expiresAt, long graceMillis, long now) {
        return switch (this) {
            case ACTIVE -> HoldPolicy.lapsed(expiresAt, graceMillis, now) ? HoldState.EXPIRED : HoldState.HELD;
            case RELEASED -> HoldState.RELEASED;
            case EXPIRED -> HoldState.EXPIRED;
            case CONFIRMED -> HoldState.CONFIRMED;
        };
    }
}
