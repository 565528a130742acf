package org.boxoffice.app;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.payments.SimulatedPaymentGateway;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import static org.boxoffice.app.CheckoutFixture.assertError;
import static org.boxoffice.app.CheckoutFixture.json;
import static org.boxoffice.app.CheckoutFixture.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Settlement at the edges: money arriving after the hold lapsed, two captured attempts of one
 * hold, a hold spanning blocks that fails half way, and the expiry race. Holds here are not
 * extended when payment starts, so settlement meets expiry head on.
 */
@ServerTest
class SettlementTest {

    private static final String SHORT = "short-settle";
    private static TestApp app;
    private final CheckoutFixture f;

    SettlementTest(URI uri) {
        this.f = new CheckoutFixture(app, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        SimulatedPaymentGateway.Settings sim = new SimulatedPaymentGateway.Settings(Duration.ZERO, Duration.ofMillis(40), 0, 0, 0,
                Duration.ofMillis(1_500), 0, 0.3, Duration.ofMillis(100), 8, null, 11);
        app = TestApp.serve(server, s -> s.withCheckout(CheckoutFixture.settings(sim).withPaymentWindow(Duration.ZERO)));
    }

    private void shortShow() {
        if (f.count("select count(*) from shows where show_id = ?", SHORT) == 0) {
            f.createShow(SHORT, 1, 20);
        }
    }

    @Test
    void moneyAfterExpiry_reclaimsTheSeats_whenTheyAreStillFree() {
        shortShow();
        String ann = app.token("ann-s");
        String holdId = f.hold(ann, SHORT, "A-1-1", "A-1-2");

        TestApp.Http.Reply r = f.checkout(ann, holdId, "card_late_success");

        assertEquals(202, r.status(), r.body());
        assertTrue(waitFor(() -> f.count("select count(*) from bookings where hold_id = ? and status = 'CONFIRMED'",
                holdId) == 1, Duration.ofSeconds(30)), "the late payment is booked");
        String bookingId = f.one("select booking_id from bookings where hold_id = ?", holdId);
        assertEquals(List.of(bookingId, bookingId), f.query(
                "select booking_id from seats where show_id = ? and seat_id in ('A-1-1', 'A-1-2') and state = 'SOLD'", SHORT));
        assertEquals("EXPIRED", f.one("select status from holds where hold_id = ?", holdId), "the hold itself lapsed");
        assertEquals("CONFIRMED", f.one("select status from holds where hold_id like ? || '~%'", holdId),
                "the seats were re-claimed under a new hold and sold");
        assertEquals("NONE", f.one("select refund from payments where hold_id = ?", holdId));
        f.quiet();
        f.assertMoneyConserved();
    }

    @Test
    void moneyAfterExpiry_isRefundedWithTheReason_whenSomeoneElseTookTheSeats() throws Exception {
        shortShow();
        String ben = app.token("ben-s");
        String holdId = f.hold(ben, SHORT, "A-2-1");
        assertEquals(202, f.checkout(ben, holdId, "card_late_success").status());
        Thread.sleep(1_100);
        String rival = f.hold(app.token("rival-s"), SHORT, "A-2-1");

        assertTrue(waitFor(() -> "REFUNDED".equals(f.one("select refund from payments where hold_id = ?", holdId)),
                Duration.ofSeconds(30)), "the late payment is refunded");

        assertEquals("REJECTED", f.one("select settlement from payments where hold_id = ?", holdId));
        assertTrue(f.one("select reason from payments where hold_id = ?", holdId).contains("taken by someone else"));
        assertEquals(0, f.count("select count(*) from bookings where hold_id = ?", holdId));
        assertEquals("HELD", f.one("select state from seats where show_id = ? and seat_id = 'A-2-1'", SHORT));
        assertEquals(rival, f.one("select hold_id from seats where show_id = ? and seat_id = 'A-2-1'", SHORT));
        assertEquals(0, f.soldRows(SHORT, "A-2-1"));
        f.quiet();
        f.assertMoneyConserved();
    }

    @Test
    void moneyAfterAHoldOfAdmissionsLapsed_isRefunded_andItsAdmissionsGoBackToTheArea() {
        String show = "short-ga";
        f.createShow(show, 1, 1);
        f.createFloor(show, 4, "20.00", 2);
        String gus = app.token("gus-s");
        TestApp.Http.Reply held = f.http.post("/v1/shows/" + show + "/holds", gus, "{\"area\":\"FLOOR\",\"quantity\":3}");
        assertEquals(201, held.status(), held.body());
        String holdId = json(held).get("holdId").asText();

        assertEquals(202, f.checkout(gus, holdId, "card_late_success").status());

        assertTrue(waitFor(() -> "REFUNDED".equals(f.one("select refund from payments where hold_id = ?", holdId)),
                Duration.ofSeconds(30)), "the late payment is refunded");
        assertEquals("REJECTED", f.one("select settlement from payments where hold_id = ?", holdId));
        assertTrue(f.one("select reason from payments where hold_id = ?", holdId).contains("expired"));
        assertEquals(0, f.count("select count(*) from bookings where hold_id = ?", holdId));
        assertEquals(0, f.count("select coalesce(sum(taken), 0) from admission_stripes where show_id = ?", show),
                "the lapsed hold's admissions are no longer counted");
        TestApp.Http.Reply all = f.http.post("/v1/shows/" + show + "/holds", app.token("hal-s"),
                "{\"area\":\"FLOOR\",\"quantity\":4}");
        assertEquals(201, all.status(), "every admission is back on sale: " + all.body());
        f.quiet();
        f.assertMoneyConserved();
        app.app.invariants().checkNow().forEach((kind, count) -> assertEquals(0L, count, kind));
    }

    @Test
    void aSecondCheckoutWhileTheFirstIsUndecided_chargesNothing_andTheLateFirstPaymentBooks() {
        String cat = app.token("cat-s");
        String holdId = f.hold(cat, "fado-1", "PLATEIA-2-1");

        assertEquals(202, f.checkout(cat, holdId, "card_late_success").status(), "attempt 1 times out");
        TestApp.Http.Reply second = f.checkout(cat, holdId, "card_ok");
        assertError(second, 409, "PAYMENT_IN_PROGRESS");

        assertTrue(waitFor(() -> f.count("select count(*) from bookings where hold_id = ? and status = 'CONFIRMED'",
                holdId) == 1, Duration.ofSeconds(10)), "the late first attempt is booked");
        assertEquals(holdId + "-P1", f.one("select payment_id from bookings where hold_id = ?", holdId));
        assertEquals(1, f.count("select count(*) from payments where hold_id = ?", holdId), "no second attempt, no second charge");
        assertEquals(1, f.soldRows("fado-1", "PLATEIA-2-1"));
        f.quiet();
        f.assertMoneyConserved();
    }

    @Test
    void aHoldThatFailsInItsSecondBlock_isNotBooked_itsFirstBlockGoesBackOnSale_andTheMoneyIsRefunded() {
        String dan = app.token("dan-s");
        String admin = app.token("ops", "admin");
        // PLATEIA has 32 seats a row, so rows 1-8 are block 0 and rows 9-16 block 1
        String holdId = f.hold(dan, "fado-1", "PLATEIA-4-1", "PLATEIA-12-1");
        assertEquals(202, f.checkout(dan, holdId, "card_pending").status(), "captured later, by webhook");
        // while the money moves, the hold loses its seat in block 1 (block 0 still holds)
        assertEquals(200, f.http.post("/v1/admin/shows/fado-1/seats/block", admin,
                "{\"seatIds\":[\"PLATEIA-12-1\"],\"reason\":\"broken seat\"}").status());

        assertTrue(waitFor(() -> "REFUNDED".equals(f.one("select refund from payments where hold_id = ?", holdId)),
                Duration.ofSeconds(10)), "the payment is refunded");

        assertTrue(f.one("select reason from payments where hold_id = ?", holdId).contains("no longer holds all its seats"));
        assertEquals("AVAILABLE", f.one("select state from seats where show_id = 'fado-1' and seat_id = 'PLATEIA-4-1'"));
        assertEquals("BLOCKED", f.one("select state from seats where show_id = 'fado-1' and seat_id = 'PLATEIA-12-1'"));
        assertEquals(0, f.count("select count(*) from bookings where hold_id = ?", holdId));
        assertEquals("RELEASED", f.one("select status from holds where hold_id = ?", holdId));
        assertEquals(List.of("CONFIRM", "CANCEL"), f.query("select kind from seat_events where show_id = 'fado-1' "
                + "and seat_id = 'PLATEIA-4-1' and kind in ('CONFIRM', 'CANCEL') order by event_id"),
                "block 0 was confirmed, then cancelled back to sale");
        // back on sale: a member's fast gate sees a freed seat at its next snapshot refresh
        String eve = app.token("eve-s");
        assertTrue(waitFor(() -> f.http.post("/v1/shows/fado-1/holds", eve,
                "{\"seatIds\":[\"PLATEIA-4-1\"]}").status() == 201, Duration.ofSeconds(5)),
                "the first block's seat can be held again");
        f.quiet();
        f.assertMoneyConserved();
    }

    /**
     * Checkout against expiry at the boundary, many times, with a rival grabbing the seat the moment
     * it lapses: each hold ends exactly one way, booked (and charged) or not booked (and not charged,
     * or refunded), and a seat is never sold twice.
     */
    @Test
    void expiryAgainstCheckout_atTheBoundary_endsExactlyOneWay() throws Exception {
        shortShow();
        int races = 40;
        ExecutorService pool = Executors.newFixedThreadPool(16);
        List<String> holds = new ArrayList<>();
        List<String> seats = new ArrayList<>();
        List<Future<Integer>> answers = new ArrayList<>();
        try {
            for (int batch = 0; batch < races / 10; batch++) {
                List<Future<?>> rivals = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    String seat = "A-" + (11 + batch) + "-" + (i + 1);
                    String buyer = app.token("racer-" + batch + "-" + i);
                    String holdId = f.hold(buyer, SHORT, seat);
                    long expiresAt = Instant.parse(json(f.http.get("/v1/holds/" + holdId, buyer)).get("expiresAt").asText())
                            .toEpochMilli();
                    holds.add(holdId);
                    seats.add(seat);
                    long payAt = expiresAt - 60 + ThreadLocalRandom.current().nextLong(100);
                    answers.add(pool.submit(() -> {
                        sleepUntil(payAt);
                        return f.checkout(buyer, holdId, "card_ok").status();
                    }));
                    String rival = app.token("rival-" + batch + "-" + i);
                    rivals.add(pool.submit(() -> {
                        sleepUntil(expiresAt - 10);
                        while (System.currentTimeMillis() < expiresAt + 500) {
                            if (f.http.post("/v1/shows/" + SHORT + "/holds", rival,
                                    "{\"seatIds\":[\"" + seat + "\"]}").status() == 201) {
                                return true;
                            }
                            Thread.sleep(5);
                        }
                        return false;
                    }));
                }
                for (Future<?> rival : rivals) {
                    rival.get();
                }
            }
            for (Future<Integer> a : answers) {
                a.get();
            }
        } finally {
            pool.shutdownNow();
        }
        f.quiet();
        int booked = 0;
        for (int i = 0; i < holds.size(); i++) {
            String holdId = holds.get(i);
            int status = answers.get(i).get();
            boolean hasBooking = f.count("select count(*) from bookings where hold_id = ? and status = 'CONFIRMED'", holdId) == 1;
            long moneyKept = f.count("select count(*) from payments where hold_id = ? and status = 'CAPTURED' "
                    + "and refund <> 'REFUNDED'", holdId);
            long inFlight = f.count("select count(*) from payments where hold_id = ? and (status in ('PENDING', 'UNKNOWN') "
                    + "or (status = 'CAPTURED' and settlement in ('NONE', 'SETTLING')))", holdId);
            String seat = seats.get(i);
            assertEquals(0, inFlight, holdId + " still undecided");
            assertTrue(f.soldRows(SHORT, seat) <= 1, seat + " sold twice");
            if (hasBooking) {
                booked++;
                assertEquals(1, moneyKept, holdId + " booked: its payment is kept");
                assertEquals(f.one("select booking_id from bookings where hold_id = ?", holdId),
                        f.one("select booking_id from seats where show_id = ? and seat_id = ? and state = 'SOLD'", SHORT, seat));
                assertTrue(status == 200 || status == 202, holdId + " booked but answered " + status);
            } else {
                assertEquals(0, moneyKept, holdId + " not booked: nothing may be kept");
                assertTrue(status == 409 || status == 202, holdId + " not booked but answered " + status);
                assertNull(f.one("select booking_id from seats where show_id = ? and seat_id = ? and state = 'SOLD'",
                        SHORT, seat));
            }
        }
        System.out.println("expiry race: " + booked + " of " + holds.size() + " booked");
        assertTrue(booked > 0 && booked < holds.size(), "both outcomes occur at the boundary: " + booked);
        f.assertMoneyConserved();
    }

    private static void sleepUntil(long at) throws InterruptedException {
        long wait = at - System.currentTimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }
}
