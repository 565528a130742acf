package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.catalog.DemoCatalog;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.LocalDate;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;

import static org.boxoffice.app.TestApp.assertError;
import static org.boxoffice.app.TestApp.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Browsing endpoints through the real routing: search, show details, seat lists, availability. */
@ServerTest
class CatalogApiTest {

    private static TestApp app;
    private final TestApp.Http http;

    CatalogApiTest(URI uri) {
        this.http = TestApp.Http.on(uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server);
    }


    private Set<String> eventIds(String query) {
        TestApp.Http.Reply r = http.get("/v1/events" + query, null);
        assertEquals(200, r.status(), r.body());
        Set<String> ids = new HashSet<>();
        json(r).get("events").forEach(e -> ids.add(e.get("eventId").asText()));
        return ids;
    }

    @Test
    void search_filtersByCityTextAndDates() {
        assertEquals(5, eventIds("").size());
        assertEquals(Set.of("midnight-echoes", "mahler-5", "berlin-comedy"), eventIds("?city=berlin"));
        assertEquals(Set.of("fado-nights", "lisbon-jazz"), eventIds("?city=Lisbon"));
        assertEquals(Set.of("midnight-echoes"), eventIds("?q=ECHOES"));
        assertEquals(Set.of("fado-nights", "lisbon-jazz"), eventIds("?q=coliseu"));
        assertEquals(Set.of(), eventIds("?q=%25"));
        String today = LocalDate.now().toString();
        String in12 = LocalDate.now().plusDays(12).toString();
        assertEquals(Set.of("berlin-comedy"), eventIds("?from=" + today + "&to=" + in12));
        JsonNode comedy = json(http.get("/v1/events?from=" + today + "&to=" + in12, null)).get("events").get(0);
        assertEquals(1, comedy.get("shows").size(), "only the shows in the range are listed");
        assertEquals("Tempodrom", comedy.get("venue").get("name").asText());
    }

    @Test
    void search_refusesBadDates() {
        assertEquals(400, http.get("/v1/events?from=yesterday", null).status());
        assertEquals(400, http.get("/v1/events?from=2027-01-02&to=2027-01-01", null).status());
        assertEquals("BAD_REQUEST", json(http.get("/v1/events?to=2027-13-45", null)).get("error").asText());
    }

    @Test
    void showDetails_listSectionsPricesLimitsAndCounts() {
        TestApp.Http.Reply r = http.get("/v1/shows/" + DemoCatalog.ON_SALE_SHOW, null);
        assertEquals(200, r.status(), r.body());
        JsonNode show = json(r);
        assertEquals(24, show.get("sections").size());
        assertEquals(60_000, show.get("layout").get("seatCount").asInt());
        assertEquals(60_000, show.get("counts").get("AVAILABLE").asInt() + show.get("counts").get("HELD").asInt()
                + show.get("counts").get("SOLD").asInt() + show.get("counts").get("BLOCKED").asInt());
        assertEquals(10, show.get("maxSeatsPerHold").asInt());
        assertEquals(420, show.get("holdSeconds").asInt());
        assertTrue(show.get("onSale").asBoolean());
        assertEquals("Olympiastadion", show.get("venue").get("name").asText());
        assertEquals(404, http.get("/v1/shows/nope", null).status());
    }

    @Test
    void seatList_filtersBySection_andRefusesUnknownOnes() {
        TestApp.Http.Reply r = http.get("/v1/shows/fado-1/seats?section=FRISAS", null);
        assertEquals(200, r.status(), r.body());
        JsonNode seats = json(r).get("seats");
        assertEquals(80, seats.size());
        assertEquals("FRISAS-1-1", seats.get(0).get("seatId").asText());
        assertEquals("AVAILABLE", seats.get(0).get("status").asText());
        assertEquals(422, http.get("/v1/shows/fado-1/seats?section=ROOF", null).status());
    }

    @Test
    void availability_isCompact_versioned_andAnswers304() {
        String path = "/v1/shows/" + DemoCatalog.ON_SALE_SHOW + "/availability";
        TestApp.Http.Reply r = http.get(path, null);
        assertEquals(200, r.status());
        assertTrue(r.body().length() <= 64 * 1024, "at most 64 KB for 60,000 seats: " + r.body().length());
        String etag = r.headers().firstValue("ETag").orElseThrow();
        assertEquals(304, http.get(path, null, "If-None-Match", etag).status());

        String token = app.token("zoe");
        assertEquals(201, http.post("/v1/shows/" + DemoCatalog.ON_SALE_SHOW + "/holds", token,
                "{\"seatIds\":[\"A-1-2\"]}").status());
        // the version moves with the next snapshot refresh (at most a refresh interval later)
        TestApp.Http.Reply after = http.get(path, null, "If-None-Match", etag);
        long deadline = System.currentTimeMillis() + 3_000;
        while (after.status() == 304 && System.currentTimeMillis() < deadline) {
            after = http.get(path, null, "If-None-Match", etag);
        }
        assertEquals(200, after.status(), "a change gives a new version");
        byte[] data = Base64.getDecoder().decode(json(after).get("data").asText());
        assertEquals(0, data[0] & 3, "A-1-1 available");
        assertEquals(1, (data[0] >> 2) & 3, "A-1-2 held");
    }

