package org.boxoffice.app;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.checkout.CheckoutSettings;
import org.boxoffice.app.checkout.Reconciliation;
import org.boxoffice.app.checkout.Settlement;
import org.boxoffice.app.payments.SimulatedPaymentGateway;
import org.boxoffice.app.payments.WebhookSignature;
import org.boxoffice.domain.PaymentAttempt;
import org.boxoffice.domain.PaymentGateway;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.boxoffice.app.CheckoutFixture.assertError;
import static org.boxoffice.app.CheckoutFixture.json;
import static org.boxoffice.app.CheckoutFixture.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The provider's webhook: signatures, once per event, and the first decisive report wins. */
@ServerTest
class PaymentWebhookTest {

    private static final String SHOW = "mahler-5-1";
    private static TestApp app;
    private final CheckoutFixture f;
    private final WebhookSignature signature = new WebhookSignature(CheckoutSettings.defaults().payments().webhookSecret());

    PaymentWebhookTest(URI uri) {
        this.f = new CheckoutFixture(app, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server, s -> s.withCheckout(CheckoutSettings.defaults()));
    }

    /** An event as the provider would send it: the provider's charge id for {@code key}, the seat's price. */
    private String event(String id, String type, String key) {
        String chargeId = app.simulator().status(key).map(PaymentGateway.ChargeStatus::chargeId).orElse("ch_x");
        return event(id, type, key, chargeId, 8900);
    }

    private static String event(String id, String type, String key, String chargeId, long amount) {
        return "{\"id\":\"" + id + "\",\"type\":\"" + type + "\",\"created\":1,\"data\":{\"chargeId\":\"" + chargeId
                + "\",\"idempotencyKey\":\"" + key + "\",\"amount\":" + amount + ",\"currency\":\"EUR\","
                + "\"reason\":\"card_declined\"}}";
    }

    private TestApp.Http.Reply send(String body) {
        return f.http.post("/v1/payments/webhook", null, body, WebhookSignature.HEADER,
                signature.sign(body.getBytes(StandardCharsets.UTF_8)));
    }

    /** A checkout whose provider events are lost, so the test delivers them itself. */
    private String pendingHold(String account, String seat) {
        SimulatedPaymentGateway sim = app.simulator();
        sim.dropWebhooks(true);
        try {
            String token = app.token(account);
            String holdId = f.hold(token, SHOW, seat);
            assertEquals(202, f.checkout(token, holdId, "card_pending").status());
            assertTrue(waitFor(() -> sim.status("bx-" + holdId + "-1").map(PaymentGateway.ChargeStatus::state)
                    .orElse(null) == PaymentGateway.ChargeStatus.State.CAPTURED, Duration.ofSeconds(5)));
            // the charge is captured a moment before its event is emitted: wait until that event is lost
            assertTrue(waitFor(() -> sim.sentEvents().stream().anyMatch(e -> e.type().equals("payment.captured")
                    && e.body().contains("\"bx-" + holdId + "-1\"")), Duration.ofSeconds(5)));
            return holdId;
        } finally {
            sim.dropWebhooks(false);
        }
    }

    @Test
    void unsignedOrForgedEvents_are401_andChangeNothing() {
        String holdId = pendingHold("amy-w", "STALLS-10-1");
        String body = event("evt-forged-1", "payment.captured", "bx-" + holdId + "-1");

        assertError(f.http.post("/v1/payments/webhook", null, body), 401, "INVALID_SIGNATURE");
        assertError(f.http.post("/v1/payments/webhook", null, body, WebhookSignature.HEADER, "sha256=" + "0".repeat(64)),
                401, "INVALID_SIGNATURE");
        assertError(f.http.post("/v1/payments/webhook", null, body, WebhookSignature.HEADER,
                new WebhookSignature("some-other-secret-0123456789").sign(body.getBytes(StandardCharsets.UTF_8))),
                401, "INVALID_SIGNATURE");
        String signedOther = event("evt-forged-2", "payment.captured", "bx-" + holdId + "-1");
        assertError(f.http.post("/v1/payments/webhook", null, body, WebhookSignature.HEADER,
                signature.sign(signedOther.getBytes(StandardCharsets.UTF_8))), 401, "INVALID_SIGNATURE");

        assertEquals("PENDING", f.one("select status from payments where hold_id = ?", holdId));
        assertEquals(0, f.count("select count(*) from payment_events"
                + " where event_id like 'evt-forged%'"));
        assertError(send("{not json"), 400, "BAD_REQUEST");
        assertError(send("{\"id\":\"e\",\"type\":\"payment.captured\"}"), 400, "BAD_REQUEST");
    }

    @Test
    void aSignedEventWithANulOrTrailingContent_is400_andChangesNothing() {
        long events = f.count("select count(*) from payment_events");
        assertError(send(event("evt-nul\\u0000", "payment.captured", "bx-nobody-1")), 400, "BAD_REQUEST");
        assertError(send(event("evt-trailing", "payment.captured", "bx-nobody-1") + " {}"), 400, "BAD_REQUEST");
        assertEquals(events, f.count("select count(*) from payment_events"));
    }

