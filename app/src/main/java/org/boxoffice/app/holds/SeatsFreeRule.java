package org.boxoffice.app.holds;

import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.SeatPicker;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.grid.ShowSnapshot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The fast gate: named seats this member's seat map shows as taken are refused here, with up to
 * three alternatives from the same map, touching no partition and no database. The map is advisory
 * (the blocks' processors decide every claim that gets past it): a stale "taken" costs a 409 with
 * alternatives, a stale "free" one trip to the grid. In an on-sale most attempts end here, so its
 * refusal is answered at once ({@link #answeredAtTheGate}).
 */
final class SeatsFreeRule implements HoldRule {

    private static final int ALTERNATIVES = 3;

    private final Function<Show, ShowSnapshot> snapshots;

    /** @param snapshots a show's current seat map on this member */
    SeatsFreeRule(Function<Show, ShowSnapshot> snapshots) {
        this.snapshots = snapshots;
    }

    @Override
    public Optional<Outcome.Refused<HoldView>> check(HoldAttempt attempt) {
        if (!(attempt.request() instanceof HoldRequest.Seats named)) {
            return Optional.empty();
        }
        Show show = attempt.show();
        ShowSnapshot snapshot = snapshots.apply(show);
        List<String> taken = taken(show, snapshot, named.seatIds(), attempt.places());
        return taken.isEmpty() ? Optional.empty() : Optional.of(unavailable(show, snapshot, named.seatIds(), taken));
    }

    @Override
    public boolean answeredAtTheGate() {
        return true;
    }

    /**
     * The refusal of a claim on {@code seatIds} that the grid turned down, phrased as this rule's
     * own: what {@code current} (this member's seat map once the claim's outcome is on it) shows
     * taken, and alternatives from it.
     */
    static Outcome.Refused<HoldView> claimRefused(Show show, ShowSnapshot current, List<String> seatIds,
                                            List<ShowLayout.SeatRef> places) {
        return unavailable(show, current, seatIds, taken(show, current, seatIds, places));
    }

    /** The seats of {@code seatIds} (at {@code places}) the map shows taken; the shared empty list if none. */
    private static List<String> taken(Show show, ShowSnapshot snapshot, List<String> seatIds, List<ShowLayout.SeatRef> places) {
        List<String> taken = List.of();
        for (int i = 0; i < places.size(); i++) {
            ShowLayout.SeatRef place = places.get(i);
            if (!snapshot.free(show.layout().offset(place.blockId()) + place.index())) {
                if (taken.isEmpty()) {
                    taken = new ArrayList<>(2);
                }
                taken.add(seatIds.get(i));
            }
        }
        return taken;
    }

    private static Outcome.Refused<HoldView> unavailable(Show show, ShowSnapshot snapshot, List<String> requested, List<String> taken) {
        List<List<String>> alternatives = snapshot.available() < requested.size() ? List.of()
                : new SeatPicker(show.layout(), snapshot::free).alternatives(requested, ALTERNATIVES);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("unavailable", taken);
        details.put("alternatives", alternatives);
        return new Outcome.Refused<>(Rejection.SEATS_UNAVAILABLE,
                "some of these seats were just taken: " + String.join(", ", taken), details);
    }
}
