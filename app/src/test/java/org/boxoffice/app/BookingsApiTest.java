package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.zxing.BinaryBitmap;
import com.google.zxing.RGBLuminanceSource;
import com.google.zxing.common.HybridBinarizer;
import com.google.zxing.qrcode.QRCodeReader;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.checkout.CheckoutSettings;
import org.boxoffice.app.checkout.TicketCodes;
import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

import static org.boxoffice.app.CheckoutFixture.assertError;
import static org.boxoffice.app.CheckoutFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** After the sale: cancellation within policy, tickets at the gate, QR images. */
@ServerTest
class BookingsApiTest {

    private static final String SHOW = "comedy-1";
    private static TestApp app;
    private final CheckoutFixture f;
    private final URI base;

    BookingsApiTest(URI uri) {
        this.base = uri;
        this.f = new CheckoutFixture(app, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server, s -> s.withCheckout(CheckoutSettings.defaults()));
    }

    @Test
    void cancellation_refundsFirst_thenReturnsTheSeatsToSale() {
        String amy = app.token("amy-b");
        long bookingId = f.book(amy, SHOW, "CIRCLE-1-1", "CIRCLE-1-2");
        String code = json(f.http.get("/v1/bookings/" + bookingId, amy)).get("tickets").get(0).get("code").asText();
        long refundedBefore = app.simulator().refundedCents();

        assertError(f.http.delete("/v1/bookings/" + bookingId, app.token("mallory-b")), 404, "NOT_FOUND");
        TestApp.Http.Reply r = f.http.delete("/v1/bookings/" + bookingId, amy);

        assertEquals(200, r.status(), r.body());
        assertEquals("CANCELLED", json(r).get("status").asText());
        assertEquals(0, json(r).get("tickets").size());
        assertEquals(13_000, app.simulator().refundedCents() - refundedBefore);
        assertEquals("REFUNDED", f.one("select p.refund from payments p join bookings b using (payment_id) where b.booking_id = ?",
                bookingId));
        assertEquals(java.util.List.of("AVAILABLE", "AVAILABLE"),
                f.query("select state from seats where show_id = ? and seat_id in ('CIRCLE-1-1', 'CIRCLE-1-2')", SHOW));
        assertEquals("t", f.one("select bool_and(b.refunded_at <= e.at) from bookings b join seat_events e "
                + "on e.booking_id = b.booking_id and e.kind = 'CANCEL' where b.booking_id = ?", bookingId),
                "the refund was recorded before the seats moved");
        assertEquals(0, f.count("select count(*) from booking_seats where booking_id = ? and live", bookingId));
        assertEquals("INVALID", json(f.http.post("/v1/tickets/verify", app.token("gate", "staff"),
                "{\"code\":\"" + code + "\"}")).get("status").asText());

        TestApp.Http.Reply again = f.http.delete("/v1/bookings/" + bookingId, amy);
        assertEquals(200, again.status(), again.body());
        assertEquals(13_000, app.simulator().refundedCents() - refundedBefore, "refunded once");
        long rebooked = f.book(app.token("ben-b"), SHOW, "CIRCLE-1-1", "CIRCLE-1-2");
        assertEquals("CONFIRMED", json(f.http.get("/v1/bookings/" + rebooked, app.token("ben-b"))).get("status").asText());
        assertEquals(1, f.soldRows(SHOW, "CIRCLE-1-1"));
        f.quiet();
        f.assertMoneyConserved();
    }

    @Test
    void tenCancellationsOfOneBookingAtOnce_refundOnce() throws Exception {
        String cleo = app.token("cleo-b");
        long bookingId = f.book(cleo, SHOW, "CIRCLE-2-1", "CIRCLE-2-2");
        long refundedBefore = app.simulator().refundedCents();
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        java.util.List<java.util.concurrent.Future<TestApp.Http.Reply>> replies = new java.util.ArrayList<>();
        try (java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(10)) {
            for (int i = 0; i < 10; i++) {
                replies.add(pool.submit(() -> {
                    go.await();
                    return f.http.delete("/v1/bookings/" + bookingId, cleo);
                }));
            }
            go.countDown();
            for (java.util.concurrent.Future<TestApp.Http.Reply> r : replies) {
                TestApp.Http.Reply reply = r.get();
                assertTrue(reply.status() == 200 || reply.status() == 503, reply.body());
            }
        }
        f.quiet();
        assertEquals(13_000, app.simulator().refundedCents() - refundedBefore, "one refund, whole");
        assertEquals("CANCELLED", f.one("select status from bookings where booking_id = ?", bookingId));
        f.assertMoneyConserved();
    }

