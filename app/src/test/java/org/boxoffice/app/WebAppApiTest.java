package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.http.Json;
import org.boxoffice.domain.ShowLayout;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The web app's server side through the real routing, on a socket: its static files at {@code /}
 * and the seat-map event stream ({@code GET /v1/shows/{id}/events}).
 */
@ServerTest
class WebAppApiTest {

    private static TestApp app;
    private final URI base;
    private final TestApp.Http http;

    WebAppApiTest(URI uri) {
        this.base = uri;
        this.http = TestApp.Http.on(uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server);
    }

    private static int index(String showId, String seatId) {
        ShowLayout layout = app.app.directory().find(showId).orElseThrow().layout();
        ShowLayout.SeatRef ref = layout.locate(seatId).orElseThrow();
        return layout.offset(ref.blockId()) + ref.index();
    }

    private static List<Integer> changed(EventStream.Event e, int status) {
        List<Integer> seats = new ArrayList<>();
        e.data().get("changes").forEach(c -> {
            if (c.get(1).asInt() == status) {
                seats.add(c.get(0).asInt());
            }
        });
        return seats;
    }

    /** The stream's map is the availability answer plus seq; the seat list's version is the same kind. */
    @Test
    void streamMap_seats_andAvailability_sayTheVersionAlike_andTheMapCarriesAsOf() throws Exception {
        com.fasterxml.jackson.databind.JsonNode availability = Json.MAPPER.readTree(
                http.get("/v1/shows/comedy-1/availability", null).body());
        com.fasterxml.jackson.databind.JsonNode seats = Json.MAPPER.readTree(http.get("/v1/shows/comedy-1/seats", null).body());
        try (EventStream stream = new EventStream(base, "/v1/shows/comedy-1/events")) {
            com.fasterxml.jackson.databind.JsonNode map = stream.next(Duration.ofSeconds(5)).data();
            java.util.Set<String> expected = new java.util.TreeSet<>();
            availability.fieldNames().forEachRemaining(expected::add);
            expected.add("seq");
            java.util.Set<String> fields = new java.util.TreeSet<>();
            map.fieldNames().forEachRemaining(fields::add);
            assertEquals(expected, fields);
            for (com.fasterxml.jackson.databind.JsonNode answer : List.of(availability, seats, map)) {
                assertTrue(answer.get("version").asText().matches("[0-9]+"), answer.get("version").asText());
            }
        }
    }

    @Test
    void stream_startsWithTheWholeMap_thenPushesEachHoldAndReleaseWithinASecond() throws Exception {
        try (EventStream stream = new EventStream(base, "/v1/shows/comedy-1/events")) {
            assertEquals(200, stream.response.statusCode());
            assertTrue(stream.response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
            EventStream.Event first = stream.next(Duration.ofSeconds(5));
            assertEquals("availability", first.name());
            int seats = first.data().get("seatCount").asInt();
            assertEquals(app.app.directory().find("comedy-1").orElseThrow().layout().totalSeats(), seats);
            byte[] packed = Base64.getDecoder().decode(first.data().get("data").asText());
            assertEquals((seats + 3) / 4, packed.length);

            String fan = app.token("sse-fan");
            TestApp.Http.Reply held = http.post("/v1/shows/comedy-1/holds", fan, "{\"seatIds\":[\"STALLS-2-3\",\"STALLS-2-4\"]}");
            assertEquals(201, held.status(), held.body());
            long answered = System.nanoTime();
            EventStream.Event change = stream.next(Duration.ofSeconds(1));
            assertTrue(System.nanoTime() - answered < 1_000_000_000L, "the change came later than a second");
            assertEquals("changes", change.name());
            assertEquals(List.of(index("comedy-1", "STALLS-2-3"), index("comedy-1", "STALLS-2-4")), changed(change, 1));
            assertTrue(Long.parseLong(change.id()) > Long.parseLong(first.id()), "ids count up");

            String holdId = Json.MAPPER.readTree(held.body()).get("holdId").asText();
            assertEquals(204, http.delete("/v1/holds/" + holdId, fan).status());
            EventStream.Event released = stream.next(Duration.ofSeconds(1));
            assertEquals(List.of(index("comedy-1", "STALLS-2-3"), index("comedy-1", "STALLS-2-4")), changed(released, 0));
        }
    }

    @Test
    void twoClients_ofOneShow_bothGetTheChange() throws Exception {
        try (EventStream a = new EventStream(base, "/v1/shows/comedy-2/events");
             EventStream b = new EventStream(base, "/v1/shows/comedy-2/events")) {
            a.next(Duration.ofSeconds(5));
            b.next(Duration.ofSeconds(5));
            assertEquals(201, http.post("/v1/shows/comedy-2/holds", app.token("sse-two"),
                    "{\"seatIds\":[\"CIRCLE-1-1\"]}").status());
            int seat = index("comedy-2", "CIRCLE-1-1");
            assertEquals(List.of(seat), changed(a.next(Duration.ofSeconds(1)), 1));
            assertEquals(List.of(seat), changed(b.next(Duration.ofSeconds(1)), 1));
        }
    }

    @Test
    void unknownShow_isNotFound() throws Exception {
        TestApp.Http.Reply r = http.get("/v1/shows/no-such-show/events", null);
        assertEquals(404, r.status(), r.body());
        assertEquals("NOT_FOUND", Json.MAPPER.readTree(r.body()).get("error").asText());
    }

    @Test
    void theWebApp_isServedAtTheRoot_andRevalidatesAsAStaticSite() {
        TestApp.Http.Reply index = http.get("/", null);
        assertEquals(200, index.status());
        assertTrue(index.body().contains("<script type=\"module\" src=\"/js/app.js\">"), index.body());
        TestApp.Http.Reply module = http.get("/js/app.js", null);
        assertEquals(200, module.status());
        assertTrue(module.headers().firstValue("Content-Type").orElse("").contains("javascript"));
        String etag = module.headers().firstValue("ETag").orElseThrow();
        assertEquals(304, http.get("/js/app.js", null, "If-None-Match", etag).status(), "the browser's copy is still good");
        assertEquals(404, http.get("/js/no-such-module.js", null).status());
    }

    @Test
    void theGatePage_isTheSameIndexAtGate_whereItsServiceWorkerLives() {
        TestApp.Http.Reply index = http.get("/", null);
        TestApp.Http.Reply gate = http.get("/gate/", null);
        assertEquals(200, gate.status());
        assertEquals(index.body(), gate.body(), "one index.html: the router shows the gate page there");
        TestApp.Http.Reply worker = http.get("/gate/sw.js", null);
        assertEquals(200, worker.status());
        assertTrue(worker.headers().firstValue("Content-Type").orElse("").contains("javascript"), "a service worker must be JavaScript");
        assertEquals("no-cache", worker.headers().firstValue("Cache-Control").orElse(null), "a new worker reaches the phones");
        for (String elsewhere : new String[] {"/gate", "/gate/index", "/js/", "/gate/x/"}) {
            TestApp.Http.Reply none = http.get(elsewhere, null);
            assertEquals(404, none.status(), elsewhere);
            assertEquals("NOT_FOUND", none.json().path("error").asText(), elsewhere + ": " + none.body());
        }
    }
}
