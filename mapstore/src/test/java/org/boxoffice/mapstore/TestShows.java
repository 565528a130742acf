package org.boxoffice.mapstore;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.boxoffice.domain.CatalogRepository;
import org.boxoffice.domain.Event;
import org.boxoffice.domain.HoldPolicy;
import org.boxoffice.domain.SaleWindow;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.domain.Venue;

/** Shows to test with, saved through a {@link CatalogRepository} together with their venue and event. */
public final class TestShows {

    /** 2025-06-15T15:06:40Z: a fixed "now" so tests never read a clock. */
    public static final long T0 = 1_750_000_000_000L;
    public static final long HOUR = 3_600_000L;

    private TestShows() {
    }

    /**
     * Two sections; block 0 is section A, rows 1 and 2 of 4 seats (A-1-1..A-1-4 at indexes 0..3,
     * A-2-1..A-2-4 at 4..7); block 1 is section B, row 1 of 5 seats.
     */
    public static Show small(String showId) {
        ShowLayout layout = new ShowLayout(showId, "EUR",
                List.of(new ShowLayout.Section("A", 0, 5_000), new ShowLayout.Section("B", 1, 3_000)),
                List.of(new ShowLayout.Block(0, "A", List.of("1", "2"), new int[] {4, 4}),
                        new ShowLayout.Block(1, "B", List.of("1"), new int[] {5})));
        return show(showId, layout);
    }

    /** {@code blocks} blocks of {@code rowsPerBlock} rows of {@code seatsPerRow} seats, in four priced sections. */
    public static Show stadium(String showId, int blocks, int rowsPerBlock, int seatsPerRow) {
        List<ShowLayout.Section> sections = List.of(
                new ShowLayout.Section("Floor", 0, 15_000), new ShowLayout.Section("Lower", 1, 9_000),
                new ShowLayout.Section("Upper", 2, 6_000), new ShowLayout.Section("Top", 3, 4_000));
        List<ShowLayout.Block> list = new ArrayList<>();
        for (int b = 0; b < blocks; b++) {
            int section = b * sections.size() / blocks;
            List<String> rows = new ArrayList<>();
            for (int r = 0; r < rowsPerBlock; r++) {
                rows.add(Integer.toString(b * rowsPerBlock + r + 1));
            }
            int[] counts = new int[rowsPerBlock];
            java.util.Arrays.fill(counts, seatsPerRow);
            list.add(new ShowLayout.Block(b, sections.get(section).name(), rows, counts));
        }
        return show(showId, new ShowLayout(showId, "USD", sections, Collections.unmodifiableList(list)));
    }

    static Show show(String showId, ShowLayout layout) {
        return new Show(showId, "ev-" + showId, "venue-1", T0 + 30 * 24 * HOUR,
                new SaleWindow(T0 - HOUR, T0 + 29 * 24 * HOUR),
                new HoldPolicy(8, 8, 10 * 60_000L, 5_000L), 4, 48, layout);
    }

    /** Saves the show with its venue and event. */
    public static Show save(CatalogRepository catalog, Show show) {
        catalog.saveVenue(new Venue(show.venueId(), "Arena", "Lisbon"));
        catalog.saveEvent(new Event(show.eventId(), "Tour " + show.showId(), "The Band", "concert",
                show.venueId(), "A night out"));
        catalog.saveShow(show);
        return show;
    }
}
