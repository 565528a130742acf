package org.boxoffice.mapstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.boxoffice.domain.Event;
import org.boxoffice.domain.HoldPolicy;
import org.boxoffice.domain.SaleWindow;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.domain.Venue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PostgresCatalogRepositoryTest {

    private static HikariDataSource db;
    private static PostgresCatalogRepository catalog;

    @BeforeAll
    static void database() {
        db = TestDatabase.newDataSource();
        catalog = new PostgresCatalogRepository(db);
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @Test
    void isEmpty_turnsFalse_onceAVenueIsSaved() {
        try (HikariDataSource fresh = TestDatabase.newDataSource(1)) {
            PostgresCatalogRepository empty = new PostgresCatalogRepository(fresh);
            assertTrue(empty.isEmpty());

            empty.saveVenue(new Venue("v-empty", "Hall", "Porto"));

            assertFalse(empty.isEmpty());
        }
    }

    @Test
    void saveVenueAndEvent_upsert_soASecondSaveChangesTheRow() {
        catalog.saveVenue(new Venue("v-up", "Old name", "Faro"));
        catalog.saveVenue(new Venue("v-up", "New name", "Faro"));
        catalog.saveEvent(new Event("e-up", "Title", "Artist", "concert", "v-up", "first"));
        catalog.saveEvent(new Event("e-up", "Title 2", "Artist", "theatre", "v-up", "second"));

        assertEquals(new Venue("v-up", "New name", "Faro"),
                catalog.venues().stream().filter(v -> v.venueId().equals("v-up")).findFirst().orElseThrow());
        assertEquals(new Event("e-up", "Title 2", "Artist", "theatre", "v-up", "second"),
                catalog.events().stream().filter(e -> e.eventId().equals("e-up")).findFirst().orElseThrow());
    }

    @Test
    void show_loadsBackTheSavedShow_withItsRulesSaleWindowAndLayout() {
        Show saved = TestShows.save(catalog, TestShows.small("cat-small"));

        Show loaded = catalog.show("cat-small").orElseThrow();

        assertSameShow(saved, loaded);
    }

    @Test
    void show_isEmpty_forAnUnknownShow() {
        assertTrue(catalog.show("no-such-show").isEmpty());
    }

    @Test
    void saveShow_createsOneAvailableSeatRowPerSeat_withTheLayoutsIdsIndexesAndPrices() throws SQLException {
        Show show = TestShows.save(catalog, TestShows.small("cat-seats"));

        List<ShowLayout.Seat> seats = show.layout().seats();
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("""
                     SELECT seat_id, block_id, idx, section, row_label, number, price_cents, state, version
                     FROM seats WHERE show_id = ? ORDER BY block_id, idx""")) {
            ps.setString(1, show.showId());
            try (ResultSet rs = ps.executeQuery()) {
                for (ShowLayout.Seat seat : seats) {
                    assertTrue(rs.next(), "missing row for " + seat);
                    assertEquals(seat.seatId(), rs.getString(1));
                    assertEquals(seat.blockId(), rs.getInt(2));
                    assertEquals(seat.index(), rs.getInt(3));
                    assertEquals(seat.section(), rs.getString(4));
                    assertEquals(seat.row(), rs.getString(5));
                    assertEquals(seat.number(), rs.getInt(6));
                    assertEquals(seat.priceCents(), rs.getLong(7));
                    assertEquals("AVAILABLE", rs.getString(8));
                    assertEquals(0, rs.getInt(9));
                }
                assertFalse(rs.next(), "more rows than seats");
            }
        }
    }

    @Test
    void saveShow_createsTheSeatRowsOfA60000SeatStadium() throws SQLException {
        Show stadium = TestShows.stadium("cat-stadium", 60, 25, 40);
        TestShows.save(catalog, TestShows.small("warm-up"));

        TestShows.save(catalog, stadium);

        assertEquals(60_000, stadium.layout().totalSeats());
        assertEquals(60_000, count("SELECT count(*) FROM seats WHERE show_id = 'cat-stadium'"));
        assertEquals(60_000, count("""
                SELECT count(DISTINCT seat_id) FROM seats WHERE show_id = 'cat-stadium' AND state = 'AVAILABLE'"""));
        ShowLayout.Seat last = stadium.layout().seat(59_999);
        assertEquals(1, count("SELECT count(*) FROM seats WHERE show_id = 'cat-stadium' AND seat_id = '"
                + last.seatId() + "' AND block_id = 59 AND idx = 999 AND price_cents = 4000"));
    }

    @Test
    void shows_loadsEveryShowWithItsLayout() {
        Show a = TestShows.save(catalog, TestShows.small("cat-all-a"));
        Show b = TestShows.save(catalog, TestShows.stadium("cat-all-b", 6, 2, 3));

        List<Show> shows = catalog.shows();

        assertSameShow(a, shows.stream().filter(s -> s.showId().equals("cat-all-a")).findFirst().orElseThrow());
        assertSameShow(b, shows.stream().filter(s -> s.showId().equals("cat-all-b")).findFirst().orElseThrow());
    }

    @Test
    void saveShow_again_updatesTheRules_andKeepsTheSeats() throws SQLException {
        Show first = TestShows.save(catalog, TestShows.small("cat-again"));
        execute("UPDATE seats SET version = 7 WHERE show_id = 'cat-again' AND seat_id = 'A-1-1'");
        Show changed = new Show(first.showId(), first.eventId(), first.venueId(), first.startsAt() + 1,
                new SaleWindow(first.sale().opensAt(), first.sale().closesAt() + 1),
                new HoldPolicy(2, 4, 60_000, 1_000), 8, 24, first.layout());

        catalog.saveShow(changed);

        assertSameShow(changed, catalog.show("cat-again").orElseThrow());
        assertEquals(1, count("SELECT count(*) FROM seats WHERE show_id = 'cat-again' AND version = 7"));
        assertEquals(13, count("SELECT count(*) FROM seats WHERE show_id = 'cat-again'"));
    }

    @Test
    void saveShow_refusesToChangeTheLayoutOfAnExistingShow() {
        Show first = TestShows.save(catalog, TestShows.small("cat-relayout"));
        Show other = TestShows.stadium("cat-relayout", 2, 1, 2);

        assertThrows(IllegalArgumentException.class, () -> catalog.saveShow(other));

        assertSameShow(first, catalog.show("cat-relayout").orElseThrow());
    }

    static void assertSameShow(Show expected, Show actual) {
        assertEquals(expected.showId(), actual.showId());
        assertEquals(expected.eventId(), actual.eventId());
        assertEquals(expected.venueId(), actual.venueId());
        assertEquals(expected.startsAt(), actual.startsAt());
        assertEquals(expected.sale(), actual.sale());
        assertEquals(expected.policy(), actual.policy());
        assertEquals(expected.blockGroups(), actual.blockGroups());
        assertEquals(expected.cancelHours(), actual.cancelHours());
        assertEquals(expected.currency(), actual.currency());
        assertEquals(expected.layout().showId(), actual.layout().showId());
        assertEquals(expected.layout().sections(), actual.layout().sections());
        assertEquals(expected.layout().blocks(), actual.layout().blocks());
    }

    private static long count(String sql) throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.executeUpdate();
        }
    }
}
