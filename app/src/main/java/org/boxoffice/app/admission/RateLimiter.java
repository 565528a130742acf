package org.boxoffice.app.admission;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Token buckets per key on this member alone, {@code perMinute} requests a minute with bursts up to
 * the same number. Used for the per-address limit on holds, which costs no grid call: behind a load
 * balancer that spreads one client over n members its effective limit is up to n times higher. The
 * limits that must hold across the cluster (per account, and at the waiting room's door) are grid
 * buckets ({@link org.boxoffice.grid.limits.VelocityLimits}).
 */
public final class RateLimiter {

    private static final int MAX_KEYS = 500_000;

    private final int perMinute;
    private final LongSupplier clock;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    private static final class Bucket {
        double tokens;
        long updatedAt;

        Bucket(double tokens, long updatedAt) {
            this.tokens = tokens;
            this.updatedAt = updatedAt;
        }
    }

    public RateLimiter(int perMinute, LongSupplier clock) {
        this.perMinute = perMinute;
        this.clock = clock;
    }

    /** Takes one request; returns 0 if allowed, else the seconds to wait before the next one will be. */
    public long acquire(String key) {
        if (perMinute <= 0) {
            return 0;
        }
        long now = clock.getAsLong();
        if (buckets.size() > MAX_KEYS) {
            buckets.entrySet().removeIf(e -> now - e.getValue().updatedAt > 60_000);
        }
        Bucket b = buckets.computeIfAbsent(key, k -> new Bucket(perMinute, now));
        synchronized (b) {
            b.tokens = Math.min(perMinute, b.tokens + (now - b.updatedAt) * perMinute / 60_000.0);
            b.updatedAt = now;
            if (b.tokens >= 1) {
                b.tokens -= 1;
                return 0;
            }
            return (long) Math.ceil((1 - b.tokens) * 60.0 / perMinute);
        }
    }
}
