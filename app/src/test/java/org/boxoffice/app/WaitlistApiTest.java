package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.waitlist.WaitlistSettings;
import org.boxoffice.domain.Show;
import org.boxoffice.grid.waitlist.Waitlists;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.boxoffice.app.TestApp.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The waitlist through the real routing, a real member and real PostgreSQL, in strict first come,
 * first served order. The periodic pass is slowed to an hour, so an offer that follows a release
 * came from the returned-seat signal; tests that need the pass call it.
 */
@ServerTest
class WaitlistApiTest {

    private static TestApp app;
    private final WaitlistFixture w;

    WaitlistApiTest(URI uri) {
        this.w = new WaitlistFixture(app, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server, s -> s.withWaitlist(new WaitlistSettings(Duration.ofMinutes(10), 0, Duration.ofHours(1))));
    }

    @Test
    void strictOrder_aHeadThatWantsMoreThanReturned_waits_andSoDoesEveryoneBehindIt() {
        w.createShow("wl-fcfs", 1, 8, null);
        String f1 = w.hold("f1", "wl-fcfs", "A-1-1", "A-1-2");
        String f2 = w.hold("f2", "wl-fcfs", "A-1-3", "A-1-4");
        String f3 = w.hold("f3", "wl-fcfs", "A-1-5", "A-1-6");
        w.hold("f4", "wl-fcfs", "A-1-7", "A-1-8");
        assertEquals(1, w.joined("ann", "wl-fcfs", 4));
        assertEquals(2, w.joined("bob", "wl-fcfs", 2));
        assertEquals(3, w.joined("cat", "wl-fcfs", 1));

        w.release("f1", f1);
        assertEquals(0, w.offers().match("wl-fcfs"), "two seats back: ann wants four, and nobody passes her");

        for (String fan : List.of("ann", "bob", "cat")) {
            assertEquals("WAITING", w.status(fan, "wl-fcfs"), fan);
        }
        assertEquals(1, w.standing("ann", "wl-fcfs").get("position").asLong());
        assertEquals(3, w.standing("cat", "wl-fcfs").get("position").asLong());
        assertEquals(0, w.offersOf("bob").size());
        assertEquals(0, w.offersOf("cat").size());

        w.release("f2", f2);
        JsonNode ann = w.awaitStatus("ann", "wl-fcfs", "OFFERED");
        assertEquals(List.of("A-1-1", "A-1-2", "A-1-3", "A-1-4"), WaitlistFixture.seats(ann));
        assertEquals("WAITING", w.status("bob", "wl-fcfs"));
        assertEquals(1, w.standing("bob", "wl-fcfs").get("position").asLong(), "ann left the line with her offer");

        w.release("f3", f3);
        assertEquals(List.of("A-1-5", "A-1-6"), WaitlistFixture.seats(w.awaitStatus("bob", "wl-fcfs", "OFFERED")));
        assertEquals("WAITING", w.status("cat", "wl-fcfs"));
        assertEquals(1, w.standing("cat", "wl-fcfs").get("position").asLong());
        assertEquals(0, w.seatsOfferedTwice("wl-fcfs"));
    }

    @Test
    void anOffer_isMailedToTheTokensEmail_asTicketsAre_andToThePatternAddressWithoutOne() {
        w.createShow("wl-mail", 1, 2, null);
        String filler = w.hold("fill-m", "wl-mail", "A-1-1", "A-1-2");
        TestApp.Http.Reply joined = w.http.post("/v1/shows/wl-mail/waitlist",
                TestApp.tokenWithEmail("liz", "liz@fans.example"), "{\"quantity\":1}");
        assertEquals(201, joined.status(), joined.body());
        assertEquals(201, w.http.post("/v1/shows/wl-mail/waitlist", TestApp.tokenWithEmail("max", "not an address"),
                "{\"quantity\":1}").status());

        w.release("fill-m", filler);

        w.awaitStatus("liz", "wl-mail", "OFFERED");
        w.awaitStatus("max", "wl-mail", "OFFERED");
        assertTrue(CheckoutFixture.waitFor(() -> w.count("select count(*) from waitlist_mail m join waitlist_entries e "
                + "using (entry_id) where e.show_id = 'wl-mail' and m.sent_at is not null") == 2, Duration.ofSeconds(10)),
                "the offer mails went out");
        assertEquals(List.of("liz liz@fans.example", "max max@example.test"), w.f.query("select e.account_id || ' ' "
                + "|| m.recipient from waitlist_mail m join waitlist_entries e using (entry_id) where e.show_id = 'wl-mail' "
                + "order by e.account_id"));
    }

