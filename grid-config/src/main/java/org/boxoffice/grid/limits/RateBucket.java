package org.boxoffice.grid.limits;

/**
 * A token bucket's state: the tokens left and when they were counted. Immutable; a take returns a
 * new bucket. The bucket holds at most {@code perMinute} tokens and refills at {@code perMinute}
 * a minute, so a client may burst a minute's worth and then go on at the rate.
 *
 * @param tokens    tokens left at {@code updatedAt} (fractions count: the refill is continuous)
 * @param updatedAt when they were counted, epoch millis of the member that asked
 */
public record RateBucket(double tokens, long updatedAt) {

    /** The outcome of one take: the bucket after it, and 0 if allowed, else milliseconds until a token is there. */
    public record Take(RateBucket next, long retryAfterMillis) {
        public boolean allowed() {
            return retryAfterMillis == 0;
        }
    }

    /** A full bucket at {@code now}. */
    public static RateBucket full(int perMinute, long now) {
        return new RateBucket(perMinute, now);
    }

    /**
     * Takes one token at {@code now}. Time never runs backwards for a bucket: members' clocks differ
     * a little, and a request stamped earlier than the bucket's last count refills nothing.
     */
    public Take take(int perMinute, long now) {
        long at = Math.max(now, updatedAt);
        double refilled = Math.min(perMinute, tokens + (at - updatedAt) * perMinute / 60_000.0);
        if (refilled >= 1) {
            return new Take(new RateBucket(refilled - 1, at), 0);
        }
        long wait = (long) Math.ceil((1 - refilled) * 60_000.0 / perMinute);
        return new Take(new RateBucket(refilled, at), Math.max(1, wait));
    }
}
