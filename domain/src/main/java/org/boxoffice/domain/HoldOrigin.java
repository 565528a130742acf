package org.boxoffice.domain;

/**
 * Where a hold came from: the fan held it, or the waitlist made it for them as an offer. The hold id
 * says which (the offer process names its holds {@code W…}, fans' holds are {@code H…}), so every
 * copy of a hold, booking or message knows its origin without a column of its own.
 */
public enum HoldOrigin {

    /** The fan held it themself. */
    FAN("fan"),
    /** The waitlist held it for the fan, the first in line it fitted: they buy it or it passes to the next. */
    WAITLIST_OFFER("waitlist-offer");

    /** The first letter of every hold the waitlist's offer process makes. */
    public static final String WAITLIST_OFFER_PREFIX = "W";

    private final String apiName;

    HoldOrigin(String apiName) {
        this.apiName = apiName;
    }

    /** The origin of the hold {@code holdId}. */
    public static HoldOrigin of(String holdId) {
        return holdId != null && holdId.startsWith(WAITLIST_OFFER_PREFIX) ? WAITLIST_OFFER : FAN;
    }

    /** The name the API gives it: {@code fan} or {@code waitlist-offer}. */
    public String apiName() {
        return apiName;
    }
}
