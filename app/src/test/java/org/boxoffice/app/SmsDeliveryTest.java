package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.http.Json;
import org.boxoffice.app.notify.NotifySettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static org.boxoffice.app.CheckoutFixture.json;
import static org.boxoffice.app.CheckoutFixture.waitFor;
import static org.boxoffice.app.TestApp.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tickets by SMS through the HTTP provider, against a stub provider on loopback that answers after
 * 5 s, then fails, then recovers: bookings never wait for it, and every message is delivered once.
 */
@ServerTest
class SmsDeliveryTest {

    private static final String SHOW = "fado-1";
    private static final String API_KEY = "test-sms-key-0123456789";
    private static StubProvider stub;
    private static TestApp app;
    private final CheckoutFixture f;

    SmsDeliveryTest(URI uri) {
        this.f = new CheckoutFixture(app, uri);
    }

    /**
     * An SMS provider as the adapter's documentation describes it: deduplicates by
     * {@code Idempotency-Key} (a repeat is answered 409 and not delivered again), and in mode SLOW
     * accepts a message but answers only 5 s later, in FAIL answers 500 without accepting.
     */
    static final class StubProvider implements AutoCloseable {
        enum Mode { SLOW, FAIL, OK }

        volatile Mode mode = Mode.SLOW;
        final HttpServer server;
        /** Message id to what was delivered to the phone, once per id. */
        final Map<String, JsonNode> delivered = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
        final AtomicInteger slow = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();
        final List<String> wrongCalls = java.util.Collections.synchronizedList(new ArrayList<>());

        StubProvider() throws IOException {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.setExecutor(Executors.newCachedThreadPool());
            server.createContext("/sms", exchange -> {
                int status;
                try (InputStream in = exchange.getRequestBody()) {
                    JsonNode body = Json.MAPPER.readTree(in.readAllBytes());
                    String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
                    if (!("Bearer " + API_KEY).equals(exchange.getRequestHeaders().getFirst("Authorization"))
                            || key == null || !key.equals(body.path("messageId").asText())) {
                        wrongCalls.add(key + " " + body);
                        status = 400;
                    } else if (mode == Mode.FAIL) {
                        failed.incrementAndGet();
                        status = 500;
                    } else {
                        boolean first = delivered.putIfAbsent(key, body) == null;
                        if (first) {
                            deliveries.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                        }
                        if (mode == Mode.SLOW) {
                            slow.incrementAndGet();
                            sleep(Duration.ofSeconds(5));
                        }
                        status = first ? 202 : 409;
                    }
                }
                exchange.sendResponseHeaders(status, -1);
                exchange.close();
            });
            server.start();
        }

        URI url() {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/sms");
        }

        List<JsonNode> to(String phone) {
            return delivered.values().stream().filter(b -> b.path("to").asText().equals(phone)).toList();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) throws IOException {
        stub = new StubProvider();
        NotifySettings.SmsSettings sms = NotifySettings.SmsSettings.simulator()
                .withHttp(stub.url(), API_KEY, Duration.ofSeconds(1), 1);
        app = TestApp.serve(server, s -> s.withNotices(NotifySettings.defaults().withSms(sms)));
    }

    @AfterAll
    static void stop() {
        stub.close();
    }

    @Test
    void aPhoneNumber_isOptional_validatedAsE164_andTheOwnersAlone() {
        String ann = app.token("ann-p");
        assertError(f.http.get("/v1/accounts/me/phone", ann), 404, "NOT_FOUND");
        assertError(f.http.put("/v1/accounts/me/phone", ann, "{\"phone\":\"0151 123\"}"), 400, "INVALID_PHONE");
        assertError(f.http.put("/v1/accounts/me/phone", ann, "{\"phone\":\"+0151123456789\"}"), 400, "INVALID_PHONE");
        assertError(f.http.put("/v1/accounts/me/phone", ann, "{\"phone\":12345}"), 400, "INVALID_PHONE");
        assertError(f.http.put("/v1/accounts/me/phone", null, "{\"phone\":\"+4915112345678\"}"), 401, "UNAUTHORIZED");

        TestApp.Http.Reply set = f.http.put("/v1/accounts/me/phone", ann, "{\"phone\":\"+49 151 1234-5678\"}");
        assertEquals(200, set.status(), set.body());
        assertEquals("+4915112345678", json(set).get("phone").asText(), "kept in E.164 form");
        assertEquals("+4915112345678", json(f.http.get("/v1/accounts/me/phone", ann)).get("phone").asText());
        assertError(f.http.get("/v1/accounts/me/phone", app.token("bob-p")), 404, "NOT_FOUND");

        assertEquals(204, f.http.delete("/v1/accounts/me/phone", ann).status());
        assertError(f.http.get("/v1/accounts/me/phone", ann), 404, "NOT_FOUND");
    }