    @Test
    void cancellationAfterThePolicyDeadline_is422_andChangesNothing() {
        String admin = app.token("ops", "admin");
        String startsAt = Instant.now().plus(Duration.ofHours(3)).toString();
        assertEquals(201, f.http.post("/v1/admin/shows", admin, "{\"eventId\":\"berlin-comedy\",\"showId\":\"tonight\","
                + "\"startsAt\":\"" + startsAt + "\",\"cancelHours\":24,"
                + "\"sections\":[{\"name\":\"A\",\"price\":\"20.00\",\"rows\":2,\"seatsPerRow\":10}]}").status());
        String cleo = app.token("cleo-b");
        long bookingId = f.book(cleo, "tonight", "A-1-1");

        assertError(f.http.delete("/v1/bookings/" + bookingId, cleo), 422, "CANCELLATION_CLOSED");

        assertEquals("CONFIRMED", json(f.http.get("/v1/bookings/" + bookingId, cleo)).get("status").asText());
        assertEquals("NONE", f.one("select p.refund from payments p join bookings b using (payment_id) where b.booking_id = ?",
                bookingId));
        assertEquals("SOLD", f.one("select state from seats where show_id = 'tonight' and seat_id = 'A-1-1'"));
    }

    @Test
    void aTicket_isValidOnce_thenAlreadyUsed_andForgedOrUnknownCodesAreInvalid() {
        String dora = app.token("dora-b");
        long bookingId = f.book(dora, SHOW, "CIRCLE-3-1");
        String code = json(f.http.get("/v1/bookings/" + bookingId, dora)).get("tickets").get(0).get("code").asText();
        String staff = app.token("gate-b", "staff");

        assertError(f.http.post("/v1/tickets/verify", dora, "{\"code\":\"" + code + "\"}"), 403, "FORBIDDEN");
        JsonNode first = json(f.http.post("/v1/tickets/verify", staff, "{\"code\":\"" + code + "\"}"));
        JsonNode second = json(f.http.post("/v1/tickets/verify", app.token("ops", "admin"), "{\"code\":\"" + code + "\"}"));

        assertEquals("VALID", first.get("status").asText());
        assertEquals("CIRCLE-3-1", first.get("seatId").asText());
        assertEquals("ALREADY_USED", second.get("status").asText());
        assertEquals(first.get("admittedAt"), second.get("usedAt"));
        // change a character inside the signature (the very last base64 character may only carry padding bits)
        int at = code.length() - 6;
        String forged = code.substring(0, at) + (code.charAt(at) == 'A' ? 'B' : 'A') + code.substring(at + 1);
        assertEquals("INVALID", json(f.http.post("/v1/tickets/verify", staff, "{\"code\":\"" + forged + "\"}")).get("status").asText());
        String otherSeat = new TicketCodes(CheckoutSettings.defaults().ticketSecret()).code(bookingId, SHOW, "CIRCLE-3-2");
        assertEquals("INVALID", json(f.http.post("/v1/tickets/verify", staff, "{\"code\":\"" + otherSeat + "\"}")).get("status").asText());
        String wrongKey = new TicketCodes("another-secret-0123456789").code(bookingId, SHOW, "CIRCLE-3-1");
        assertEquals("INVALID", json(f.http.post("/v1/tickets/verify", staff, "{\"code\":\"" + wrongKey + "\"}")).get("status").asText());
        assertEquals("INVALID", json(f.http.post("/v1/tickets/verify", staff, "{\"code\":\"hello\"}")).get("status").asText());
        assertError(f.http.post("/v1/tickets/verify", staff, "{\"code\":7}"), 400, "BAD_REQUEST");
        assertError(f.http.post("/v1/tickets/verify", staff, "{\"ticket\":\"x\"}"), 400, "BAD_REQUEST");
        assertError(f.http.post("/v1/tickets/verify", null, "{\"code\":\"x\"}"), 401, "UNAUTHORIZED");
    }

