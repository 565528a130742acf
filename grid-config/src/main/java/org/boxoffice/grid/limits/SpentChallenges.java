package org.boxoffice.grid.limits;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;

import java.util.concurrent.TimeUnit;

/**
 * Challenges already used, cluster-wide ({@value #MAP}): each is spent once, by a
 * {@code putIfAbsent} on its id's partition, so a replay is refused whatever member it reaches.
 * An entry lives until its challenge would have expired anyway (plus a minute for clock skew),
 * so the map holds at most the challenges of the last few minutes.
 */
public final class SpentChallenges {

    public static final String MAP = "spent-challenges";
    private static final long SKEW_MILLIS = 60_000;

    private final IMap<String, Long> spent;

    public SpentChallenges(HazelcastInstance hz) {
        this.spent = hz.getMap(MAP);
    }

    /** Spends the challenge {@code id} valid until {@code expiresAt}; false if it was spent before. */
    public boolean spend(String id, long expiresAt, long now) {
        long ttl = Math.max(1_000, expiresAt - now) + SKEW_MILLIS;
        return spent.putIfAbsent(id, expiresAt, ttl, TimeUnit.MILLISECONDS) == null;
    }
}
