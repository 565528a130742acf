package org.boxoffice.grid.limits;

import com.hazelcast.map.EntryProcessor;

import java.util.Map;

/**
 * Takes one token from a key's bucket on the key's partition; returns 0 when the request may go
 * on, else the milliseconds until it may. Deterministic in its fields ({@code now} comes from the
 * caller), so a backup replaying it reaches the same bucket.
 *
 * @param perMinute the key's limit: tokens a minute, and the bucket's size
 * @param now       the asking member's clock
 */
public record TakeTokenProcessor(int perMinute, long now) implements EntryProcessor<String, RateBucket, Long> {

    @Override
    public Long process(Map.Entry<String, RateBucket> entry) {
        RateBucket current = entry.getValue() == null ? RateBucket.full(perMinute, now) : entry.getValue();
        RateBucket.Take take = current.take(perMinute, now);
        // a refused take still moves the count's time and refill: replicas must agree on it
        entry.setValue(take.next());
        return take.retryAfterMillis();
    }
}
