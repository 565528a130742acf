package org.boxoffice.app.holds;

import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.ShowLayout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Named seats must be seats of the show; the refusal lists every one it does not have. The places
 * found ({@link HoldAttempt#places()}) are what the seat-map rule reads and the claim takes.
 */
final class SeatsExistRule implements HoldRule {

    @Override
    public Optional<Outcome.Refused<HoldView>> check(HoldAttempt attempt) {
        if (!(attempt.request() instanceof HoldRequest.Seats named)) {
            return Optional.empty();
        }
        ShowLayout layout = attempt.show().layout();
        List<String> seatIds = named.seatIds();
        List<ShowLayout.SeatRef> places = new ArrayList<>(seatIds.size());
        List<String> unknown = null;
        for (String id : seatIds) {
            Optional<ShowLayout.SeatRef> place = layout.locate(id);
            if (place.isPresent()) {
                places.add(place.get());
            } else {
                if (unknown == null) {
                    unknown = new ArrayList<>();
                }
                unknown.add(id);
            }
        }
        if (unknown != null) {
            return Optional.of(new Outcome.Refused<>(Rejection.UNKNOWN_SEAT,
                    "this show has no seat " + String.join(", ", unknown), Map.of("unknown", unknown)));
        }
        attempt.located(places);
        return Optional.empty();
    }
}
