package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.boxoffice.app.CheckoutFixture.assertError;
import static org.boxoffice.app.CheckoutFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Paying for holds of admissions (general admission) and cancelling their bookings, through the real
 * routing on a real socket, a real grid member, real PostgreSQL and the simulated provider's (noisy)
 * webhooks: one ticket per admission, each admitting once; money and admissions accounted for under races.
 */
@ServerTest
class GeneralAdmissionCheckoutTest {

    private static final AtomicInteger SHOWS = new AtomicInteger();
    private static TestApp app;
    private final CheckoutFixture f;
    private final String admin;

    GeneralAdmissionCheckoutTest(URI uri) {
        this.f = new CheckoutFixture(app, uri);
        this.admin = app.token("ops", "admin");
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server, s -> s.withCheckout(CheckoutFixture.settings(CheckoutFixture.noisyWebhooks())));
    }

    /** A new show on sale, holds lasting {@code holdSeconds} with no grace, and an area FLOOR at 45.00. */
    private String newShowWithFloor(int capacity, int stripes, int holdSeconds) {
        String showId = "ga-pay-" + SHOWS.incrementAndGet();
        TestApp.Http.Reply show = f.http.post("/v1/admin/shows", admin, "{\"showId\":\"" + showId
                + "\",\"eventId\":\"mahler-5\",\"startsAt\":\"2031-06-01T20:00:00Z\",\"holdSeconds\":" + holdSeconds
                + ",\"graceSeconds\":0,\"maxPerAccount\":100,\"sections\":[{\"name\":\"A\",\"price\":\"10.00\","
                + "\"rows\":1,\"seatsPerRow\":10}]}");
        assertEquals(201, show.status(), show.body());
        f.createFloor(showId, capacity, "45.00", stripes);
        return showId;
    }

    private TestApp.Http.Reply holdAdmissions(String token, String showId, int quantity) {
        return f.http.post("/v1/shows/" + showId + "/holds", token, "{\"area\":\"FLOOR\",\"quantity\":" + quantity + "}");
    }

    private String heldAdmissions(String token, String showId, int quantity) {
        TestApp.Http.Reply r = holdAdmissions(token, showId, quantity);
        assertEquals(201, r.status(), r.body());
        return json(r).get("holdId").asText();
    }

    private long booked(String token, String showId, int quantity) {
        TestApp.Http.Reply r = f.checkout(token, heldAdmissions(token, showId, quantity), "card_ok");
        assertEquals(200, r.status(), r.body());
        return json(r).get("bookingId").asLong();
    }

    private long taken(String showId) {
        return f.count("select coalesce(sum(taken), 0) from admission_stripes where show_id = ? and area = 'FLOOR'", showId);
    }

    private long liveTickets(String showId) {
        return f.count("select count(*) from booking_seats where show_id = ? and area = 'FLOOR' and live", showId);
    }

    @Test
    void checkoutOfAHoldByCount_booksIt_withOneTicketPerAdmission_eachAdmittingOnce() throws Exception {
        String showId = newShowWithFloor(10, 3, 60);
        String ann = app.token("ann-gap");
        String holdId = heldAdmissions(ann, showId, 3);

        TestApp.Http.Reply r = f.checkout(ann, holdId, "card_ok");

        assertEquals(200, r.status(), r.body());
        assertEquals("BOOKED", json(r).get("status").asText());
        long bookingId = json(r).get("bookingId").asLong();
        TestApp.Http.Reply view = f.http.get("/v1/bookings/" + bookingId, ann);
        JsonNode b = json(view);
        assertEquals("CONFIRMED", b.get("status").asText());
        assertTrue(view.body().contains("\"totalAmount\":135.00"), view.body());
        assertEquals(3, b.get("seats").size());
        assertEquals(3, b.get("tickets").size());
        Set<String> codes = new HashSet<>();
        for (int n = 1; n <= 3; n++) {
            JsonNode seat = b.get("seats").get(n - 1);
            assertEquals("FLOOR~" + n, seat.get("seatId").asText());
            assertEquals("FLOOR", seat.get("section").asText());
            assertEquals(n, seat.get("number").asInt());
            JsonNode ticket = b.get("tickets").get(n - 1);
            assertEquals("FLOOR~" + n, ticket.get("seatId").asText());
            codes.add(ticket.get("code").asText());
            TestApp.Http.Reply qr = f.http.get(ticket.get("qr").asText(), ann);
            assertEquals(200, qr.status(), qr.body());
            assertEquals("image/png", qr.headers().firstValue("Content-Type").orElse(""));
        }
        assertEquals(3, codes.size(), "every admission has its own code");
        assertEquals("CONFIRMED", json(f.http.get("/v1/holds/" + holdId, ann)).get("status").asText());
        assertEquals(3, taken(showId));
        assertEquals(3, liveTickets(showId));
        assertEquals(3, f.count("select coalesce(sum(quantity), 0) from admission_hold_parts where hold_id = ? "
                + "and status = 'SOLD'", holdId));
        String first = codes.iterator().next();
        assertEquals("VALID", f.gate(first));
        assertEquals("ALREADY_USED", f.gate(first));
        for (String code : codes) {
            if (!code.equals(first)) {
                assertEquals("VALID", f.gate(code), "each admission admits once, on its own");
            }
        }
        TestApp.Http.Reply rotating = f.http.get("/v1/bookings/" + bookingId + "/tickets/FLOOR~2/rotating", ann);
        assertEquals(200, rotating.status(), rotating.body());
        assertError(f.http.get("/v1/bookings/" + bookingId + "/tickets/FLOOR~4/qr.png", ann), 404, "NOT_FOUND");
        assertError(f.http.get("/v1/bookings/" + bookingId + "/tickets/FLOOR~1/qr.png", app.token("mallory-gap")),
                404, "NOT_FOUND");
        assertError(f.checkout(app.token("mallory-gap"), holdId, "card_ok"), 404, "NOT_FOUND");
        f.quiet();
        f.assertMoneyConserved();
        app.assertInvariantsHold();
    }

    @Test
    void twentyCheckoutsOfOneHoldByCountAtOnce_chargeOnce_andBookOnce() throws Exception {
        String showId = newShowWithFloor(20, 4, 60);
        String olga = app.token("olga-gap");
        String holdId = heldAdmissions(olga, showId, 4);
        f.checkoutsAtOnce(olga, holdId, 20);
        f.assertChargedOnceAndBookedOnce(holdId);
        assertEquals(4, liveTickets(showId));
        assertEquals(4, taken(showId));
        f.assertMoneyConserved();
        app.assertInvariantsHold();
    }

    @Test
    void tenCancellationsOfABookingOfAdmissionsAtOnce_refundOnce_andGiveTheAdmissionsBackOnce() throws Exception {
        String showId = newShowWithFloor(6, 3, 60);
        String cleo = app.token("cleo-gap");
        long other = booked(app.token("dan-gap"), showId, 2);
        long bookingId = booked(cleo, showId, 4);
        String code = json(f.http.get("/v1/bookings/" + bookingId, cleo)).get("tickets").get(0).get("code").asText();
        assertEquals(6, taken(showId));
        assertError(holdAdmissions(app.token("eve-gap"), showId, 1), 409, "SOLD_OUT");
        long refundedBefore = app.simulator().refundedCents();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<TestApp.Http.Reply>> replies = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(10)) {
            for (int i = 0; i < 10; i++) {
                replies.add(pool.submit(() -> {
                    go.await();
                    return f.http.delete("/v1/bookings/" + bookingId, cleo);
                }));
            }
            go.countDown();
            for (Future<TestApp.Http.Reply> r : replies) {
                TestApp.Http.Reply reply = r.get();
                assertTrue(reply.status() == 200 || reply.status() == 503, reply.body());
            }
        }
        f.quiet();
        assertTrue(CheckoutFixture.waitFor(() -> "CANCELLED".equals(f.one("select status from bookings where booking_id = ?",
                bookingId)), Duration.ofSeconds(10)), "the booking ends CANCELLED");
        assertEquals(18_000, app.simulator().refundedCents() - refundedBefore, "one refund, whole");
        assertEquals(2, taken(showId), "the four admissions went back once; the other booking's two stay sold");
        assertEquals(2, liveTickets(showId));
        assertEquals(0, f.count("select count(*) from admission_hold_parts p join bookings b on b.hold_id = p.hold_id "
                + "where b.booking_id = ? and p.status <> 'ENDED'", bookingId));
        assertEquals("INVALID", f.gate(code));
        assertEquals("CONFIRMED", f.one("select status from bookings where booking_id = ?", other));
        TestApp.Http.Reply again = f.http.delete("/v1/bookings/" + bookingId, cleo);
        assertEquals(200, again.status(), again.body());
        assertEquals(2, taken(showId), "cancelling a cancelled booking gives nothing back");
        booked(app.token("eve-gap"), showId, 4);
        assertEquals(6, liveTickets(showId), "the admissions given back sell again");
        assertError(holdAdmissions(app.token("fay-gap"), showId, 1), 409, "SOLD_OUT");
        f.quiet();
        f.assertMoneyConserved();
        app.assertInvariantsHold();
    }

    @Test
    void whenHoldsLapseAndCheckoutsRace_anAreaNeverIssuesMoreThanItsCapacity() throws Exception {
        int capacity = 6;
        String showId = newShowWithFloor(capacity, 3, 2);
        // a first wave holds everything and lets it lapse; a second wave holds what came back
        List<String[]> lapsing = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String token = app.token("early-gap-" + i);
            lapsing.add(new String[] {token, heldAdmissions(token, showId, 2)});
        }
        assertError(holdAdmissions(app.token("late-gap-x"), showId, 1), 409, "SOLD_OUT");
        Thread.sleep(2_300);
        List<String[]> fresh = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            String token = app.token("late-gap-" + i);
            TestApp.Http.Reply r = holdAdmissions(token, showId, 1);
            if (r.status() == 201) {
                fresh.add(new String[] {token, json(r).get("holdId").asText()});
            }
        }
        assertEquals(capacity, fresh.size(), "the lapsed holds' admissions are free again");
        List<String[]> all = new ArrayList<>(lapsing);
        all.addAll(fresh);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<TestApp.Http.Reply>> replies = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(all.size())) {
            for (String[] buyer : all) {
                Callable<TestApp.Http.Reply> pay = () -> {
                    go.await();
                    return f.checkout(buyer[0], buyer[1], "card_ok");
                };
                replies.add(pool.submit(pay));
            }
            go.countDown();
            for (Future<TestApp.Http.Reply> r : replies) {
                TestApp.Http.Reply reply = r.get();
                assertTrue(reply.status() == 200 || reply.status() == 409 || reply.status() == 202, reply.body());
            }
        }
        f.quiet();
        assertTrue(CheckoutFixture.waitFor(() -> f.count("select count(*) from payments p join holds h using (hold_id) "
                + "where h.show_id = ? and p.status = 'CAPTURED' and p.settlement in ('NONE', 'SETTLING')", showId) == 0,
                Duration.ofSeconds(20)), "every captured payment is settled");
        assertTrue(liveTickets(showId) <= capacity, liveTickets(showId) + " tickets for " + capacity + " admissions");
        assertTrue(taken(showId) <= capacity);
        for (String[] early : lapsing) {
            assertNotEquals("CONFIRMED", f.one("select status from bookings where hold_id = ?", early[1]));
        }
        f.assertMoneyConserved();
        app.assertInvariantsHold();
    }
}
