package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.boxoffice.app.CheckoutFixture.assertError;
import static org.boxoffice.app.CheckoutFixture.json;
import static org.boxoffice.app.CheckoutFixture.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Paying for holds through the real routing, grid, PostgreSQL and the simulated provider's webhooks. */
@ServerTest
class CheckoutApiTest {

    private static final String SHOW = "comedy-2";
    private static TestApp app;
    private final CheckoutFixture f;

    CheckoutApiTest(URI uri) {
        this.f = new CheckoutFixture(app, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server, s -> s.withCheckout(CheckoutFixture.settings(CheckoutFixture.noisyWebhooks())));
    }

    @Test
    void checkout_booksTheHold_withOneSignedTicketPerSeat() {
        String alice = app.token("alice-c");
        String holdId = f.hold(alice, SHOW, "STALLS-1-1", "STALLS-1-2");

        TestApp.Http.Reply r = f.checkout(alice, holdId, "card_ok");

        assertEquals(200, r.status(), r.body());
        assertEquals("BOOKED", json(r).get("status").asText());
        long bookingId = json(r).get("bookingId").asLong();
        JsonNode b = json(f.http.get("/v1/bookings/" + bookingId, alice));
        assertEquals("CONFIRMED", b.get("status").asText());
        assertEquals(holdId, b.get("holdId").asText());
        assertEquals(2, b.get("seats").size());
        assertEquals(2, b.get("tickets").size());
        assertTrue(f.http.get("/v1/bookings/" + bookingId, alice).body().contains("\"totalAmount\":178.00"));
        assertNotEquals(b.get("tickets").get(0).get("code"), b.get("tickets").get(1).get("code"));
        assertTrue(b.get("tickets").get(0).get("code").asText().startsWith("BX1."));
        for (String seat : new String[] {"STALLS-1-1", "STALLS-1-2"}) {
            assertEquals(String.valueOf(bookingId), f.one("select booking_id from seats where show_id = ? and seat_id = ? "
                    + "and state = 'SOLD'", SHOW, seat));
        }
        assertEquals("CONFIRMED", json(f.http.get("/v1/holds/" + holdId, alice)).get("status").asText());
        JsonNode mine = json(f.http.get("/v1/accounts/me/bookings", alice)).get("bookings");
        assertEquals(1, mine.size());
        assertEquals(bookingId, mine.get(0).get("bookingId").asLong());
        assertError(f.http.get("/v1/bookings/" + bookingId, app.token("mallory-c")), 404, "NOT_FOUND");
        assertEquals(200, f.http.get("/v1/bookings/" + bookingId, app.token("ops", "admin")).status());
        assertEquals(0, json(f.http.get("/v1/accounts/me/bookings", app.token("mallory-c"))).get("bookings").size());
        assertError(f.http.get("/v1/bookings/nope", alice), 404, "NOT_FOUND");
        assertError(f.http.get("/v1/bookings/" + bookingId, null), 401, "UNAUTHORIZED");
    }

    @Test
    void aRetriedCheckout_answersTheSame_andNeverChargesTwice() {
        String bob = app.token("bob-c");
        String holdId = f.hold(bob, SHOW, "STALLS-2-1");
        int chargesBefore = app.simulator().chargeCount();

        TestApp.Http.Reply first = f.checkout(bob, holdId, "card_ok", "retry-key");
        TestApp.Http.Reply retry = f.checkout(bob, holdId, "card_ok", "retry-key");
        TestApp.Http.Reply otherKey = f.checkout(bob, holdId, "card_ok", "another-key");

        assertEquals(200, first.status(), first.body());
        assertEquals(first.body(), retry.body());
        assertEquals(200, otherKey.status(), otherKey.body());
        assertEquals(json(first).get("bookingId"), json(otherKey).get("bookingId"), "a booked hold answers its booking");
        assertEquals(chargesBefore + 1, app.simulator().chargeCount());
        assertEquals(1, f.count("select count(*) from payments where hold_id = ?", holdId));
        assertError(f.http.post("/v1/holds/" + holdId + "/checkout", bob, "{\"paymentMethod\":\"card_declined\"}",
                "Idempotency-Key", "retry-key"), 422, "IDEMPOTENCY_KEY_REUSED");
    }

