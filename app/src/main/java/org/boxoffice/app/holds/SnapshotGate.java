package org.boxoffice.app.holds;

import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.http.JsonBytes;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.SeatPicker;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.grid.ShowSnapshot;
import org.boxoffice.grid.ShowSnapshots;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The fast gate: a hold request for seats this member's snapshot shows as taken is refused here,
 * with alternatives, touching no partition and no database. In an on-sale most attempts end here,
 * so this is what most requests cost; {@link HoldManager} decides the rest (and uses the same
 * refusal when the grid turns a claim down). Thread-safe.
 */
public final class SnapshotGate {

    private static final int ALTERNATIVES = 3;

    private final ShowDirectory shows;
    private final ShowSnapshots snapshots;
    private final LongSupplier clock;

    public SnapshotGate(ShowDirectory shows, ShowSnapshots snapshots, LongSupplier clock) {
        this.shows = shows;
        this.snapshots = snapshots;
        this.clock = clock;
    }

    /**
     * The fast gate on its own, for a request naming seats: the encoded {@code 409 SEATS_UNAVAILABLE}
     * answer if the member's snapshot shows any of them taken, else empty, and the request takes
     * the full path ({@link HoldManager#hold}), which checks everything again. Touches no partition and no
     * database and builds no JSON tree: in an on-sale most attempts end here, so this is what most
     * requests cost. Anything else wrong with the request (unknown show or seat, closed sale, size)
     * is left to the full path and its answer.
     */
    public Optional<byte[]> refusal(String showId, HoldRequest request) {
        if (!(request instanceof HoldRequest.Seats named)) {
            return Optional.empty();
        }
        Optional<Show> found = shows.find(showId);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Show show = found.get();
        List<String> seatIds = named.seatIds();
        if (!show.sale().isOpen(clock.getAsLong()) || show.policy().checkSize(seatIds.size()).isPresent()) {
            return Optional.empty();
        }
        int[] global = new int[seatIds.size()];
        for (int i = 0; i < global.length; i++) {
            Optional<ShowLayout.SeatRef> ref = show.layout().locate(seatIds.get(i));
            if (ref.isEmpty()) {
                return Optional.empty();
            }
            global[i] = show.layout().offset(ref.get().blockId()) + ref.get().index();
        }
        ShowSnapshot snapshot = snapshots.get(show);
        List<String> taken = new ArrayList<>(2);
        for (int i = 0; i < global.length; i++) {
            if (!snapshot.free(global[i])) {
                taken.add(seatIds.get(i));
            }
        }
        if (taken.isEmpty()) {
            return Optional.empty();
        }
        HoldManager.Outcome.Refused refused = seatsUnavailable(show, snapshot, seatIds, taken);
        return Optional.of(new JsonBytes()
                .field("error", refused.reason().name())
                .field("message", refused.message())
                .field("unavailable", taken)
                .fieldOfLists("alternatives", alternatives(refused))
                .toBytes());
    }

    static List<String> taken(Show show, ShowSnapshot snapshot, List<String> seatIds, List<ShowLayout.SeatRef> refs) {
        List<String> taken = new ArrayList<>();
        for (int i = 0; i < refs.size(); i++) {
            if (!snapshot.free(show.layout().offset(refs.get(i).blockId()) + refs.get(i).index())) {
                taken.add(seatIds.get(i));
            }
        }
        return taken;
    }

    static HoldManager.Outcome.Refused seatsUnavailable(Show show, ShowSnapshot snapshot, List<String> requested, List<String> taken) {
        List<List<String>> alternatives = snapshot.available() < requested.size() ? List.of()
                : new SeatPicker(show.layout(), snapshot::free).alternatives(requested, ALTERNATIVES);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("unavailable", taken);
        details.put("alternatives", alternatives);
        return new HoldManager.Outcome.Refused(Rejection.SEATS_UNAVAILABLE,
                "some of these seats were just taken: " + String.join(", ", taken), details);
    }

    @SuppressWarnings("unchecked")
    private static List<List<String>> alternatives(HoldManager.Outcome.Refused refused) {
        return (List<List<String>>) refused.details().get("alternatives");
    }
}
