package org.boxoffice.app.holds;

import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;

import java.util.List;
import java.util.Optional;

/**
 * One hold request on its way through {@link HoldRules} and on to the claim: what was asked and
 * when, what the rules found out (the show, the named seats' places in its layout), and their
 * verdict. The rules fill it in their order; {@link HoldManager} claims from what they found, so a
 * request's show and seats are looked up once and its seat ids go down, never back. One request's,
 * used on one thread.
 */
public final class HoldAttempt {

    private final String showId;
    private final HoldRequest request;
    private final long now;
    private Show show;
    private List<ShowLayout.SeatRef> places;
    private AdmissionArea area;
    private Outcome.Refused<HoldView> refusal;
    private boolean refusedAtTheGate;

    HoldAttempt(String showId, HoldRequest request, long now) {
        this.showId = showId;
        this.request = request;
        this.now = now;
    }

    public String showId() {
        return showId;
    }

    public HoldRequest request() {
        return request;
    }

    /** The moment the attempt is decided at: the rules' clock, and the claim's. */
    public long now() {
        return now;
    }

    /** How many seats (or admissions) are asked for: the named seats, the best-available quantity, the admissions. */
    public int seatCount() {
        return switch (request) {
            case HoldRequest.Seats named -> named.seatIds().size();
            case HoldRequest.BestAvailable best -> best.quantity();
            case HoldRequest.Admissions admissions -> admissions.quantity();
        };
    }

    /** The show, once a rule found it (null before). */
    public Show show() {
        return show;
    }

    /** The named seats' places in the show's layout, in the request's order, once a rule found them all (null before, and for best available). */
    public List<ShowLayout.SeatRef> places() {
        return places;
    }

    /** The general-admission area asked for, once a rule found it (null before, and for seats). */
    public AdmissionArea area() {
        return area;
    }

    /** Why the rules refused the attempt; empty if it passed them all. */
    public Optional<Outcome.Refused<HoldView>> refusal() {
        return Optional.ofNullable(refusal);
    }

    /** Whether a rule refused the attempt whose refusal is answered ahead of the rate limit ({@link HoldRule#answeredAtTheGate}). */
    public boolean refusedAtTheGate() {
        return refusedAtTheGate;
    }

    void found(Show show) {
        this.show = show;
    }

    void located(List<ShowLayout.SeatRef> places) {
        this.places = places;
    }

    void found(AdmissionArea area) {
        this.area = area;
    }

    void refuse(Outcome.Refused<HoldView> refusal, boolean atTheGate) {
        this.refusal = refusal;
        this.refusedAtTheGate = atTheGate;
    }
}
