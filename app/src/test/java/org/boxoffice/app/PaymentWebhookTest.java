package org.boxoffice.app;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.checkout.CheckoutSettings;
import org.boxoffice.app.payments.SimulatedPaymentGateway;
import org.boxoffice.app.payments.WebhookSignature;
import org.boxoffice.domain.PaymentGateway;
import org.junit.jupiter.api.AfterAll;
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
        app = TestApp.start(s -> TestApp.withCheckout(s, CheckoutSettings.defaults()));
        server.routing(app.app::routing);
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private static String event(String id, String type, String key) {
        return "{\"id\":\"" + id + "\",\"type\":\"" + type + "\",\"created\":1,\"data\":{\"chargeId\":\"ch_x\","
                + "\"idempotencyKey\":\"" + key + "\",\"amount\":8900,\"currency\":\"EUR\",\"reason\":\"card_declined\"}}";
    }

    private TestApp.Http.Reply send(String body) {
        return f.http.post("/v1/payments/webhook", null, body, WebhookSignature.HEADER,
                signature.sign(body.getBytes(StandardCharsets.UTF_8)));
    }

    /** A checkout whose provider events are lost, so the test delivers them itself. */
    private String pendingHold(String account, String seat) {
        SimulatedPaymentGateway sim = app.app.checkout().simulator();
        sim.dropWebhooks(true);
        try {
            String token = app.token(account);
            String holdId = f.hold(token, SHOW, seat);
            assertEquals(202, f.checkout(token, holdId, "card_pending").status());
            assertTrue(waitFor(() -> sim.status("bx-" + holdId + "-1").map(PaymentGateway.ChargeStatus::state)
                    .orElse(null) == PaymentGateway.ChargeStatus.State.CAPTURED, Duration.ofSeconds(5)));
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
    void theFirstDecisiveEventWins_duplicatesAndLaterContradictionsChangeNothing() {
        String holdId = pendingHold("ben-w", "STALLS-10-2");
        String key = "bx-" + holdId + "-1";

        TestApp.Http.Reply captured = send(event("evt-b1", "payment.captured", key));
        TestApp.Http.Reply duplicate = send(event("evt-b1", "payment.captured", key));
        TestApp.Http.Reply contradiction = send(event("evt-b2", "payment.declined", key));
        TestApp.Http.Reply again = send(event("evt-b3", "payment.captured", key));

        assertEquals("APPLIED", json(captured).get("outcome").asText(), captured.body());
        assertEquals("DUPLICATE_EVENT", json(duplicate).get("outcome").asText());
        assertEquals("IGNORED", json(contradiction).get("outcome").asText());
        assertEquals("IGNORED", json(again).get("outcome").asText());
        assertEquals("CAPTURED", f.one("select status from payments where hold_id = ?", holdId));
        assertEquals(1, f.count("select count(*) from bookings where hold_id = ? and status = 'CONFIRMED'", holdId));
        assertEquals("UNKNOWN_PAYMENT", json(send(event("evt-b4", "payment.captured", "bx-nobody-1"))).get("outcome").asText());
        assertEquals("IGNORED", json(send(event("evt-b5", "charge.dispute.created", key))).get("outcome").asText());
    }

    @Test
    void aDeclineDeliveredBeforeTheCapture_decides_andReconciliationGivesTheMoneyBack() {
        String holdId = pendingHold("cat-w", "STALLS-10-3");
        String key = "bx-" + holdId + "-1";
        long refunded = app.app.checkout().simulator().refundedCents();

        assertEquals("APPLIED", json(send(event("evt-c1", "payment.declined", key))).get("outcome").asText());
        assertEquals("IGNORED", json(send(event("evt-c2", "payment.captured", key))).get("outcome").asText());

        assertEquals("DECLINED", f.one("select status from payments where hold_id = ?", holdId));
        assertEquals(0, f.count("select count(*) from bookings where hold_id = ?", holdId));
        app.app.checkout().reconciliation().reconcileOnce();
        assertEquals(8_900, app.app.checkout().simulator().refundedCents() - refunded,
                "the provider captured it after all: reconciliation refunds it");
        app.app.checkout().reconciliation().reconcileOnce();
        assertEquals(8_900, app.app.checkout().simulator().refundedCents() - refunded, "and only once");
    }

    @Test
    void theSimulatorsOwnEvents_redeliveredInReverse_changeNothing() {
        String dan = app.token("dan-w");
        String holdId = f.hold(dan, SHOW, "STALLS-10-4");
        assertEquals(200, f.checkout(dan, holdId, "card_ok").status());
        f.quiet();
        long bookings = f.count("select count(*) from bookings");
        String payments = String.join(",", f.query("select payment_id || status || settlement || refund from payments order by 1"));

        List<SimulatedPaymentGateway.SentEvent> events = new ArrayList<>(app.app.checkout().simulator().sentEvents().stream()
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
