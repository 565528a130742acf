package org.boxoffice.domain;

import java.util.Optional;

/**
 * The limits a show applies to holds.
 *
 * @param maxSeatsPerHold at most this many seats in one hold
 * @param maxPerAccount   at most this many seats per account per show, across active holds and sales
 * @param holdMillis      how long a hold lasts
 * @param graceMillis     how long after expiry a held seat is still treated as held (clock skew
 *                        between members); after it the seat counts as available
 */
public record HoldPolicy(int maxSeatsPerHold, int maxPerAccount, long holdMillis, long graceMillis) {

    public HoldPolicy {
        if (maxSeatsPerHold < 1 || maxPerAccount < 1 || holdMillis < 1 || graceMillis < 0) {
            throw new IllegalArgumentException("hold limits must be positive");
        }
    }

    /**
     * The one rule for when a hold has lapsed: its expiry plus the grace has passed. Until then its
     * seats count as held everywhere (claims, sweeps, allowances, the API); from then on as free.
     */
    public static boolean lapsed(long expiresAt, long graceMillis, long now) {
        return lapsesAt(expiresAt, graceMillis) <= now;
    }

    /** The moment a hold expiring at {@code expiresAt} lapses: from then on {@link #lapsed} is true. */
    public static long lapsesAt(long expiresAt, long graceMillis) {
        return expiresAt + graceMillis;
    }

    /** Whether a hold expiring at {@code expiresAt} has lapsed under this show's grace. */
    public boolean lapsed(long expiresAt, long now) {
        return lapsed(expiresAt, graceMillis, now);
    }

    /** Rejects a hold of {@code seats} seats that breaks the per-hold limit. */
    public Optional<Rejection> checkSize(int seats) {
        return seats < 1 || seats > maxSeatsPerHold ? Optional.of(Rejection.TOO_MANY_SEATS) : Optional.empty();
    }
}
