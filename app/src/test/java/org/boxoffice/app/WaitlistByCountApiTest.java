package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.waitlist.WaitlistSettings;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.boxoffice.app.TestApp.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The waitlist by count (general admission) through the real routing, a real member and real
 * PostgreSQL: a fan waits for a quantity of a sold-out area and is offered a hold of that quantity,
 * taken from the area's stripes, when enough come back. The periodic pass is slowed to an hour, so
 * an offer that follows a return came from the returned-admissions signal; tests that need the pass
 * call it.
 */
@ServerTest
class WaitlistByCountApiTest {

    private static final AtomicInteger SHOWS = new AtomicInteger();
    private static TestApp app;
    private final WaitlistFixture w;
    private final String admin;

    WaitlistByCountApiTest(URI uri) {
        this.w = new WaitlistFixture(app, uri);
        this.admin = app.token("ops", "admin");
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server, s -> s.withWaitlist(new WaitlistSettings(Duration.ofMinutes(10), 0, Duration.ofHours(1))));
    }

    @Test
    void aJoinOfAnArea_passesTheHoldRulesShowsTerms_withAHoldsAnswers_inTheirOrder() {
        String showId = newShowWithFloor(5, 1, 3, 2);

        TestApp.Http.Reply hold = w.http.post("/v1/shows/" + showId + "/holds", app.token("wlc-fay"),
                "{\"area\":\"FLOOR\",\"quantity\":3}");
        assertError(hold, 422, "TOO_MANY_SEATS");
        for (String body : List.of("{\"area\":\"FLOOR\",\"quantity\":3}", "{\"area\":\"BALCONY\",\"quantity\":3}")) {
            TestApp.Http.Reply r = join("wlc-fay", showId, body);
            assertError(r, 422, "TOO_MANY_SEATS");
            assertEquals(hold.body(), r.body(), "the size rule answers a join as it answers a hold, before the area");
        }
        assertError(join("wlc-fay", showId, "{\"area\":\"BALCONY\",\"quantity\":2}"), 422, "UNKNOWN_AREA");
        assertEquals(0, w.count("select count(*) from waitlist_entries where show_id = ?", showId));
    }

    /** A new show on sale (holds of 7 minutes, no grace, at most {@code maxPerAccount}) with an area FLOOR. */
    private String newShowWithFloor(int capacity, int stripes, int maxPerAccount) {
        return newShowWithFloor(capacity, stripes, maxPerAccount, 10);
    }

    private String newShowWithFloor(int capacity, int stripes, int maxPerAccount, int maxSeatsPerHold) {
        String showId = "wlc-" + SHOWS.incrementAndGet();
        TestApp.Http.Reply show = w.http.post("/v1/admin/shows", admin, "{\"showId\":\"" + showId
                + "\",\"eventId\":\"fado-nights\",\"startsAt\":\"2031-01-01T20:00:00Z\",\"holdSeconds\":420,"
                + "\"graceSeconds\":0,\"maxPerAccount\":" + maxPerAccount + ",\"maxSeatsPerHold\":" + maxSeatsPerHold
                + ",\"sections\":[{\"name\":\"A\","
                + "\"price\":\"5.00\",\"rows\":1,\"seatsPerRow\":4}]}");
        assertEquals(201, show.status(), show.body());
        w.f.createFloor(showId, capacity, "20.00", stripes);
        return showId;
    }

    private String held(String account, String showId, int quantity) {
        TestApp.Http.Reply r = w.http.post("/v1/shows/" + showId + "/holds", app.token(account),
                "{\"area\":\"FLOOR\",\"quantity\":" + quantity + "}");
        assertEquals(201, r.status(), r.body());
        return r.json().get("holdId").asText();
    }

    private TestApp.Http.Reply join(String account, String showId, String body) {
        return w.http.post("/v1/shows/" + showId + "/waitlist", app.token(account), body);
    }

    private long joined(String account, String showId, int quantity) {
        TestApp.Http.Reply r = join(account, showId, "{\"area\":\"FLOOR\",\"quantity\":" + quantity + "}");
        assertEquals(201, r.status(), r.body());
        assertEquals("FLOOR", r.json().get("area").asText());
        return r.json().get("position").asLong();
    }

    /** Admissions the referee counts against the area: held (offers included) and sold. */
    private long taken(String showId) {
        return w.count("select coalesce(sum(taken), 0) from admission_stripes where show_id = ? and area = 'FLOOR'", showId);
    }

    /** Admissions held by live waitlist offers (holds whose id the offer process made). */
    private long offered(String showId) {
        return w.count("select coalesce(sum(quantity), 0) from holds where show_id = ? and hold_id like 'W%' "
                + "and status = 'ACTIVE'", showId);
    }

    @Test
    void aSoldOutArea_offersTheHeadItsQuantity_whenEnoughCameBack_andNobodyPassesAHeadThatDoesNotFitYet() {
        String showId = newShowWithFloor(4, 2, 100);
        String f1 = held("wlc-f1", showId, 2);
        String f2 = held("wlc-f2", showId, 2);
        assertEquals(1, joined("wlc-ann", showId, 3));
        assertEquals(2, joined("wlc-bob", showId, 1));

        w.release("wlc-f1", f1);
        assertEquals(0, w.offers().match(showId), "two back: ann wants three, and bob waits behind her");
        assertEquals("WAITING", w.status("wlc-ann", showId));
        assertEquals("WAITING", w.status("wlc-bob", showId));

        w.release("wlc-f2", f2);
        JsonNode ann = w.awaitStatus("wlc-ann", showId, "OFFERED");
        JsonNode bob = w.awaitStatus("wlc-bob", showId, "OFFERED");
        assertEquals(List.of(), WaitlistFixture.seats(ann), "an offer of admissions names no seats");
        assertEquals(4, taken(showId));
        assertEquals(4, offered(showId));

        JsonNode offer = w.offersOf("wlc-ann").get(0);
        assertEquals("FLOOR", offer.get("area").asText());
        assertEquals(3, offer.get("quantity").asInt());
        assertEquals(60.0, offer.get("totalAmount").asDouble());
        String holdId = ann.get("offer").get("holdId").asText();
        assertEquals(holdId, offer.get("holdId").asText());
        assertTrue(CheckoutFixture.waitFor(() -> w.count("select count(*) from waitlist_mail where hold_id in (?, ?) "
                + "and sent_at is not null", holdId, bob.get("offer").get("holdId").asText()) == 2, Duration.ofSeconds(10)),
                "each waiter offered admissions got a mail");

        TestApp.Http.Reply paid = w.f.checkout(app.token("wlc-ann"), holdId, "card_ok");
        assertEquals(200, paid.status(), paid.body());
        assertEquals("BOOKED", w.status("wlc-ann", showId));
        assertEquals(3, w.count("select count(*) from booking_seats where show_id = ? and area = 'FLOOR' and live", showId),
                "one ticket per admission");
        app.assertInvariantsHold();
    }

    @Test
    void badJoinsOfAnArea_areRefusedWithAnError_andChangeNothing() {
        String showId = newShowWithFloor(2, 1, 3);
        held("wlc-g1", showId, 1);

        assertError(join("wlc-eve", showId, "{\"area\":\"FLOOR\",\"quantity\":1}"), 409, "SEATS_AVAILABLE");
        held("wlc-g2", showId, 1);
        assertError(join("wlc-eve", showId, "{\"area\":\"BALCONY\",\"quantity\":1}"), 422, "UNKNOWN_AREA");
        TestApp.Http.Reply overTheAccount = join("wlc-eve", showId, "{\"area\":\"FLOOR\",\"quantity\":4}");
        assertError(overTheAccount, 422, "TOO_MANY_SEATS");
        assertEquals(3, overTheAccount.json().get("maxQuantity").asInt(), overTheAccount.body());
        assertError(join("wlc-eve", showId, "{\"area\":\"FLOOR\",\"section\":\"A\",\"quantity\":1}"), 400, "BAD_REQUEST");
        assertError(join("wlc-eve", showId, "{\"area\":\"FLO OR\",\"quantity\":1}"), 400, "BAD_REQUEST");
        assertError(join("wlc-eve", showId, "{\"area\":7,\"quantity\":1}"), 400, "BAD_REQUEST");
        assertError(join("wlc-eve", showId, "{\"area\":\"FLOOR\",\"quantity\":0}"), 400, "BAD_REQUEST");
        assertError(join("wlc-eve", showId, "{\"area\":\"FLOOR\"}"), 400, "BAD_REQUEST");
        assertEquals(0, w.count("select count(*) from waitlist_entries where show_id = ?", showId));

        assertEquals(1, joined("wlc-eve", showId, 2));
        assertEquals(200, join("wlc-eve", showId, "{\"area\":\"FLOOR\",\"quantity\":2}").status(),
                "the same join again answers the entry");
        assertError(join("wlc-eve", showId, "{\"quantity\":2}"), 409, "ALREADY_ON_WAITLIST");
        assertEquals(1, w.count("select count(*) from waitlist_entries where show_id = ?", showId));
    }

    @Test
    void aCancelledBooking_andADeclinedOffer_giveTheirAdmissionsToTheNextInLine() {
        String showId = newShowWithFloor(2, 1, 100);
        TestApp.Http.Reply paid = w.f.checkout(app.token("wlc-cleo"), held("wlc-cleo", showId, 2), "card_ok");
        assertEquals(200, paid.status(), paid.body());
        long bookingId = paid.json().get("bookingId").asLong();
        joined("wlc-dan", showId, 2);
        joined("wlc-fay", showId, 1);

        TestApp.Http.Reply cancelled = w.http.delete("/v1/bookings/" + bookingId, app.token("wlc-cleo"));
        assertEquals(200, cancelled.status(), cancelled.body());
        String danHold = w.awaitStatus("wlc-dan", showId, "OFFERED").get("offer").get("holdId").asText();
        assertEquals("WAITING", w.status("wlc-fay", showId), "both came back to dan, who was first");

        w.release("wlc-dan", danHold);
        w.awaitStatus("wlc-fay", showId, "OFFERED");
        w.offers().match(showId);
        assertEquals("DECLINED", w.status("wlc-dan", showId));
        assertEquals(1, offered(showId));
        assertEquals(1, taken(showId));
        app.assertInvariantsHold();
    }

    /**
     * Holders give back every admission of a sold-out area while fans join its waitlist and passes
     * over the line race, all at once: at no moment do holds (offers included) and sales exceed the
     * capacity, no fan is offered twice, and once things settle every admission that came back is
     * offered to exactly one waiter, or nobody waits any more.
     */
    @Test
    void parallelReturnsJoinsAndPasses_neverOfferMoreThanCameBack_norAnyAdmissionTwice() throws Exception {
        int capacity = 24;
        int waiters = 30;
        String showId = newShowWithFloor(capacity, 4, 100);
        List<String> holds = new ArrayList<>();
        for (int i = 0; i < capacity; i++) {
            holds.add(held("wlc-h" + i, showId, 1));
        }
        // a few fans are in line before anything comes back
        for (int i = 0; i < 6; i++) {
            joined("wlc-w" + i, showId, 1);
        }
        AtomicBoolean racing = new AtomicBoolean(true);
        AtomicLong mostTaken = new AtomicLong();
        AtomicInteger joins = new AtomicInteger(6);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> work = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
            Future<?> sampler = pool.submit(() -> {
                while (racing.get()) {
                    mostTaken.accumulateAndGet(w.count("select coalesce(sum(quantity), 0) from admission_hold_parts "
                            + "where show_id = ? and status <> 'ENDED'", showId), Math::max);
                }
                return null;
            });
            for (int i = 0; i < capacity; i++) {
                int n = i;
                work.add(pool.submit(() -> {
                    go.await();
                    w.release("wlc-h" + n, holds.get(n));
                    return null;
                }));
            }
            for (int i = 6; i < waiters; i++) {
                int n = i;
                work.add(pool.submit(() -> {
                    go.await();
                    TestApp.Http.Reply r = join("wlc-w" + n, showId, "{\"area\":\"FLOOR\",\"quantity\":1}");
                    assertTrue(r.status() == 201 || r.status() == 409, r.body());
                    if (r.status() == 201) {
                        joins.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (int i = 0; i < 3; i++) {
                work.add(pool.submit(() -> {
                    go.await();
                    for (int k = 0; k < 5; k++) {
                        w.offers().match(showId);
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : work) {
                f.get();
            }
            // settle: a pass after the last return offers whatever a refused take left free
            assertTrue(CheckoutFixture.waitFor(() -> {
                w.offers().match(showId);
                return w.count("select count(*) from waitlist_entries where show_id = ? and state in ('WAITING', "
                        + "'OFFERING')", showId) == 0 || offered(showId) == capacity;
            }, Duration.ofSeconds(20)), "nobody waits while admissions are free");
            racing.set(false);
            sampler.get();
        }

        assertTrue(mostTaken.get() <= capacity, "held and offered at most the capacity: " + mostTaken.get());
        assertEquals(Math.min(capacity, joins.get()), offered(showId), "each admission that came back offered once");
        assertEquals(offered(showId), w.count("select count(*) from waitlist_entries where show_id = ? "
                + "and state = 'OFFERED'", showId), "one offer per offered entry");
        assertEquals(0, w.count("select count(*) from (select account_id from holds where show_id = ? "
                + "and hold_id like 'W%' and status = 'ACTIVE' group by account_id having count(*) > 1) t", showId),
                "no fan holds two offers");
        assertTrue(taken(showId) <= capacity);
        app.assertInvariantsHold();
    }
}
