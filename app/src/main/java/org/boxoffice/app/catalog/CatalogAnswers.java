package org.boxoffice.app.catalog;

import org.boxoffice.app.http.HttpCaching;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * This member's catalog answers as encoded bytes with their ETags, so a read costs a map look-up
 * and a copy to the socket rather than a query and a JSON encoding.
 *
 * <p>An answer is rebuilt, by the first reader to find it out of date, when:
 * <ul>
 *   <li>the catalog version moved (the search map changed anywhere in the cluster, or this
 *       member's show directory learned of a show): so every member answers a new show at once;
 *   <li>its basis is no longer the same object (a seat-map snapshot: answers that carry seat
 *       statuses or counts follow the snapshot, which is replaced at most once per refresh);
 *   <li>its content expires by the clock ({@link Built#validUntil}: a sale opens or closes, and
 *       {@code onSale} flips);
 *   <li>it is older than {@link #MAX_AGE_MILLIS}: change events are best effort, so a lost one
 *       costs at most that much staleness.
 * </ul>
 * Builds of one key run one at a time; readers of a current answer never wait. Thread-safe.
 */
public final class CatalogAnswers {

    static final long MAX_AGE_MILLIS = 30_000;
    /** Keys include free-text searches: past this many the cache starts over rather than grow without bound. */
    static final int MAX_ENTRIES = 10_000;

    private final LongSupplier version;
    private final LongSupplier clock;
    private final Map<String, Slot> slots = new ConcurrentHashMap<>();
    private final LongAdder builds = new LongAdder();

    /**
     * @param version the catalog's version: answers built at another version are rebuilt
     * @param clock   epoch millis
     */
    public CatalogAnswers(LongSupplier version, LongSupplier clock) {
        this.version = version;
        this.clock = clock;
    }

    /** What a build produces: the answer, and when its content expires by itself (epoch millis). */
    public record Built(HttpCaching.Encoded answer, long validUntil) {

        public static Built forever(HttpCaching.Encoded answer) {
            return new Built(answer, Long.MAX_VALUE);
        }
    }

    /** A current answer, and how many more seconds its content stays valid (for its cache lifetime). */
    public record Answer(HttpCaching.Encoded encoded, long secondsLeft) {
    }

    private record Entry(long version, Object basis, long builtAt, Built built) {
    }

    /** One key's current entry; its monitor serializes the key's builds. */
    private static final class Slot {
        volatile Entry entry;
    }

    /**
     * The answer under {@code key}, built by {@code build} if there is none or it is out of date.
     *
     * @param basis the object the answer was drawn from (a snapshot), compared by identity; null if none
     */
    public Answer get(String key, Object basis, Supplier<Built> build) {
        long now = clock.getAsLong();
        Slot slot = slots.get(key);
        if (slot == null) {
            if (slots.size() >= MAX_ENTRIES) {
                slots.clear();
            }
            slot = slots.computeIfAbsent(key, k -> new Slot());
        }
        Entry e = slot.entry;
        if (!current(e, basis, now)) {
            synchronized (slot) {
                e = slot.entry;
                if (!current(e, basis, now)) {
                    long v = version.getAsLong(); // read before building: a change during the build forces another
                    e = new Entry(v, basis, now, build.get());
                    slot.entry = e;
                    builds.increment();
                }
            }
        }
        long left = e.built().validUntil() == Long.MAX_VALUE ? Long.MAX_VALUE
                : Math.max(0, (e.built().validUntil() - now) / 1000);
        return new Answer(e.built().answer(), left);
    }

    private boolean current(Entry e, Object basis, long now) {
        return e != null && e.basis() == basis && e.version() == version.getAsLong() && now < e.built().validUntil()
                && now - e.builtAt() < MAX_AGE_MILLIS;
    }

    /** How many answers were built so far (tests: a hit builds nothing). */
    public long builds() {
        return builds.sum();
    }
}
