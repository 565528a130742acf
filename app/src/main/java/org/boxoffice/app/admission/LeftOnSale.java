package org.boxoffice.app.admission;

import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.Show;
import org.boxoffice.grid.Admissions;
import org.boxoffice.grid.ShowSnapshots;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What a show still has on sale, as its waiting room counts it when it admits buyers: the free
 * seats of this member's seat map, plus the admissions left in the show's general-admission areas.
 * A room admits buyers while anything is left. Thread-safe.
 */
public final class LeftOnSale {

    private static final Logger LOG = Logger.getLogger(LeftOnSale.class.getName());

    private final ShowDirectory shows;
    private final ShowSnapshots snapshots;
    private final Admissions admissions;

    public LeftOnSale(ShowDirectory shows, ShowSnapshots snapshots, Admissions admissions) {
        this.shows = shows;
        this.snapshots = snapshots;
        this.admissions = admissions;
    }

    /** Seats and admissions left of the show {@code showId}; 0 for a show this member does not know. */
    public int of(String showId) {
        return shows.find(showId)
                .map(show -> snapshots.get(show).counts()[SeatState.Status.AVAILABLE.ordinal()] + admissionsLeft(show))
                .orElse(0);
    }

    /** Admissions left in every general-admission area of {@code show}; 0 if they cannot be counted now. */
    private int admissionsLeft(Show show) {
        int left = 0;
        try {
            for (AdmissionArea area : admissions.areas(show.showId())) {
                left += admissions.left(show, area);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "admissions left in " + show.showId() + " cannot be counted now", e);
        }
        return left;
    }
}