    @Test
    void anOffer_isAHoldOfTheWaiter_listedAsOpen_mailedToThemAlone_andCheckedOutLikeAnyHold() {
        w.createShow("wl-flow", 1, 2, null);
        String filler = w.hold("fill", "wl-flow", "A-1-1", "A-1-2");
        TestApp.Http.Reply joined = w.join("joe", "wl-flow", 2);
        assertEquals(201, joined.status(), joined.body());
        assertEquals("WAITING", joined.json().get("status").asText());
        assertEquals(1, joined.json().get("position").asLong());
        assertEquals(2, w.joined("kim", "wl-flow", 1));
        assertEquals(200, w.join("joe", "wl-flow", 2).status(), "the same join again answers the entry");
        assertError(w.join("joe", "wl-flow", 1), 409, "ALREADY_ON_WAITLIST");

        w.release("fill", filler);

        JsonNode joe = w.awaitStatus("joe", "wl-flow", "OFFERED");
        String holdId = joe.get("offer").get("holdId").asText();
        assertEquals(0, joe.get("position").asLong());
        JsonNode offers = w.offersOf("joe");
        assertEquals(1, offers.size());
        assertEquals(holdId, offers.get(0).get("holdId").asText());
        assertEquals("/v1/holds/" + holdId + "/checkout", offers.get(0).get("checkout").asText());
        assertTrue(Instant.parse(offers.get(0).get("expiresAt").asText()).isAfter(Instant.now().plus(Duration.ofMinutes(9))));
        JsonNode hold = w.http.get("/v1/holds/" + holdId, app.token("joe")).json();
        assertEquals("HELD", hold.get("status").asText());
        assertEquals("joe", hold.get("accountId").asText());
        assertEquals(0, w.offersOf("kim").size());
        assertEquals("WAITING", w.status("kim", "wl-flow"));
        assertTrue(CheckoutFixture.waitFor(() -> w.count("select count(*) from waitlist_mail m join waitlist_entries e "
                + "using (entry_id) where e.show_id = 'wl-flow' and m.sent_at is not null") == 1, Duration.ofSeconds(10)),
                "the offer mail went out");
        assertEquals(1, w.count("select count(*) from waitlist_mail m join waitlist_entries e using (entry_id) "
                + "where e.show_id = 'wl-flow'"), "one mail: only the waiter who was offered seats");

        TestApp.Http.Reply paid = w.f.checkout(app.token("joe"), holdId, "card_ok");
        assertEquals(200, paid.status(), paid.body());
        assertEquals("BOOKED", w.status("joe", "wl-flow"), "bought: BOOKED at once, not at the next pass");
        w.offers().match("wl-flow");
        assertEquals("BOOKED", w.status("joe", "wl-flow"));
        assertEquals(0, w.offersOf("joe").size());
        assertEquals("WAITING", w.status("kim", "wl-flow"));
        assertEquals(1, w.standing("kim", "wl-flow").get("position").asLong());
    }

