package org.boxoffice.app.catalog;

import org.boxoffice.domain.CatalogRepository;
import org.boxoffice.domain.Event;
import org.boxoffice.domain.HoldPolicy;
import org.boxoffice.domain.SaleWindow;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.domain.Venue;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo catalog seeded into an empty database on first start: two cities, three venues (one a
 * 60,000-seat stadium), five events and eight shows, one of them (the stadium's first night) on
 * sale now. Dates are relative to the first start.
 */
public final class DemoCatalog {

    /** The stadium show that is on sale from the first start. */
    public static final String ON_SALE_SHOW = "echoes-berlin-1";

    private DemoCatalog() {
    }

    public static void seedIfEmpty(CatalogRepository catalog, HoldDefaults defaults, Instant now) {
        if (!catalog.isEmpty()) {
            return;
        }
        Instant day = now.truncatedTo(ChronoUnit.DAYS);
        catalog.saveVenue(new Venue("olympiastadion", "Olympiastadion", "Berlin"));
        catalog.saveVenue(new Venue("tempodrom", "Tempodrom", "Berlin"));
        catalog.saveVenue(new Venue("coliseu", "Coliseu dos Recreios", "Lisbon"));

        catalog.saveEvent(new Event("midnight-echoes", "Midnight Echoes: World Tour", "The Midnight Echoes", "concert",
                "olympiastadion", "The stadium tour, with a new stage in the round."));
        catalog.saveEvent(new Event("mahler-5", "Mahler: Symphony No. 5", "Berlin Chamber Philharmonic", "classical",
                "tempodrom", "One evening, one symphony."));
        catalog.saveEvent(new Event("berlin-comedy", "Late Laughs Berlin", "Various artists", "comedy",
                "tempodrom", "Five comedians, one microphone."));
        catalog.saveEvent(new Event("fado-nights", "Fado Nights", "Ana Moura", "concert",
                "coliseu", "An evening of fado in the great hall."));
        catalog.saveEvent(new Event("lisbon-jazz", "Lisbon Jazz Weekend", "The Tagus Quintet", "jazz",
                "coliseu", "Two nights of modern jazz."));

        List<SeatPlan.SectionPlan> stadium = stadium();
        List<SeatPlan.SectionPlan> hall = List.of(
                new SeatPlan.SectionPlan("STALLS", 0, 8_900, 30, 40),
                new SeatPlan.SectionPlan("CIRCLE", 1, 6_500, 15, 40),
                new SeatPlan.SectionPlan("BALCONY", 2, 3_900, 10, 30));
        List<SeatPlan.SectionPlan> coliseu = List.of(
                new SeatPlan.SectionPlan("PLATEIA", 0, 4_500, 25, 32),
                new SeatPlan.SectionPlan("FRISAS", 1, 3_500, 4, 20),
                new SeatPlan.SectionPlan("GALERIA", 2, 2_000, 12, 36));

        Instant openNow = now.minus(Duration.ofDays(1));
        save(catalog, defaults, ON_SALE_SHOW, "midnight-echoes", "olympiastadion", day.plus(Duration.ofDays(60)).plus(Duration.ofHours(20)),
                openNow, stadium, "EUR");
        save(catalog, defaults, "echoes-berlin-2", "midnight-echoes", "olympiastadion", day.plus(Duration.ofDays(61)).plus(Duration.ofHours(20)),
                day.plus(Duration.ofDays(14)), stadium, "EUR");
        save(catalog, defaults, "mahler-5-1", "mahler-5", "tempodrom", day.plus(Duration.ofDays(20)).plus(Duration.ofHours(19)),
                openNow, hall, "EUR");
        save(catalog, defaults, "comedy-1", "berlin-comedy", "tempodrom", day.plus(Duration.ofDays(9)).plus(Duration.ofHours(21)),
                openNow, hall, "EUR");
        save(catalog, defaults, "comedy-2", "berlin-comedy", "tempodrom", day.plus(Duration.ofDays(16)).plus(Duration.ofHours(21)),
                openNow, hall, "EUR");
        save(catalog, defaults, "fado-1", "fado-nights", "coliseu", day.plus(Duration.ofDays(30)).plus(Duration.ofHours(21)),
                openNow, coliseu, "EUR");
        save(catalog, defaults, "jazz-1", "lisbon-jazz", "coliseu", day.plus(Duration.ofDays(45)).plus(Duration.ofHours(20)),
                day.plus(Duration.ofDays(7)), coliseu, "EUR");
        save(catalog, defaults, "jazz-2", "lisbon-jazz", "coliseu", day.plus(Duration.ofDays(46)).plus(Duration.ofHours(20)),
                day.plus(Duration.ofDays(7)), coliseu, "EUR");
    }

    /** 24 sections of 50 rows by 50 seats: 60,000 seats, priced in tiers by distance to the stage. */
    public static List<SeatPlan.SectionPlan> stadium() {
        long[] tiers = {18_900, 14_900, 11_900, 8_900, 6_900, 4_900};
        List<SeatPlan.SectionPlan> sections = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            String name = String.valueOf((char) ('A' + i));
            sections.add(new SeatPlan.SectionPlan(name, i, tiers[i / 4], 50, 50));
        }
        return sections;
    }

    private static void save(CatalogRepository catalog, HoldDefaults d, String showId, String eventId,
                             String venueId, Instant startsAt, Instant opensAt, List<SeatPlan.SectionPlan> plan,
                             String currency) {
        ShowLayout layout = SeatPlan.layout(showId, currency, plan);
        catalog.saveShow(new Show(showId, eventId, venueId, startsAt.toEpochMilli(),
                new SaleWindow(opensAt.toEpochMilli(), startsAt.toEpochMilli()),
                new HoldPolicy(d.maxSeatsPerHold(), d.maxPerAccount(), d.duration().toMillis(), d.grace().toMillis()),
                Math.min(d.blockGroups(), layout.blocks().size()), 48, layout));
    }
}