    @Test
    void aDeclinedCard_answers402_keepsTheHold_andANewAttemptWithItsOwnKeyBooks() {
        String carol = app.token("carol-c");
        String holdId = f.hold(carol, SHOW, "STALLS-3-1", "STALLS-3-2");

        TestApp.Http.Reply declined = f.checkout(carol, holdId, "card_declined");

        assertError(declined, 402, "PAYMENT_DECLINED");
        assertEquals(holdId + "-P1", json(declined).get("paymentId").asText());
        assertEquals("HELD", json(f.http.get("/v1/holds/" + holdId, carol)).get("status").asText());
        TestApp.Http.Reply paid = f.checkout(carol, holdId, "card_ok");
        assertEquals(200, paid.status(), paid.body());
        assertEquals(holdId + "-P2", json(paid).get("paymentId").asText());
        assertEquals(java.util.List.of("bx-" + holdId + "-1", "bx-" + holdId + "-2"),
                f.query("select idempotency_key from payments where hold_id = ? order by attempt", holdId));
        assertEquals(java.util.List.of("DECLINED", "CAPTURED"),
                f.query("select status from payments where hold_id = ? order by attempt", holdId));
    }

    @Test
    void startingPayment_extendsTheHoldOnce_andAPendingPaymentIsBookedByTheWebhook() {
        String dave = app.token("dave-c");
        String holdId = f.hold(dave, SHOW, "STALLS-4-1");
        Instant before = Instant.parse(json(f.http.get("/v1/holds/" + holdId, dave)).get("expiresAt").asText());

        TestApp.Http.Reply pending = f.checkout(dave, holdId, "card_pending");

        assertEquals(202, pending.status(), pending.body());
        assertEquals("PENDING", json(pending).get("status").asText());
        String paymentId = json(pending).get("paymentId").asText();
        Instant extended = Instant.parse(json(f.http.get("/v1/holds/" + holdId, dave)).get("expiresAt").asText());
        assertEquals(Duration.ofMinutes(5), Duration.between(before, extended));
        assertEquals("t", f.one("select extended from holds where hold_id = ?", holdId));
        TestApp.Http.Reply again = f.checkout(dave, holdId, "card_ok");
        assertError(again, 409, "PAYMENT_IN_PROGRESS");
        assertEquals(paymentId, json(again).get("paymentId").asText(), "money may be moving: no second charge");
        assertTrue(waitFor(() -> f.count("select count(*) from bookings where hold_id = ?", holdId) == 1,
                Duration.ofSeconds(10)), "the captured webhook books the hold");
        assertEquals(extended, Instant.parse(json(f.http.get("/v1/holds/" + holdId, dave)).get("expiresAt").asText()),
                "extended once only");
        TestApp.Http.Reply booked = f.checkout(dave, holdId, "card_ok");
        assertEquals(200, booked.status(), booked.body());
        assertEquals(1, f.count("select count(*) from payments where hold_id = ?", holdId));
    }

    @Test
    void twentyCheckoutsOfOneHoldAtOnce_chargeTheCardOnce() throws Exception {
        String olga = app.token("olga-c");
        String holdId = f.hold(olga, SHOW, "STALLS-7-1", "STALLS-7-2");
        f.checkoutsAtOnce(olga, holdId, 20);
        f.assertChargedOnceAndBookedOnce(holdId);
    }

    @Test
    void aCheckoutWhileAPaymentIsUndecided_answers409_andChargesNothing() {
        String pia = app.token("pia-c");
        String holdId = f.hold(pia, SHOW, "STALLS-7-5");
        TestApp.Http.Reply pending = f.checkout(pia, holdId, "card_late_success");
        assertEquals(202, pending.status(), pending.body());
        int charges = app.simulator().chargeCount();

        TestApp.Http.Reply second = f.checkout(pia, holdId, "card_ok");

        assertError(second, 409, "PAYMENT_IN_PROGRESS");
        assertEquals(json(pending).get("paymentId").asText(), json(second).get("paymentId").asText());
        assertEquals(charges, app.simulator().chargeCount(), "the provider was not called");
        assertTrue(waitFor(() -> f.count("select count(*) from bookings where hold_id = ? and status = 'CONFIRMED'",
                holdId) == 1, Duration.ofSeconds(10)), "the late success books the hold");
        assertEquals(1, f.count("select count(*) from payments where hold_id = ?", holdId));
    }