    @Test
    void anEventOfAnotherTypeWithACapturesId_doesNotMakeTheCaptureADuplicate() {
        String holdId = pendingHold("cid-w", "STALLS-12-4");
        String key = "bx-" + holdId + "-1";

        TestApp.Http.Reply unknown = send(event("evt-same-id", "charge.dispute.created", key));
        TestApp.Http.Reply captured = send(event("evt-same-id", "payment.captured", key));

        assertEquals("IGNORED", json(unknown).get("outcome").asText(), unknown.body());
        assertEquals("APPLIED", json(captured).get("outcome").asText(), "once per id and type: " + captured.body());
        assertEquals(1, f.count("select count(*) from bookings where hold_id = ? and status = 'CONFIRMED'", holdId));
        assertEquals("DUPLICATE_EVENT", json(send(event("evt-same-id", "payment.captured", key))).get("outcome").asText());
        // the provider's ids say nothing of its business: random, never a count
        String chargeId = app.simulator().status(key).orElseThrow().chargeId();
        assertTrue(chargeId.matches("ch_[0-9a-f]{24}"), chargeId);
    }

    @Test
    void theFirstDecisiveEventWins_duplicatesAndLaterContradictionsChangeNothing() {
        String holdId = pendingHold("ben-w", "STALLS-10-2");
        String key = "bx-" + holdId + "-1";

        TestApp.Http.Reply captured = send(event("evt-b1", "payment.captured", key));
        TestApp.Http.Reply duplicate = send(event("evt-b1", "payment.captured", key));
        TestApp.Http.Reply contradiction = send(event("evt-b2", "payment.declined", key));
        TestApp.Http.Reply again = send(event("evt-b3", "payment.captured", key));

        assertEquals("APPLIED", json(captured).get("outcome").asText(), captured.body());
        assertEquals("DUPLICATE_EVENT", json(duplicate).get("outcome").asText());
        assertError(contradiction, 422, "PAYMENT_MISMATCH");
        assertEquals("IGNORED", json(again).get("outcome").asText());
        assertEquals("CAPTURED", f.one("select status from payments where hold_id = ?", holdId));
        assertEquals(1, f.count("select count(*) from bookings where hold_id = ? and status = 'CONFIRMED'", holdId));
        assertEquals("UNKNOWN_PAYMENT", json(send(event("evt-b4", "payment.captured", "bx-nobody-1"))).get("outcome").asText());
        assertEquals("IGNORED", json(send(event("evt-b5", "charge.dispute.created", key))).get("outcome").asText());
    }

    @Test
    void anAttemptDeclinedHere_butCapturedByTheProvider_isRefundedByReconciliation_once() {
        String holdId = pendingHold("cat-w", "STALLS-10-3");
        String key = "bx-" + holdId + "-1";
        long refunded = app.simulator().refundedCents();
        // as when a checkout gives up on an attempt the provider had not heard of, and it arrives after all
        app.app.checkout().bookings().report(null, null, key, PaymentAttempt.Report.DECLINED, null,
                "never reached the payment provider", System.currentTimeMillis());

        assertEquals("IGNORED", json(send(event("evt-c2", "payment.captured", key))).get("outcome").asText());

        assertEquals("DECLINED", f.one("select status from payments where hold_id = ?", holdId));
        assertEquals(0, f.count("select count(*) from bookings where hold_id = ?", holdId));
        app.app.checkout().reconciliation().reconcileOnce();
        assertEquals(8_900, app.simulator().refundedCents() - refunded,
                "the provider captured it after all: reconciliation refunds it");
        app.app.checkout().reconciliation().reconcileOnce();
        assertEquals(8_900, app.simulator().refundedCents() - refunded, "and only once");
    }

    @Test
    void aSignedCaptureTheProviderNeverMade_isRefused_andChangesNothing() {
        String eve = app.token("eve-w");
        String holdId = f.hold(eve, SHOW, "STALLS-11-1");
        assertEquals(202, f.checkout(eve, holdId, "card_timeout").status(), "never charged: the request was lost");
        String key = "bx-" + holdId + "-1";
        String before = String.join(",", f.query("select status || settlement || refund from payments where hold_id = ?", holdId));

        assertError(send(event("evt-e1", "payment.captured", key, "ch_invented", 1)), 422, "PAYMENT_MISMATCH");
        assertError(send(event("evt-e2", "payment.captured", key, "ch_invented", 8900)), 422, "PAYMENT_MISMATCH");
        assertError(send(event("evt-e3", "payment.captured", key, null, 8900).replace(",\"amount\":8900", "")),
                422, "PAYMENT_MISMATCH");

        assertEquals(before, String.join(",", f.query("select status || settlement || refund from payments where hold_id = ?",
                holdId)));
        assertEquals(0, f.count("select count(*) from bookings where hold_id = ?", holdId));
        assertEquals(0, f.count("select count(*) from payment_events where event_id like 'evt-e%'"));
        assertEquals(0, f.soldRows(SHOW, "STALLS-11-1"));
    }