    @Test
    void aDeclinedOffer_goesToTheNextWaiterAtOnce_andLeavingWithAnOpenOfferDeclinesIt() {
        w.createShow("wl-decline", 1, 2, null);
        String filler = w.hold("fill", "wl-decline", "A-1-1", "A-1-2");
        w.joined("amy", "wl-decline", 2);
        w.joined("bea", "wl-decline", 2);
        w.joined("cy", "wl-decline", 2);
        w.release("fill", filler);
        String amyHold = w.awaitStatus("amy", "wl-decline", "OFFERED").get("offer").get("holdId").asText();

        assertEquals(204, w.http.delete("/v1/holds/" + amyHold, app.token("amy")).status());

        JsonNode bea = w.awaitStatus("bea", "wl-decline", "OFFERED");
        assertEquals(List.of("A-1-1", "A-1-2"), WaitlistFixture.seats(bea));
        assertEquals("DECLINED", w.status("amy", "wl-decline"));
        assertEquals(0, w.offersOf("amy").size());

        assertEquals(204, w.http.delete("/v1/shows/wl-decline/waitlist", app.token("bea")).status());

        assertEquals(List.of("A-1-1", "A-1-2"), WaitlistFixture.seats(w.awaitStatus("cy", "wl-decline", "OFFERED")));
        assertEquals("DECLINED", w.status("bea", "wl-decline"));
        assertEquals("RELEASED", w.f.one("select status from holds where hold_id = ?",
                w.standing("bea", "wl-decline").get("offer").get("holdId").asText()));
        assertError(w.http.delete("/v1/shows/wl-decline/waitlist", app.token("bea")), 404, "NOT_FOUND");
    }

    @Test
    void leavingTheLine_movesEveryoneBehindUp_andRejoiningQueuesAtTheBack() {
        w.createShow("wl-leave", 1, 2, null);
        w.hold("fill", "wl-leave", "A-1-1", "A-1-2");
        w.joined("dot", "wl-leave", 1);
        w.joined("eli", "wl-leave", 1);
        w.joined("flo", "wl-leave", 1);

        assertEquals(204, w.http.delete("/v1/shows/wl-leave/waitlist", app.token("dot")).status());

        assertEquals("LEFT", w.status("dot", "wl-leave"));
        assertEquals(0, w.standing("dot", "wl-leave").get("position").asLong());
        assertEquals(1, w.standing("eli", "wl-leave").get("position").asLong());
        assertEquals(2, w.standing("flo", "wl-leave").get("position").asLong());
        assertEquals(3, w.joined("dot", "wl-leave", 1));
        assertEquals(3, new Waitlists(app.app.hazelcast()).line("wl-leave").size());
    }