    @Test
    void ticketsBySms_neverHoldUpABooking_andAreDeliveredOnce_afterTheProviderWasSlowAndFailed() {
        String phone = "+4917000000";
        List<String> seats = List.of("PLATEIA-18-1", "PLATEIA-18-2", "PLATEIA-18-3");
        List<Long> bookings = new ArrayList<>();
        for (int i = 0; i < seats.size(); i++) {
            String token = app.token("sms-fan-" + i);
            assertEquals(200, f.http.put("/v1/accounts/me/phone", token, "{\"phone\":\"" + phone + i + "\"}").status());
            long started = System.nanoTime();
            TestApp.Http.Reply r = f.checkout(token, f.hold(token, SHOW, seats.get(i)), "card_ok");
            assertEquals(200, r.status(), r.body());
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertTrue(took.compareTo(Duration.ofSeconds(3)) < 0, "the booking waited for the SMS provider: " + took);
            bookings.add(json(r).get("bookingId").asLong());
        }
        assertTrue(waitFor(() -> stub.slow.get() >= 2, Duration.ofSeconds(20)), "the provider was asked while slow");
        stub.mode = StubProvider.Mode.FAIL;
        assertTrue(waitFor(() -> stub.failed.get() >= 2, Duration.ofSeconds(30)), "the provider was asked while failing");
        stub.mode = StubProvider.Mode.OK;

        for (int i = 0; i < seats.size(); i++) {
            String to = phone + i;
            assertTrue(waitFor(() -> stub.to(to).size() == 1, Duration.ofSeconds(60)), "the tickets of fan " + i + " arrive");
            String text = stub.to(to).get(0).path("text").asText();
            assertTrue(text.contains("booking " + bookings.get(i)) && text.contains(seats.get(i) + " BX1."), text);
        }
        assertTrue(waitFor(() -> f.count("SELECT count(*) FROM messages WHERE kind = 'TICKETS' AND channel = 'SMS' "
                + "AND sent_at IS NULL AND subject = ANY (?)", (Object) bookings.stream().map(String::valueOf)
                .toArray(String[]::new)) == 0, Duration.ofSeconds(30)), "every message is marked sent");
        assertEquals(seats.size(), stub.delivered.values().stream().filter(b -> b.path("to").asText().startsWith(phone))
                .count(), "one message id per booking");
        stub.deliveries.forEach((id, n) -> assertEquals(1, n.get(), "message " + id + " delivered more than once"));
        assertTrue(stub.wrongCalls.isEmpty(), "every call carried the key and its message id: " + stub.wrongCalls);
    }

    @Test
    void aFanWithoutAPhone_getsNoSms() {
        String token = app.token("no-phone");
        TestApp.Http.Reply r = f.checkout(token, f.hold(token, SHOW, "PLATEIA-19-1"), "card_ok");
        assertEquals(200, r.status(), r.body());
        long bookingId = json(r).get("bookingId").asLong();
        assertEquals(0, f.count("SELECT count(*) FROM messages WHERE subject = ?", String.valueOf(bookingId)));
        assertEquals(1, f.count("SELECT count(*) FROM ticket_mail WHERE booking_id = ?", bookingId),
                "the tickets still go by email");
        assertTrue(stub.delivered.values().stream().noneMatch(m -> m.path("text").asText().contains("booking " + bookingId)),
                "the provider was never asked to text this booking");
    }

    @Test
    void aShowThatAdmitsLiveCodesOnly_textsALinkToTheFansTickets_andNoCode() {
        f.createShow("sms-live", 300, 2);
        String admin = app.token("ops-sms", "admin");
        assertEquals(200, f.http.put("/v1/admin/shows/sms-live/ticket-policy", admin, "{\"printAtHome\":false}").status());
        String token = app.token("sms-live-fan");
        String phone = "+4915155577701";
        assertEquals(200, f.http.put("/v1/accounts/me/phone", token, "{\"phone\":\"" + phone + "\"}").status());
        long bookingId = f.book(token, "sms-live", "A-1-1", "A-1-2"); // the stub delivers when slow, too

        assertTrue(waitFor(() -> stub.to(phone).size() == 1, Duration.ofSeconds(30)), "the tickets' text arrives");
        String text = stub.to(phone).get(0).path("text").asText();
        assertTrue(text.contains("http://localhost:8080/#/booking/" + bookingId), text);
        assertTrue(text.contains("live code"), text);
        assertTrue(text.contains("A-1-1, A-1-2"), text);
        assertFalse(text.contains("BX1."), "a printed code the gate would refuse: " + text);
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
