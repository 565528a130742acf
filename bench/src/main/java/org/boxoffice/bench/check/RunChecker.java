package org.boxoffice.bench.check;

import org.boxoffice.domain.HoldPolicy;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a run's acknowledgements against the referee's rows after the run: what the buyers were
 * told must be what PostgreSQL holds. Pure: the caller loads the rows ({@link ReferenceState}).
 *
 * <p>Violations (each must be zero):
 * <ul>
 *   <li>a seat in two acknowledged holds that are both still live (held twice);</li>
 *   <li>an acknowledged hold with no row in the holds table (an acknowledgement the referee never
 *       recorded);</li>
 *   <li>an acknowledged, live hold whose seats are not HELD by that hold in the seat rows (lost);</li>
 *   <li>a hold released with 204 whose seats are still HELD by it;</li>
 *   <li>a seat listed by two ACTIVE, unexpired rows of the holds table.</li>
 * </ul>
 * A hold is live if it was not released and has not expired (expiresAt plus grace). A hold the
 * bench paid for may have become a booking, so its seats may be SOLD by it instead of HELD;
 * {@link BookingChecker} checks the bookings themselves. Seats HELD by
 * holds the bench never saw acknowledged (a response lost to a timeout, say) are counted, not
 * violations: they are held once, only nobody was told.
 */
public final class RunChecker {

    private static final int EXAMPLES = 10;

    /** A seat row: state and, for HELD or SOLD, the hold that owns it. */
    public record SeatRow(String seatId, String state, String holdId) {
    }

    /** A row of the holds table. */
    public record HoldRow(String holdId, String status, List<String> seatIds, long expiresAt) {
    }

    /** One kind of violation: how many, and a few examples for the report. */
    public record Finding(long count, List<String> examples) {
        static Finding of(List<String> all) {
            return new Finding(all.size(), List.copyOf(all.subList(0, Math.min(EXAMPLES, all.size()))));
        }
    }

    public record Report(long acknowledged, long released, long live, Finding heldTwice, Finding missingFromReferee,
                         Finding lostHolds, Finding releasedStillHeld, Finding activeRowsOverlap,
                         long unacknowledgedHeldSeats) {

        public long violations() {
            return heldTwice.count() + missingFromReferee.count() + lostHolds.count() + releasedStillHeld.count()
                    + activeRowsOverlap.count();
        }
    }

    private RunChecker() {
    }

    /**
     * @param released    ids of acknowledged holds the bench released (204)
     * @param seats       the show's seat rows by seat id
     * @param holds       the show's hold rows by hold id
     * @param now         epoch millis at the check
     * @param graceMillis how long past expiresAt a hold still counts as held
     */
    public static Report check(Collection<AckedHold> acked, Set<String> released, Map<String, SeatRow> seats,
                               Map<String, HoldRow> holds, long now, long graceMillis) {
        return check(acked, released, Set.of(), seats, holds, now, graceMillis);
    }

    /** @param paid ids of acknowledged holds the bench tried to pay for */
    public static Report check(Collection<AckedHold> acked, Set<String> released, Set<String> paid,
                               Map<String, SeatRow> seats, Map<String, HoldRow> holds, long now, long graceMillis) {
        List<String> heldTwice = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        List<String> lost = new ArrayList<>();
        List<String> releasedStillHeld = new ArrayList<>();
        Map<String, String> liveOwner = new HashMap<>();
        Set<String> ackedIds = new java.util.HashSet<>();
        long live = 0;
        for (AckedHold hold : acked) {
            ackedIds.add(hold.holdId());
            if (!holds.containsKey(hold.holdId())) {
                missing.add(hold.holdId());
            }
            boolean wasReleased = released.contains(hold.holdId());
            boolean expired = hold.expiresAt() > 0 && HoldPolicy.lapsed(hold.expiresAt(), graceMillis, now);
            for (String seatId : hold.seatIds()) {
                SeatRow row = seats.get(seatId);
                boolean heldByIt = row != null && "HELD".equals(row.state()) && hold.holdId().equals(row.holdId());
                boolean soldFromIt = row != null && "SOLD".equals(row.state()) && hold.holdId().equals(row.holdId())
                        && paid.contains(hold.holdId());
                if (wasReleased) {
                    if (heldByIt) {
                        releasedStillHeld.add(hold.holdId() + " " + seatId);
                    }
                    continue;
                }
                if (expired) {
                    continue;
                }
                String other = liveOwner.putIfAbsent(seatId, hold.holdId());
                if (other != null) {
                    heldTwice.add(seatId + " by " + other + " and " + hold.holdId());
                }
                if (!heldByIt && !soldFromIt) {
                    lost.add(hold.holdId() + " " + seatId + " is " + (row == null ? "missing"
                            : row.state() + (row.holdId() == null ? "" : " by " + row.holdId())));
                }
            }
            if (!wasReleased && !expired) {
                live++;
            }
        }
        List<String> overlap = new ArrayList<>();
        Map<String, String> activeOwner = new HashMap<>();
        for (HoldRow row : holds.values()) {
            if (!"ACTIVE".equals(row.status()) || HoldPolicy.lapsed(row.expiresAt(), graceMillis, now)) {
                continue;
            }
            for (String seatId : row.seatIds()) {
                String other = activeOwner.putIfAbsent(seatId, row.holdId());
                if (other != null) {
                    overlap.add(seatId + " in " + other + " and " + row.holdId());
                }
            }
        }
        long unacknowledged = seats.values().stream()
                .filter(s -> "HELD".equals(s.state()) && !ackedIds.contains(s.holdId())).count();
        return new Report(acked.size(), released.size(), live, Finding.of(heldTwice), Finding.of(missing),
                Finding.of(lost), Finding.of(releasedStillHeld), Finding.of(overlap), unacknowledged);
    }
}