    @Test
    void concurrentReleasesAndCancellations_neverOfferASeatTwice_andServeTheLineInOrder() throws Exception {
        Show show = w.createShow("wl-race", 2, 10, null);
        List<String> holds = new ArrayList<>();
        for (int row = 1; row <= 2; row++) {
            for (int first = 1; first <= 9; first += 2) {
                holds.add(w.hold("filler-" + row + "-" + first, show.showId(), "A-" + row + "-" + first, "A-" + row + "-" + (first + 1)));
            }
        }
        List<String> bookings = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String owner = w.f.one("select account_id from holds where hold_id = ?", holds.get(i));
            TestApp.Http.Reply paid = w.f.checkout(app.token(owner), holds.get(i), "card_ok");
            assertEquals(200, paid.status(), paid.body());
            bookings.add(w.f.one("select booking_id::text from bookings where hold_id = ?", holds.get(i)));
        }
        List<String> waiters = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            waiters.add("racer-" + (char) ('a' + i));
            assertEquals(i + 1, w.joined(waiters.get(i), show.showId(), 2));
        }

        ExecutorService pool = Executors.newFixedThreadPool(13);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                String booking = bookings.get(i);
                String owner = w.f.one("select account_id from bookings where booking_id = ?::bigint", booking);
                work.add(pool.submit(() -> assertEquals(200, w.http.delete("/v1/bookings/" + booking, app.token(owner)).status())));
                String hold = holds.get(5 + i);
                String holder = w.f.one("select account_id from holds where hold_id = ?", hold);
                work.add(pool.submit(() -> w.release(holder, hold)));
            }
            // passes racing the member's own (as two members would while the line's partition migrates)
            for (int t = 0; t < 3; t++) {
                work.add(pool.submit(() -> {
                    for (int k = 0; k < 15; k++) {
                        w.offers().match(show.showId());
                    }
                    return null;
                }));
            }
            for (Future<?> f : work) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }

        assertTrue(CheckoutFixture.waitFor(() -> w.count("select count(*) from waitlist_entries where show_id = ? "
                + "and state = 'OFFERED'", show.showId()) == 10, Duration.ofSeconds(30)), "all 20 seats offered, in pairs");
        w.offers().match(show.showId());

        List<String> offered = w.query("select unnest(seat_ids) from waitlist_entries where show_id = ? and state = 'OFFERED'",
                show.showId());
        assertEquals(20, offered.size());
        assertEquals(20, offered.stream().distinct().count(), "no seat in two offers");
        assertEquals(0, w.seatsOfferedTwice(show.showId()), "no seat was ever held for two offers");
        assertEquals(20, w.count("select count(*) from waitlist_entries e join seats s on s.show_id = e.show_id "
                + "and s.seat_id = any (e.seat_ids) where e.show_id = ? and e.state = 'OFFERED' and s.state = 'HELD' "
                + "and s.hold_id = e.hold_id and s.holder = e.account_id", show.showId()), "each offer holds its seats");
        assertEquals(0, w.count("select count(*) from holds h where h.show_id = ? and h.hold_id like 'W%' "
                + "and h.status = 'ACTIVE' and not exists (select 1 from waitlist_entries e where e.hold_id = h.hold_id "
                + "and e.state = 'OFFERED')", show.showId()), "no seats held for an offer nobody was told of");
        for (int i = 0; i < 16; i++) {
            JsonNode s = w.standing(waiters.get(i), show.showId());
            assertEquals(i < 10 ? "OFFERED" : "WAITING", s.get("status").asText(), waiters.get(i) + " (strict order)");
            assertEquals(i < 10 ? 0 : i - 9, s.get("position").asLong(), waiters.get(i));
        }
        assertEquals(1, w.count("select max(n) from (select count(*) n from waitlist_entries where show_id = ? "
                + "and hold_id is not null group by account_id) t", show.showId()), "nobody offered twice");
    }

    @Test
    void seatsReturnedBehindTheGridsBack_areOfferedByThePeriodicPass() throws Exception {
        Show show = w.createShow("wl-lost", 1, 2, null);
        w.hold("fill", "wl-lost", "A-1-1", "A-1-2");
        w.joined("gus", "wl-lost", 2);
        // seats back on sale in PostgreSQL alone (an operator's fix): no grid transition, no signal
        try (Connection c = app.dataSource.getConnection(); Statement s = c.createStatement()) {
            assertEquals(2, s.executeUpdate("update seats set state = 'AVAILABLE', hold_id = null, holder = null, "
                    + "held_until = null, version = version + 1 where show_id = 'wl-lost'"));
            s.executeUpdate("update holds set status = 'RELEASED' where show_id = 'wl-lost'");
        }
        app.app.inventory().evict(show, 0);
        Thread.sleep(500);
        assertEquals("WAITING", w.status("gus", "wl-lost"), "no signal: nothing happened yet");

        assertTrue(w.offers().passOnce() >= 1);

        assertEquals(List.of("A-1-1", "A-1-2"), WaitlistFixture.seats(w.standing("gus", "wl-lost")));
        assertEquals("OFFERED", w.status("gus", "wl-lost"));
    }

    @Test
    void noOffersAfterSalesClose_theLineLapses_andReturnedSeatsStayOnSale() throws Exception {
        Instant closes = Instant.now().plusSeconds(6);
        w.createShow("wl-close", 1, 2, closes);
        String filler = w.hold("fill", "wl-close", "A-1-1", "A-1-2");
        w.joined("hal", "wl-close", 2);
        w.joined("ivy", "wl-close", 1);
        Thread.sleep(Math.max(0, closes.toEpochMilli() - System.currentTimeMillis()) + 200);

        assertError(w.join("jon", "wl-close", 1), 422, "SALE_NOT_OPEN");
        w.release("fill", filler);

        w.awaitStatus("hal", "wl-close", "CLOSED");
        assertEquals(0, w.offers().match("wl-close"));
        assertEquals("CLOSED", w.status("ivy", "wl-close"));
        assertEquals(0, w.offersOf("hal").size());
        assertEquals(0, w.count("select count(*) from holds where show_id = 'wl-close' and hold_id like 'W%'"));
        assertEquals(0, w.count("select count(*) from waitlist_mail m join waitlist_entries e using (entry_id) "
                + "where e.show_id = 'wl-close'"));
        assertEquals(2, w.count("select count(*) from seats where show_id = 'wl-close' and state = 'AVAILABLE'"));
        assertEquals(0, app.app.hazelcast().getQueue(Waitlists.queueName("wl-close")).size());
    }

    @Test
    void badInput_isA4xxWithAJsonError_andChangesNothing() {
        w.createShow("wl-bad", 1, 2, null);
        w.hold("fill", "wl-bad", "A-1-1", "A-1-2");
        String admin = app.token("ops", "admin");
        assertEquals(201, w.http.post("/v1/admin/shows", admin, "{\"eventId\":\"fado-nights\",\"showId\":\"wl-small\","
                + "\"startsAt\":\"2031-01-01T20:00:00Z\",\"maxSeatsPerHold\":4,\"sections\":[{\"name\":\"A\",\"price\":\"5.00\","
                + "\"rows\":1,\"seatsPerRow\":2}]}").status());
        assertEquals(201, w.http.post("/v1/admin/shows", admin, "{\"eventId\":\"fado-nights\",\"showId\":\"wl-later\","
                + "\"startsAt\":\"2031-01-01T20:00:00Z\",\"saleOpensAt\":\"2030-01-01T10:00:00Z\",\"sections\":[{\"name\":\"A\","
                + "\"price\":\"5.00\",\"rows\":1,\"seatsPerRow\":2}]}").status());
        String kit = app.token("kit");
        String path = "/v1/shows/wl-bad/waitlist";

        assertError(w.http.post(path, null, "{\"quantity\":1}"), 401, "UNAUTHORIZED");
        for (String body : List.of("{", "[]", "{}", "{\"quantity\":0}", "{\"quantity\":11}", "{\"quantity\":2.5}",
                "{\"quantity\":\"2\"}", "{\"quantity\":null}", "{\"quantity\":1,\"seats\":2}", "{\"quantity\":1,\"section\":5}",
                "{\"quantity\":1,\"section\":\"\"}")) {
            assertError(w.http.post(path, kit, body), 400, "BAD_REQUEST");
        }
        assertError(w.http.post(path, kit, "{\"quantity\":1,\"section\":\"ROOF\"}"), 422, "UNKNOWN_SECTION");
        assertError(w.http.post("/v1/shows/no-such-show/waitlist", kit, "{\"quantity\":1}"), 404, "NOT_FOUND");
        assertError(w.http.post("/v1/shows/wl-small/waitlist", kit, "{\"quantity\":6}"), 422, "TOO_MANY_SEATS");
        assertError(w.http.post("/v1/shows/wl-small/waitlist", kit, "{\"quantity\":2}"), 409, "SEATS_AVAILABLE");
        assertError(w.http.post("/v1/shows/wl-later/waitlist", kit, "{\"quantity\":1}"), 422, "SALE_NOT_OPEN");
        assertError(w.http.get("/v1/shows/wl-bad/waitlist/me", kit), 404, "NOT_FOUND");
        assertError(w.http.delete(path, kit), 404, "NOT_FOUND");

        assertEquals(0, w.count("select count(*) from waitlist_entries where account_id = 'kit'"));
        for (String show : List.of("wl-bad", "wl-small", "wl-later")) {
            assertEquals(0, app.app.hazelcast().getQueue(Waitlists.queueName(show)).size(), show);
        }
    }

    @Test
    void concurrentJoinsOfOneAccount_makeOneEntry() throws Exception {
        w.createShow("wl-dup", 1, 2, null);
        w.hold("fill", "wl-dup", "A-1-1", "A-1-2");
        String token = app.token("zed");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<Integer>> joins = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                joins.add(pool.submit(() -> w.http.post("/v1/shows/wl-dup/waitlist", token, "{\"quantity\":2}").status()));
            }
            int created = 0;
            for (Future<Integer> f : joins) {
                int status = f.get();
                assertTrue(status == 201 || status == 200, "status " + status);
                created += status == 201 ? 1 : 0;
            }
            assertEquals(1, created);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, w.count("select count(*) from waitlist_entries where account_id = 'zed'"));
        assertEquals(1, app.app.hazelcast().getQueue(Waitlists.queueName("wl-dup")).size());
    }
}