    @Test
    void aCaptureForAnotherAmountOrCurrency_isRefused_andTheRealOneBooks() {
        String holdId = pendingHold("fay-w", "STALLS-11-2");
        String key = "bx-" + holdId + "-1";
        String chargeId = app.simulator().status(key).orElseThrow().chargeId();

        assertError(send(event("evt-f1", "payment.captured", key, chargeId, 1)), 422, "PAYMENT_MISMATCH");
        assertError(send(event("evt-f2", "payment.captured", key, chargeId, 8900).replace("EUR", "USD")), 422,
                "PAYMENT_MISMATCH");
        assertError(send(event("evt-f3", "payment.captured", key, "ch_other", 8900)), 422, "PAYMENT_MISMATCH");
        assertEquals("PENDING", f.one("select status from payments where hold_id = ?", holdId));

        assertEquals("APPLIED", json(send(event("evt-f4", "payment.captured", key, chargeId, 8900))).get("outcome").asText());
        assertEquals(1, f.count("select count(*) from bookings where hold_id = ? and status = 'CONFIRMED'", holdId));
        // a refund asked for but not made: a signed "refunded" the provider contradicts must not end the booking
        assertTrue(app.app.checkout().bookings().requestRefund(holdId + "-P1", "test", System.currentTimeMillis()));
        assertError(send(event("evt-f5", "refund.succeeded", key, chargeId, 8900)), 422, "PAYMENT_MISMATCH");
        assertEquals(1, f.count("select count(*) from bookings where hold_id = ? and status = 'CONFIRMED'", holdId));
        assertEquals("REQUESTED", f.one("select refund from payments where hold_id = ?", holdId));
    }

    @Test
    void aBookingWhoseChargeTheProviderDoesNotKnow_isFlaggedByReconciliation_once() {
        String gus = app.token("gus-w");
        String holdId = f.hold(gus, SHOW, "STALLS-11-3");
        assertEquals(202, f.checkout(gus, holdId, "card_timeout").status());
        String paymentId = holdId + "-P1";
        // what a forged capture used to do: the attempt recorded as captured without the provider's word
        app.app.checkout().bookings().report(null, null, "bx-" + holdId + "-1", PaymentAttempt.Report.CAPTURED, "ch_forged",
                null, System.currentTimeMillis());
        assertTrue(app.app.checkout().settlement().settle(paymentId) instanceof Settlement.Result.Booked);
        String legit = f.hold(gus, SHOW, "STALLS-11-4");
        assertEquals(200, f.checkout(gus, legit, "card_ok").status());
        f.query("update bookings set created_at = created_at - interval '1 day' where hold_id in (?, ?) returning 1",
                holdId, legit);

        Reconciliation.Report first = app.app.checkout().reconciliation().reconcileOnce();
        Reconciliation.Report second = app.app.checkout().reconciliation().reconcileOnce();

        assertEquals(1, first.flagged(), first.toString());
        assertEquals(0, second.flagged(), "flagged once, kept for an operator");
        assertEquals("FLAGGED", f.one("select charge_check from bookings where hold_id = ?", holdId));
        assertTrue(f.one("select charge_note from bookings where hold_id = ?", holdId).contains("knows no charge"));
        assertEquals("CONFIRMED", f.one("select charge_check from bookings where hold_id = ?", legit));
        assertEquals(List.of(paymentId), app.app.checkout().bookings().flaggedCharges().stream()
                .map(org.boxoffice.domain.Booking::paymentId).toList());
    }

    @Test
    void theSimulatorsOwnEvents_redeliveredInReverse_changeNothing() {
        String dan = app.token("dan-w");
        String holdId = f.hold(dan, SHOW, "STALLS-10-4");
        assertEquals(200, f.checkout(dan, holdId, "card_ok").status());
        f.quiet();
        long bookings = f.count("select count(*) from bookings");
        String payments = String.join(",", f.query("select payment_id || status || settlement || refund from payments order by 1"));

        List<SimulatedPaymentGateway.SentEvent> events = new ArrayList<>(app.simulator().sentEvents().stream()
                .filter(e -> e.body().contains("bx-" + holdId + "-")).toList());
        assertTrue(events.size() >= 1);
        Collections.reverse(events);
        for (SimulatedPaymentGateway.SentEvent e : events) {
            assertEquals(200, send(e.body()).status());
        }

        assertEquals(bookings, f.count("select count(*) from bookings"));
        assertEquals(payments, String.join(",", f.query("select payment_id || status || settlement || refund from payments order by 1")));
        assertEquals(1, f.soldRows(SHOW, "STALLS-10-4"));
    }
}
