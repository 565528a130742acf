package org.boxoffice.grid;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.map.IMap;
import org.boxoffice.domain.AdmissionArea;

import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;

/**
 * How few admissions each general-admission area is known to have, so that a request for more than
 * a sold-out area has is refused with one small read instead of the claim's round trips over every
 * stripe (the account's allowance, the stripes, and giving both back). In an on-sale with a crowd
 * many times the capacity, nearly every request is such a refusal.
 *
 * <p>The contract: a mark says "fewer than q left" only while that is true for a request that
 * starts now. Admissions only leave an area between give-backs, so a count stays an upper bound
 * until one of these, and each ends it:
 * <ul>
 *   <li>a give-back (release, roll-back, expiry, returned sale, a stripe reloaded from the referee,
 *       a resize or rebalancing): {@link #clear} draws a new epoch <em>after</em> the stripes changed
 *       and <em>before</em> the give-back is acknowledged, so a request that starts after the
 *       acknowledgement never reads the old count;
 *   <li>a hold lapsing with no command at all (lazy expiry): a mark is kept only until the earliest
 *       lapse among the holds it counted as keeping admissions;
 *   <li>a count taken before a give-back and written after it: {@link #mark} writes only over the
 *       epoch it read before it counted, so it never lands on a newer one.
 * </ul>
 * A mark also ends {@link #TRUST_MILLIS} after it was written, whatever happens: what the grid could
 * lose in a failure beyond its backups, or a merge after a split, costs at most that long.
 *
 * <p>Thread-safe; every call is one grid operation on the area's mark.
 */
public final class SoldOutMarks {

    private static final Logger LOG = Logger.getLogger(SoldOutMarks.class.getName());

    /** The longest a mark is believed, whatever else happens. */
    static final long TRUST_MILLIS = 1_000;

    /** What an area with no mark at all reads as: nothing known, epoch 0. */
    static final SoldOutMark NONE = SoldOutMark.cleared(0);

    private final IMap<String, SoldOutMark> map;

    public SoldOutMarks(HazelcastInstance hz) {
        this.map = hz.getMap(GridMaps.SOLD_OUT_MARKS);
        // the other side's marks may have won the merge while this side gave admissions back
        hz.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.MERGED) {
                map.clear();
            }
        });
    }

    private static String id(AdmissionArea area) {
        return area.showId() + "/" + area.name();
    }

    /** The area's mark now ({@link #NONE} if it has none). */
    SoldOutMark read(AdmissionArea area) {
        SoldOutMark mark = map.get(id(area));
        return mark == null ? NONE : mark;
    }

    /**
     * Records that the area had only {@code left} admissions, counted after {@code seen} was read,
     * until {@code lapse} (the earliest lapse of a hold the count left out) or for
     * {@link #TRUST_MILLIS}, whichever ends first; nothing if the mark changed since {@code seen}.
     */
    void mark(AdmissionArea area, SoldOutMark seen, int left, long lapse, long now) {
        SoldOutMark next = new SoldOutMark(seen.epoch(), left, Math.min(lapse, now + TRUST_MILLIS));
        if (seen == NONE) {
            map.putIfAbsent(id(area), next);
        } else {
            map.replace(id(area), seen, next);
        }
    }

    /**
     * Ends what the area's mark says: admissions were given back. Called after the stripes changed
     * and before the change is acknowledged. If the grid cannot take it now, the old mark lasts at
     * most until its end ({@link #TRUST_MILLIS}).
     */
    void clear(AdmissionArea area) {
        clear(area.showId(), area.name());
    }

    void clear(String showId, String area) {
        long epoch = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        try {
            map.set(showId + "/" + area, SoldOutMark.cleared(epoch));
        } catch (RuntimeException e) {
            LOG.warning("could not end the sold-out mark of area " + showId + "/" + area + " (it ends by itself within "
                    + TRUST_MILLIS + " ms): " + e.getMessage());
        }
    }
}