    @Test
    void publicReads_carryAStrongETag_andALifetimeByHowFastTheyChange() {
        assertCacheable("/v1/events?city=Berlin", "public, max-age=30, stale-while-revalidate=60");
        assertCacheable("/v1/events/midnight-echoes", "public, max-age=30, stale-while-revalidate=60");
        // shows no other test here holds seats of, so nothing changes between the 200 and the 304
        assertCacheable("/v1/shows/echoes-berlin-2", "public, max-age=5, stale-while-revalidate=30");
        assertCacheable("/v1/shows/jazz-1/seats?section=FRISAS", "public, max-age=1, stale-while-revalidate=1");
        assertCacheable("/v1/shows/echoes-berlin-2/availability", "public, max-age=1, stale-while-revalidate=1");
    }

    private void assertCacheable(String path, String cacheControl) {
        TestApp.Http.Reply r = http.get(path, null);
        assertEquals(200, r.status(), r.body());
        assertEquals(cacheControl, r.headers().firstValue("Cache-Control").orElse(null), path);
        String etag = r.headers().firstValue("ETag").orElseThrow();
        assertTrue(etag.startsWith("\"") && etag.endsWith("\""), "a strong ETag: " + etag);
        TestApp.Http.Reply again = http.get(path, null, "If-None-Match", etag);
        assertEquals(304, again.status(), path);
        assertEquals("", again.body());
        assertEquals(etag, again.headers().firstValue("ETag").orElse(null), "a 304 names what it confirms");
        assertEquals(cacheControl, again.headers().firstValue("Cache-Control").orElse(null), "a 304 renews the lifetime");
    }

    @Test
    void largeAnswers_goGzipped_toClientsThatAcceptIt_underTheirOwnETag() throws Exception {
        String path = "/v1/shows/echoes-berlin-2";
        TestApp.Http.Reply plain = http.get(path, null);
        java.net.http.HttpResponse<byte[]> zipped = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(http.base().resolve(path)).header("Accept-Encoding", "gzip, br").build(),
                java.net.http.HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, zipped.statusCode());
        assertEquals("gzip", zipped.headers().firstValue("Content-Encoding").orElse(null));
        assertEquals("Accept-Encoding", zipped.headers().firstValue("Vary").orElse(null));
        assertTrue(zipped.body().length < plain.body().length() / 5, zipped.body().length + " bytes of " + plain.body().length());
        try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(zipped.body()))) {
            assertEquals(plain.body(), new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        }
        String plainTag = plain.headers().firstValue("ETag").orElseThrow();
        String zippedTag = zipped.headers().firstValue("ETag").orElseThrow();
        assertEquals(plainTag.substring(0, plainTag.length() - 1) + "-gz\"", zippedTag);
        assertEquals(304, http.get(path, null, "If-None-Match", zippedTag).status(), "either copy's tag is current");
        assertEquals(304, http.get(path, null, "If-None-Match", plainTag).status());
    }

    @Test
    void ifNoneMatch_answers304_whenAnyListedTagOrAStarMatches() {
        String path = "/v1/events/midnight-echoes";
        String etag = http.get(path, null).headers().firstValue("ETag").orElseThrow();
        assertEquals(304, http.get(path, null, "If-None-Match", "\"old\", W/" + etag + ", \"older\"").status());
        assertEquals(304, http.get(path, null, "If-None-Match", "*").status());
        assertEquals(200, http.get(path, null, "If-None-Match", "\"old\", \"older\"").status());
        assertEquals(200, http.get(path, null, "If-None-Match", etag.substring(0, etag.length() - 2) + "\"").status());
    }

    @Test
    void aRequestWithAToken_neverGetsAPubliclyCacheableAnswer() {
        String token = app.token("cache-1");
        TestApp.Http.Reply show = http.get("/v1/shows/jazz-2", token);
        assertEquals(200, show.status());
        assertEquals("private, no-store", show.headers().firstValue("Cache-Control").orElse(null));
        TestApp.Http.Reply hold = http.post("/v1/shows/fado-1/holds", token, "{\"seatIds\":[\"FRISAS-2-3\"]}");
        assertEquals(201, hold.status(), hold.body());
        assertEquals("no-store", hold.headers().firstValue("Cache-Control").orElse(null));
        TestApp.Http.Reply mine = http.get("/v1/holds/" + json(hold).get("holdId").asText(), token);
        assertEquals("no-store", mine.headers().firstValue("Cache-Control").orElse(null), mine.body());
        assertEquals("no-store", http.get("/v1/shows/nope", null).headers().firstValue("Cache-Control").orElse(null),
                "errors are not kept either");
    }

    @Test
    void event_listsItsVenueAndEveryShow_and404sOtherwise() {
        TestApp.Http.Reply r = http.get("/v1/events/midnight-echoes", null);
        assertEquals(200, r.status(), r.body());
        JsonNode event = json(r);
        assertEquals("midnight-echoes", event.get("eventId").asText());
        assertEquals("Berlin", event.get("venue").get("city").asText());
        assertTrue(event.get("shows").size() >= 1);
        assertTrue(event.get("shows").findValuesAsText("showId").contains(DemoCatalog.ON_SALE_SHOW), r.body());
        assertError(http.get("/v1/events/no-such-event", null), 404, "NOT_FOUND");
    }

    @Test
    void openApiDocument_isServed() {
        TestApp.Http.Reply r = http.get("/openapi", null);
        assertEquals(200, r.status());
        assertTrue(r.body().startsWith("openapi: 3"));
    }
}