    @Test
    void releasingAHoldWhilePaymentIsPending_answers409_andTheBankDecides() {
        String ruth = app.token("ruth-c");
        String holdId = f.hold(ruth, SHOW, "STALLS-21-1");
        TestApp.Http.Reply pending = f.checkout(ruth, holdId, "card_pending");
        assertEquals(202, pending.status(), pending.body());
        String paymentId = json(pending).get("paymentId").asText();

        TestApp.Http.Reply release = f.http.delete("/v1/holds/" + holdId, ruth);

        assertError(release, 409, "PAYMENT_IN_PROGRESS");
        assertEquals(paymentId, json(release).get("paymentId").asText());
        assertEquals("HELD", f.one("select state from seats where show_id = ? and seat_id = 'STALLS-21-1'", SHOW),
                "the seat stays with the payer while the bank decides");
        assertTrue(waitFor(() -> f.count("select count(*) from bookings where hold_id = ? and status = 'CONFIRMED'",
                holdId) == 1, Duration.ofSeconds(10)), "the capture books the hold");
        assertEquals("CONFIRMED", f.one("select status from holds where hold_id = ?", holdId));
        assertEquals("CONFIRMED", json(f.http.get("/v1/holds/" + holdId, ruth)).get("status").asText());
        assertError(f.http.delete("/v1/holds/" + holdId, ruth), 409, "HOLD_CONFIRMED");

        String declined = f.hold(ruth, SHOW, "STALLS-21-2");
        assertEquals(402, f.checkout(ruth, declined, "card_declined").status());
        assertEquals(204, f.http.delete("/v1/holds/" + declined, ruth).status(), "a declined payment moves no money");
        assertEquals("AVAILABLE", f.one("select state from seats where show_id = ? and seat_id = 'STALLS-21-2'", SHOW));
    }

