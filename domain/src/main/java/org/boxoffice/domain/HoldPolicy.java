package org.boxoffice.domain;

import java.util.Optional;

/**
 * The limits a show applies to holds, and the one place that decides how long a hold lasts: every
 * kind of hold (a buyer's, its extension when payment starts, a late payment's re-claim, a waitlist
 * offer) takes its expiry from a method here, and {@link #lapsed} says when any of them has ended.
 * The windows that are not the show's own (payment, re-claim, offer) come from configuration and
 * are passed in.
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

    /** When a buyer's hold taken at {@code now} expires. */
    public long expiresAt(long now) {
        return now + holdMillis;
    }

    /**
     * A hold's new expiry once extended for its first payment: {@code windowMillis} past the expiry
     * it had, so a slow payer keeps the seats while money may be moving.
     */
    public long extendedForPayment(long expiresAt, long windowMillis) {
        return expiresAt + windowMillis;
    }

    /**
     * When the re-claim of a lapsed hold's seats, for money that arrived late, expires: it holds
     * them {@code reclaimMillis} from {@code now}, long enough to confirm them.
     */
    public long reclaimExpiresAt(long now, long reclaimMillis) {
        return now + reclaimMillis;
    }

    /**
     * When a waitlist offer made at {@code now} expires: {@code offerMillis} later, cut short by the
     * end of sales ({@code saleClosesAt}).
     */
    public long offerExpiresAt(long now, long offerMillis, long saleClosesAt) {
        return Math.min(now + offerMillis, saleClosesAt);
    }

    /** Rejects a hold of {@code seats} seats that breaks the per-hold limit. */
    public Optional<Rejection> checkSize(int seats) {
        return seats < 1 || seats > maxSeatsPerHold ? Optional.of(Rejection.TOO_MANY_SEATS) : Optional.empty();
    }
}
