package org.boxoffice.app;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.checkout.Reconciliation;
import org.boxoffice.app.payments.SimulatedPaymentGateway;
import org.boxoffice.domain.PaymentGateway;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.boxoffice.app.CheckoutFixture.json;
import static org.boxoffice.app.CheckoutFixture.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reconciliation against the provider's ledger, and money conservation after a randomized run with
 * failures injected: declines, lost answers, late successes, failed refunds, duplicated and
 * reordered webhooks, lost webhooks, holds lapsing while money moves, rivals and cancellations.
 */
@ServerTest
class ReconciliationTest {

    private static final String SHORT = "short-recon";
    private static TestApp app;
    private final CheckoutFixture f;

    ReconciliationTest(URI uri) {
        this.f = new CheckoutFixture(app, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        SimulatedPaymentGateway.Settings faulty = new SimulatedPaymentGateway.Settings(Duration.ZERO, Duration.ofMillis(30), 0.2, 0.25,
                0.6, Duration.ofMillis(1_200), 0.3, 0.3, Duration.ofMillis(200), 8, null, 2024);
        app = TestApp.serve(server, s -> s.withCheckout(CheckoutFixture.settings(faulty)
                .withPaymentWindow(Duration.ofSeconds(1)).withReconcile(Duration.ZERO, Duration.ZERO)));
    }

    private SimulatedPaymentGateway sim() {
        return app.simulator();
    }

    private Reconciliation reconciliation() {
        return app.app.checkout().reconciliation();
    }

    @Test
    void aCaptureWhoseWebhookWasLost_isBookedByReconciliation_andASecondRunChangesNothing() {
        String amy = app.token("amy-r");
        String holdId = f.hold(amy, "fado-1", "GALERIA-1-1");
        sim().dropWebhooks(true);
        try {
            assertEquals(202, f.checkout(amy, holdId, "card_late_success").status());
            assertTrue(waitFor(() -> sim().status("bx-" + holdId + "-1").map(PaymentGateway.ChargeStatus::state)
                    .orElse(null) == PaymentGateway.ChargeStatus.State.CAPTURED, Duration.ofSeconds(5)));
        } finally {
            sim().dropWebhooks(false);
        }
        assertEquals("UNKNOWN", f.one("select status from payments where hold_id = ?", holdId));

        reconciliation().reconcileOnce();
        String state = String.join(",", f.query("select status || settlement || refund from payments order by payment_id"));
        reconciliation().reconcileOnce();

        assertEquals(1, f.count("select count(*) from bookings where hold_id = ? and status = 'CONFIRMED'", holdId));
        assertEquals(state, String.join(",", f.query("select status || settlement || refund from payments order by payment_id")));
    }

    @Test
    void aCapturedChargeWithNoAttemptHere_isRefunded_once() {
        PaymentGateway.ChargeResult result = sim().charge(new PaymentGateway.ChargeRequest("stray-charge-1", 4_200, "EUR",
                "card_ok", "not ours"));
        assertTrue(result instanceof PaymentGateway.ChargeResult.Captured);

        for (int i = 0; i < 5 && sim().status("stray-charge-1").orElseThrow().refundedCents() == 0; i++) {
            reconciliation().reconcileOnce();    // refunds may fail here (30% injected); each run retries
        }
        reconciliation().reconcileOnce();

        assertEquals(4_200, sim().status("stray-charge-1").orElseThrow().refundedCents());
    }

    @Test
    void moneyIsConserved_andNoSeatIsSoldTwice_afterARandomizedRunWithFailuresInjected() throws Exception {
        String admin = app.token("ops", "admin");
        assertEquals(201, f.http.post("/v1/admin/shows", admin, "{\"eventId\":\"fado-nights\",\"showId\":\"" + SHORT
                + "\",\"startsAt\":\"2031-01-01T20:00:00Z\",\"holdSeconds\":2,\"graceSeconds\":0,\"maxPerAccount\":100,"
                + "\"sections\":[{\"name\":\"A\",\"price\":\"7.00\",\"rows\":2,\"seatsPerRow\":10}]}").status());
        String[] methods = {"card", "card", "card", "card_late_success", "card_pending", "card_declined", "card_timeout"};
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> buyers = new ArrayList<>();
        for (int b = 0; b < 48; b++) {
            int buyer = b;
            buyers.add(pool.submit(() -> {
                Random random = new Random(buyer);
                String token = app.token("buyer-" + buyer);
                String show = random.nextBoolean() ? SHORT : "fado-1";
                String seat = show.equals(SHORT) ? "A-" + (1 + random.nextInt(2)) + "-" + (1 + random.nextInt(10))
                        : "FRISAS-" + (1 + random.nextInt(4)) + "-" + (1 + random.nextInt(8));
                TestApp.Http.Reply held = f.http.post("/v1/shows/" + show + "/holds", token, "{\"seatIds\":[\"" + seat + "\"]}");
                if (held.status() != 201) {
                    return null;
                }
                String holdId = json(held).get("holdId").asText();
                if (buyer % 6 == 0) {
                    sim().dropWebhooks(true);
                }
                for (int attempt = 0; attempt < 3; attempt++) {
                    TestApp.Http.Reply r = f.checkout(token, holdId, methods[random.nextInt(methods.length)]);
                    if (buyer % 6 == 0) {
                        sim().dropWebhooks(false);
                    }
                    if (r.status() == 200 && random.nextInt(3) == 0) {
                        f.http.delete("/v1/bookings/" + json(r).get("bookingId").asLong(), token);
                    }
                    if (r.status() != 402) {
                        break;
                    }
                }
                return null;
            }));
        }
        for (Future<?> buyer : buyers) {
            buyer.get();
        }
        pool.shutdown();
        sim().dropWebhooks(false);
        f.quiet();
        // a hold is charged once now, so refunds come from cancellations and late money; make sure of one
        String confirmed = f.one("select booking_id || ' ' || account_id from bookings where status = 'CONFIRMED' "
                + "and not cancelling and show_id in (?, 'fado-1') order by (show_id = ?) desc, booking_id limit 1",
                SHORT, SHORT);
        if (confirmed != null) {
            String[] booking = confirmed.split(" ");
            f.http.delete("/v1/bookings/" + booking[0], app.token(booking[1]));   // the refund may fail: reconciliation retries
        }
        for (int run = 0; run < 8; run++) {
            reconciliation().reconcileOnce();
            f.quiet();
        }

        assertEquals(0, f.count("select count(*) from payments where status = 'CAPTURED' and (settlement in ('NONE', 'SETTLING') "
                + "or refund = 'REQUESTED')"), "every captured payment settled and every refund made");
        assertEquals(0, f.count("select count(*) from (select show_id, seat_id from seats where state = 'SOLD' "
                + "group by 1, 2 having count(*) > 1) twice"));
        assertEquals(f.count("select count(*) from seats where state = 'SOLD' and show_id in (?, 'fado-1')", SHORT),
                f.count("select count(*) from booking_seats bs join bookings b using (booking_id) "
                        + "where b.status = 'CONFIRMED' and bs.live and b.show_id in (?, 'fado-1')", SHORT),
                "SOLD seats are exactly the live bookings' seats");
        assertEquals(0, f.count("select count(*) from seats s where s.state = 'SOLD' and s.show_id in (?, 'fado-1') "
                + "and not exists (select 1 from booking_seats bs where bs.booking_id = s.booking_id "
                + "and bs.seat_id = s.seat_id and bs.live)", SHORT));
        assertTrue(sim().capturedCents() > 0 && sim().refundedCents() > 0, "the run exercised captures and refunds");
        f.assertMoneyConserved();
        assertEquals(0, f.count("select count(*) from bookings where charge_check = 'FLAGGED'"),
                "the provider confirms every booking's charge");
    }

    @Test
    void aCancelledBooking_isNotCancelledAgain_byLaterPasses() {
        String cal = app.token("cal-r");
        String holdId = f.hold(cal, "fado-1", "GALERIA-2-1");
        TestApp.Http.Reply booked = f.checkout(cal, holdId, "card_ok");
        assertEquals(200, booked.status(), booked.body());
        long bookingId = json(booked).get("bookingId").asLong();
        for (int i = 0; i < 5 && !"CANCELLED".equals(json(f.http.get("/v1/bookings/" + bookingId, cal)).get("status").asText()); i++) {
            f.http.delete("/v1/bookings/" + bookingId, cal);     // refunds may fail here (30% injected)
            reconciliation().reconcileOnce();
        }
        assertEquals("CANCELLED", f.one("select status from bookings where booking_id = ?", bookingId));

        for (int pass = 0; pass < 3; pass++) {
            assertEquals(0, reconciliation().reconcileOnce().cancellationsFinished(), "nothing left to finish");
        }
    }

    /**
     * One repair whose provider call hangs (as a grid call does when a member is cut off) must not
     * stall the others: the pass goes on without it, later passes skip it while it runs, and once it
     * returns its money is given back like any other.
     */
    @Test
    void aRepairThatHangs_doesNotStallTheOthers_andIsFinishedOnceItAnswers() {
        String stuck = "stray-stall-1";
        String other = "stray-stall-2";
        for (String key : List.of(stuck, other)) {
            assertTrue(sim().charge(new PaymentGateway.ChargeRequest(key, 3_100, "EUR", "card_ok", "not ours"))
                    instanceof PaymentGateway.ChargeResult.Captured);
        }
        CountDownLatch answer = new CountDownLatch(1);
        AtomicInteger stuckCalls = new AtomicInteger();
        PaymentGateway hangs = new PaymentGateway() {
            @Override
            public ChargeResult charge(ChargeRequest request) {
                return sim().charge(request);
            }

            @Override
            public RefundResult refund(RefundRequest request) {
                if (stuck.equals(request.chargeKey())) {
                    stuckCalls.incrementAndGet();
                    try {
                        answer.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }
                return sim().refund(request);
            }

            @Override
            public java.util.Optional<ChargeStatus> status(String idempotencyKey) {
                return sim().status(idempotencyKey);
            }

            @Override
            public List<ChargeStatus> charges(long since) {
                return sim().charges(since);
            }
        };
        Reconciliation r = app.app.checkout().reconciliationVia(hangs, Duration.ofMillis(300));
        try {
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                for (int i = 0; i < 8 && sim().status(other).orElseThrow().refundedCents() == 0; i++) {
                    r.reconcileOnce();     // refunds may fail here (30% injected); each pass retries
                }
            }, "a pass waited for the refund that hangs");
            assertEquals(3_100, sim().status(other).orElseThrow().refundedCents(), "the other charge was not refunded");
            assertEquals(0, sim().status(stuck).orElseThrow().refundedCents());
            assertEquals(1, stuckCalls.get(), "later passes called the provider again while the first call still hung");

            answer.countDown();
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                for (int i = 0; i < 8 && sim().status(stuck).orElseThrow().refundedCents() == 0; i++) {
                    Thread.sleep(100);
                    r.reconcileOnce();
                }
            });
            assertEquals(3_100, sim().status(stuck).orElseThrow().refundedCents(), "the charge that hung was not refunded");
            assertEquals(3_100, sim().status(other).orElseThrow().refundedCents(), "refunded twice");
        } finally {
            answer.countDown();
            r.close();
        }
    }

    /**
     * Reconciliation on several members at once, with repairs running apart from their passes:
     * captures whose webhooks were lost are settled by three reconciliations passing in parallel,
     * and each becomes exactly one booking (one settler per attempt), no seat is sold twice, and
     * the money is conserved.
     */
    @Test
    void reconciliationsPassingInParallel_settleEachLostCapture_exactlyOnce() throws Exception {
        String admin = app.token("ops", "admin");
        assertEquals(201, f.http.post("/v1/admin/shows", admin, "{\"eventId\":\"fado-nights\",\"showId\":\"par-recon\","
                + "\"startsAt\":\"2031-02-01T20:00:00Z\",\"holdSeconds\":600,\"graceSeconds\":0,\"maxPerAccount\":10,"
                + "\"sections\":[{\"name\":\"P\",\"price\":\"9.00\",\"rows\":1,\"seatsPerRow\":12}]}").status());
        List<String> holds = new ArrayList<>();
        sim().dropWebhooks(true);
        try {
            for (int i = 1; i <= 12; i++) {
                String token = app.token("par-" + i);
                String holdId = f.hold(token, "par-recon", "P-1-" + i);
                assertEquals(202, f.checkout(token, holdId, "card_late_success").status());
                holds.add(holdId);
            }
            for (String holdId : holds) {
                assertTrue(waitFor(() -> sim().status("bx-" + holdId + "-1").map(PaymentGateway.ChargeStatus::state)
                        .orElse(null) == PaymentGateway.ChargeStatus.State.CAPTURED, Duration.ofSeconds(10)), holdId);
            }
        } finally {
            sim().dropWebhooks(false);
        }
        List<Reconciliation> members = List.of(reconciliation(),
                app.app.checkout().reconciliationVia(sim(), Reconciliation.STEP_TIMEOUT),
                app.app.checkout().reconciliationVia(sim(), Reconciliation.STEP_TIMEOUT));
        ExecutorService pool = Executors.newFixedThreadPool(members.size());
        try {
            java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
            List<Future<?>> passes = new ArrayList<>();
            for (Reconciliation r : members) {
                passes.add(pool.submit(() -> {
                    start.await();
                    for (int pass = 0; pass < 4; pass++) {
                        r.reconcileOnce();     // refunds may fail here (30% injected); later passes retry
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> p : passes) {
                p.get();
            }
        } finally {
            pool.shutdown();
            members.get(1).close();
            members.get(2).close();
        }
        f.quiet();
        reconciliation().reconcileOnce();

        for (String holdId : holds) {
            assertEquals(1, f.count("select count(*) from bookings where hold_id = ? and status = 'CONFIRMED'", holdId),
                    "bookings of " + holdId);
            assertEquals(1, f.count("select count(*) from payments where hold_id = ? and status = 'CAPTURED'", holdId));
        }
        assertEquals(12, f.count("select count(*) from seats where show_id = 'par-recon' and state = 'SOLD'"));
        assertEquals(0, f.count("select count(*) from payments where status = 'CAPTURED' and settlement in ('NONE', 'SETTLING')"),
                "every captured payment settled");
        f.assertMoneyConserved();
    }
}