    @Test
    void aReleaseRacingACheckout_eitherReleasesAndChargesNothing_orBooksAndRefusesTheRelease() throws Exception {
        int released = 0;
        int booked = 0;
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            for (int round = 0; round < 12; round++) {
                String sam = app.token("sam-c" + round);
                String seat = "STALLS-22-" + (round + 1);
                String holdId = f.hold(sam, SHOW, seat);
                CountDownLatch go = new CountDownLatch(1);
                Future<TestApp.Http.Reply> checkout = pool.submit(() -> {
                    go.await();
                    return f.checkout(sam, holdId, "card_ok");
                });
                Future<TestApp.Http.Reply> release = pool.submit(() -> {
                    go.await();
                    return f.http.delete("/v1/holds/" + holdId, sam);
                });
                go.countDown();
                TestApp.Http.Reply paid = checkout.get();
                TestApp.Http.Reply gone = release.get();
                f.quiet();
                String prefix = "bx-" + holdId + "-";
                long charges = app.simulator().ledger().stream()
                        .filter(c -> c.idempotencyKey().startsWith(prefix)).count();
                if (gone.status() == 204) {
                    released++;
                    assertError(paid, 409, "HOLD_RELEASED");
                    assertEquals(0, charges, "a released hold is never charged");
                    assertEquals("RELEASED", f.one("select status from holds where hold_id = ?", holdId));
                    assertEquals("AVAILABLE", f.one("select state from seats where show_id = ? and seat_id = ?", SHOW, seat));
                    assertEquals(0, f.count("select count(*) from bookings where hold_id = ?", holdId));
                } else {
                    booked++;
                    assertEquals(200, paid.status(), paid.body());
                    assertTrue(gone.status() == 409, gone.body());
                    String code = json(gone).get("error").asText();
                    assertTrue(code.equals("PAYMENT_IN_PROGRESS") || code.equals("HOLD_CONFIRMED"), gone.body());
                    assertEquals(1, charges);
                    assertEquals("CONFIRMED", f.one("select status from holds where hold_id = ?", holdId));
                    assertEquals(1, f.soldRows(SHOW, seat));
                    assertEquals(0, f.count("select count(*) from payments where hold_id = ? and refund <> 'NONE'", holdId));
                }
            }
        }
        assertEquals(12, released + booked);
    }

    @Test
    void aTimedOutCharge_answers202_andItsLateSuccessIsBooked() {
        String erin = app.token("erin-c");
        String holdId = f.hold(erin, SHOW, "STALLS-5-1");

        TestApp.Http.Reply r = f.checkout(erin, holdId, "card_late_success");

        assertEquals(202, r.status(), r.body());
        assertTrue(waitFor(() -> f.count("select count(*) from bookings where hold_id = ? and status = 'CONFIRMED'",
                holdId) == 1, Duration.ofSeconds(10)));
        assertEquals(1, f.soldRows(SHOW, "STALLS-5-1"));
    }

    @Test
    void anExpiredHold_answers409_andNothingIsCharged() throws Exception {
        f.createShow("short-checkout", 1, 2);
        String gina = app.token("gina-c");
        String holdId = f.hold(gina, "short-checkout", "A-1-1");
        Thread.sleep(1_300);
        int charges = app.simulator().chargeCount();

        assertError(f.checkout(gina, holdId, "card_ok"), 409, "HOLD_EXPIRED");

        assertEquals(charges, app.simulator().chargeCount());
        assertEquals(0, f.count("select count(*) from payments where hold_id = ?", holdId));
        assertEquals("AVAILABLE", f.one("select state from seats where show_id = 'short-checkout' and seat_id = 'A-1-1'"));
        String released = f.hold(gina, "short-checkout", "A-1-2");
        assertEquals(204, f.http.delete("/v1/holds/" + released, gina).status());
        assertError(f.checkout(gina, released, "card_ok"), 409, "HOLD_RELEASED");
    }

    @Test
    void someoneElsesHold_is404_andBadRequests400_changingNothing() {
        String hank = app.token("hank-c");
        String holdId = f.hold(hank, SHOW, "STALLS-6-1");
        String path = "/v1/holds/" + holdId + "/checkout";

        assertError(f.checkout(app.token("ivy-c"), holdId, "card_ok"), 404, "NOT_FOUND");
        assertError(f.checkout(hank, "H-NOPE", "card_ok"), 404, "NOT_FOUND");
        assertError(f.http.post(path, hank, "{\"paymentMethod\":\"card_ok\"}"), 400, "BAD_REQUEST");
        String key = "Idempotency-Key";
        assertError(f.http.post(path, hank, "{}", key, UUID.randomUUID().toString()), 400, "BAD_REQUEST");
        assertError(f.http.post(path, hank, "{\"paymentMethod\":42}", key, "k1"), 400, "BAD_REQUEST");
        assertError(f.http.post(path, hank, "{\"paymentMethod\":\"card ok\"}", key, "k2"), 400, "BAD_REQUEST");
        assertError(f.http.post(path, hank, "{\"paymentMethod\":\"card_ok\",\"amount\":1}", key, "k3"), 400, "BAD_REQUEST");
        assertError(f.http.post(path, hank, "{broken", key, "k4"), 400, "BAD_REQUEST");
        assertError(f.http.post(path, hank, null, key, "k5"), 400, "BAD_REQUEST");
        assertError(f.http.post(path, null, "{\"paymentMethod\":\"card_ok\"}", key, "k6"), 401, "UNAUTHORIZED");

        assertEquals(0, f.count("select count(*) from payments where hold_id = ?", holdId));
        assertEquals("f", f.one("select extended from holds where hold_id = ?", holdId));
        assertEquals(200, f.checkout(hank, holdId, "card_ok").status());
    }
}