    @Test
    void aTicketWhoseBookingIsBeingCancelled_is409_thenOnceCancelled410_andOthersStill404() {
        String fay = app.token("fay-b");
        long bookingId = f.book(fay, SHOW, "CIRCLE-5-1");
        String qr = "/v1/bookings/" + bookingId + "/tickets/CIRCLE-5-1/qr.png";
        String rotating = "/v1/bookings/" + bookingId + "/tickets/CIRCLE-5-1/rotating";
        assertEquals(200, f.http.get(qr, fay).status());
        // the cancellation's first step, as DELETE takes it: the booking is marked and the refund asked
        // for; the provider's answer and the seats' return come after (the window this answers for)
        assertTrue(new org.boxoffice.mapstore.PostgresBookingRepository(app.dataSource)
                .startCancellation(bookingId, "test", System.currentTimeMillis()));

        TestApp.Http.Reply cancelling = f.http.get(qr, fay);
        assertError(cancelling, 409, "TICKET_CANCELLING");
        assertEquals(bookingId, json(cancelling).get("bookingId").asLong());
        assertEquals("CIRCLE-5-1", json(cancelling).get("seatId").asText());
        assertError(f.http.get(rotating, fay), 409, "TICKET_CANCELLING");
        assertError(f.http.get(qr, app.token("ops", "admin")), 409, "TICKET_CANCELLING");
        // nobody else learns that the booking exists, and a seat it never had is no ticket of it
        assertError(f.http.get(qr, app.token("mallory-b")), 404, "NOT_FOUND");
        assertError(f.http.get("/v1/bookings/" + bookingId + "/tickets/CIRCLE-5-2/qr.png", fay), 404, "NOT_FOUND");
        assertEquals("CONFIRMED", json(f.http.get("/v1/bookings/" + bookingId, fay)).get("status").asText(),
                "asking changed nothing");

        TestApp.Http.Reply done = f.http.delete("/v1/bookings/" + bookingId, fay);
        assertEquals(200, done.status(), done.body());
        assertEquals("CANCELLED", json(done).get("status").asText());
        assertError(f.http.get(qr, fay), 410, "TICKET_CANCELLED");
        assertError(f.http.get(rotating, fay), 410, "TICKET_CANCELLED");
        assertError(f.http.get(qr, app.token("mallory-b")), 404, "NOT_FOUND");
        f.quiet();
        f.assertMoneyConserved();
    }

    @Test
    void theQrImage_carriesTheTicketCode() throws Exception {
        String eli = app.token("eli-b");
        long bookingId = f.book(eli, SHOW, "CIRCLE-4-1");
        String code = json(f.http.get("/v1/bookings/" + bookingId, eli)).get("tickets").get(0).get("code").asText();

        HttpResponse<byte[]> png = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        base.resolve("/v1/bookings/" + bookingId + "/tickets/CIRCLE-4-1/qr.png"))
                .header("Authorization", "Bearer " + eli).build(), HttpResponse.BodyHandlers.ofByteArray());

        assertEquals(200, png.statusCode());
        assertEquals("image/png", png.headers().firstValue("Content-Type").orElse(""));
        assertEquals("no-store", png.headers().firstValue("Cache-Control").orElse(""),
                "a ticket may be cancelled at any moment: no cached copy may outlive it");
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png.body()));
        int[] pixels = image.getRGB(0, 0, image.getWidth(), image.getHeight(), null, 0, image.getWidth());
        String decoded = new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(
                new RGBLuminanceSource(image.getWidth(), image.getHeight(), pixels)))).getText();
        assertEquals(code, decoded);
        assertError(f.http.get("/v1/bookings/" + bookingId + "/tickets/CIRCLE-4-1/qr.png", app.token("mallory-b")), 404, "NOT_FOUND");
        assertError(f.http.get("/v1/bookings/" + bookingId + "/tickets/CIRCLE-4-2/qr.png", eli), 404, "NOT_FOUND");
        assertTrue(code.startsWith("BX1."));
    }
}
