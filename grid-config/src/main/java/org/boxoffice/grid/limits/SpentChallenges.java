package org.boxoffice.grid.limits;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;

import java.util.concurrent.TimeUnit;

/**
 * Challenges already used, cluster-wide ({@value #MAP}): each is spent once, by a
 * {@code putIfAbsent} on its id's partition, so a replay is refused whatever member it reaches.
 * An entry lives until its challenge would have expired anyway (plus a minute for clock skew),
 * so the map holds at most the challenges of the last few minutes. A challenge the grid sees for
 * the first time is also spent in the {@link Ledger} (PostgreSQL), which refuses it if it was
 * spent before the grid lost its entry (more members gone at once than there are backups).
 */
public final class SpentChallenges {

    public static final String MAP = "spent-challenges";
    private static final long SKEW_MILLIS = 60_000;

    /** Spent challenges on the durable referee. */
    @FunctionalInterface
    public interface Ledger {
        /** Nothing beyond the grid (grid tests of other parts). */
        Ledger NONE = (id, expiresAt) -> true;

        /** Spends {@code id}; false if it was spent before. */
        boolean firstUse(String id, long expiresAt);
    }

    private final IMap<String, Long> spent;
    private final Ledger ledger;

    public SpentChallenges(HazelcastInstance hz) {
        this(hz, Ledger.NONE);
    }

    public SpentChallenges(HazelcastInstance hz, Ledger ledger) {
        this.spent = hz.getMap(MAP);
        this.ledger = ledger;
    }

    /** Spends the challenge {@code id} valid until {@code expiresAt}; false if it was spent before. */
    public boolean spend(String id, long expiresAt, long now) {
        long ttl = Math.max(1_000, expiresAt - now) + SKEW_MILLIS;
        return spent.putIfAbsent(id, expiresAt, ttl, TimeUnit.MILLISECONDS) == null && ledger.firstUse(id, expiresAt);
    }
}
