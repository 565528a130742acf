package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

import static org.boxoffice.app.TestApp.assertError;
import static org.boxoffice.app.TestApp.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Holds through the real routing on a real socket, real grid member and real PostgreSQL. */
@ServerTest
class HoldsApiTest {

    private static final String SHOW = "mahler-5-1";
    private static TestApp app;
    private final TestApp.Http http;

    HoldsApiTest(URI uri) {
        this.http = TestApp.Http.on(uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server);
    }



    private TestApp.Http.Reply hold(String token, String body, String... headers) {
        return http.post("/v1/shows/" + SHOW + "/holds", token, body, headers);
    }

    private String seatState(String seatId) {
        try (Connection c = app.dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select state from seats where show_id = '" + SHOW + "' and seat_id = '" + seatId + "'")) {
            rs.next();
            return rs.getString(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private long heldRows() throws Exception {
        try (Connection c = app.dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select count(*) from seats where show_id = '" + SHOW + "' and state <> 'AVAILABLE'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void hold_isCreated_andVisibleToItsOwnerOnly() {
        String alice = app.token("alice-1");
        TestApp.Http.Reply r = hold(alice, "{\"seatIds\":[\"STALLS-1-1\",\"STALLS-1-2\"]}");

        assertEquals(201, r.status(), r.body());
        JsonNode h = json(r);
        assertEquals("HELD", h.get("status").asText());
        assertEquals(SHOW, h.get("showId").asText());
        assertEquals("alice-1", h.get("accountId").asText());
        assertEquals(2, h.get("seatIds").size());
        assertTrue(r.body().contains("\"totalAmount\":178.00"), r.body());
        assertEquals("EUR", h.get("currency").asText());
        Instant expires = Instant.parse(h.get("expiresAt").asText());
        assertTrue(expires.isAfter(Instant.now().plus(Duration.ofMinutes(6))));

        String holdId = h.get("holdId").asText();
        assertEquals("/v1/holds/" + holdId, r.headers().firstValue("Location").orElse(null));
        TestApp.Http.Reply mine = http.get("/v1/holds/" + holdId, alice);
        assertEquals(200, mine.status(), mine.body());
        assertEquals("HELD", json(mine).get("status").asText());
        assertError(http.get("/v1/holds/" + holdId, app.token("mallory")), 404, "NOT_FOUND");
        assertEquals(200, http.get("/v1/holds/" + holdId, app.token("ops", "admin")).status());
        assertError(http.get("/v1/holds/H-NOPE", alice), 404, "NOT_FOUND");
    }

    @Test
    void takenSeats_answer409_withTheTakenSeatsAndAlternatives() {
        assertEquals(201, hold(app.token("bob-1"), "{\"seatIds\":[\"STALLS-5-10\",\"STALLS-5-11\"]}").status());

        TestApp.Http.Reply r = hold(app.token("carol-1"), "{\"seatIds\":[\"STALLS-5-11\",\"STALLS-5-12\"]}");

        assertError(r, 409, "SEATS_UNAVAILABLE");
        JsonNode body = json(r);
        assertEquals("STALLS-5-11", body.get("unavailable").get(0).asText());
        assertEquals(1, body.get("unavailable").size());
        assertEquals(3, body.get("alternatives").size());
        for (JsonNode alt : body.get("alternatives")) {
            assertEquals(2, alt.size());
            assertTrue(alt.get(0).asText().startsWith("STALLS-"));
        }
        assertEquals(201, hold(app.token("carol-1"), "{\"seatIds\":" + body.get("alternatives").get(0) + "}").status());
    }

    @Test
    void aRefusalOfTheFastGate_isNotRemembered_soTheSameKeyIsDecidedAfreshOnceTheSeatIsFree() {
        String ivan = app.token("ivan-1");
        String holdId = json(hold(ivan, "{\"seatIds\":[\"STALLS-7-3\"]}")).get("holdId").asText();
        String judy = app.token("judy-1");

        assertError(hold(judy, "{\"seatIds\":[\"STALLS-7-3\"]}", "Idempotency-Key", "j-1"), 409, "SEATS_UNAVAILABLE");
        assertEquals(204, http.delete("/v1/holds/" + holdId, ivan).status());
        TestApp.Http.Reply retry = hold(judy, "{\"seatIds\":[\"STALLS-7-3\"]}", "Idempotency-Key", "j-1");

        assertEquals(201, retry.status(), "nothing was changed or promised by the refusal: " + retry.body());
        assertEquals(json(retry).get("holdId"),
                json(hold(judy, "{\"seatIds\":[\"STALLS-7-3\"]}", "Idempotency-Key", "j-1")).get("holdId"),
                "once it held, the key answers with that hold");
    }

    @Test
    void release_returnsSeatsToSaleAtOnce() {
        String dave = app.token("dave-1");
        String holdId = json(hold(dave, "{\"seatIds\":[\"STALLS-9-1\"]}")).get("holdId").asText();

        assertEquals(204, http.delete("/v1/holds/" + holdId, dave).status());

        assertEquals("RELEASED", json(http.get("/v1/holds/" + holdId, dave)).get("status").asText());
        assertEquals(201, hold(app.token("erin-1"), "{\"seatIds\":[\"STALLS-9-1\"]}").status());
        assertEquals(204, http.delete("/v1/holds/" + holdId, dave).status(), "releasing again is a no-op");
        assertError(http.delete("/v1/holds/" + holdId, app.token("mallory")), 404, "NOT_FOUND");
    }

    @Test
    void bestAvailable_holdsAdjacentSeatsInTheRequestedSection() {
        TestApp.Http.Reply r = hold(app.token("frank-1"), "{\"bestAvailable\":{\"quantity\":4,\"section\":\"BALCONY\"}}");

        assertEquals(201, r.status(), r.body());
        JsonNode seats = json(r).get("seatIds");
        assertEquals(4, seats.size());
        String row = seats.get(0).asText().substring(0, seats.get(0).asText().lastIndexOf('-'));
        int first = Integer.parseInt(seats.get(0).asText().substring(row.length() + 1));
        for (int i = 0; i < 4; i++) {
            assertEquals(row + "-" + (first + i), seats.get(i).asText());
        }
        assertTrue(row.startsWith("BALCONY-1"), row);
        assertError(hold(app.token("frank-1"), "{\"bestAvailable\":{\"quantity\":2,\"section\":\"ROOF\"}}"), 422, "UNKNOWN_SECTION");
    }

    @Test
    void idempotentRetry_returnsTheSameHold_andAnotherBodyIsRefused() {
        String gina = app.token("gina-1");
        String body = "{\"seatIds\":[\"CIRCLE-2-1\",\"CIRCLE-2-2\"]}";

        TestApp.Http.Reply first = hold(gina, body, "Idempotency-Key", "k-1");
        TestApp.Http.Reply retry = hold(gina, body, "Idempotency-Key", "k-1");

        assertEquals(201, first.status(), first.body());
        assertEquals(201, retry.status(), retry.body());
        assertEquals(json(first).get("holdId"), json(retry).get("holdId"));
        String location = "/v1/holds/" + json(first).get("holdId").asText();
        assertEquals(location, first.headers().firstValue("Location").orElse(null));
        assertEquals(location, retry.headers().firstValue("Location").orElse(null));
        assertError(hold(gina, "{\"seatIds\":[\"CIRCLE-2-3\"]}", "Idempotency-Key", "k-1"), 422, "IDEMPOTENCY_KEY_REUSED");
        assertError(hold(gina, "{\"seatIds\":[\"CIRCLE-2-4\"]}", "Idempotency-Key", "k".repeat(256)), 400, "BAD_REQUEST");
        assertEquals("AVAILABLE", seatState("CIRCLE-2-4"), "a refused key holds nothing");
        TestApp.Http.Reply otherAccount = hold(app.token("hank-1"), body, "Idempotency-Key", "k-1");
        assertError(otherAccount, 409, "SEATS_UNAVAILABLE");
    }

    @Test
    void bestAvailable_besideAnEmptyOrNullSeatIds_asGeneratedClientsSendIt_isBestAvailable() {
        TestApp.Http.Reply empty = hold(app.token("gen-1"), "{\"seatIds\":[],\"bestAvailable\":{\"quantity\":2,\"section\":null}}");
        assertEquals(201, empty.status(), empty.body());
        assertEquals(2, json(empty).get("seatIds").size());
        TestApp.Http.Reply nulls = hold(app.token("gen-2"), "{\"seatIds\":null,\"bestAvailable\":{\"quantity\":1}}");
        assertEquals(201, nulls.status(), nulls.body());
        TestApp.Http.Reply named = hold(app.token("gen-3"), "{\"seatIds\":[\"STALLS-27-1\"],\"bestAvailable\":null}");
        assertEquals(201, named.status(), named.body());
        assertError(hold(app.token("gen-4"), "{\"seatIds\":[\"STALLS-27-2\"],\"bestAvailable\":{\"quantity\":1}}"),
                400, "BAD_REQUEST");
        assertError(hold(app.token("gen-4"), "{\"seatIds\":null,\"bestAvailable\":null}"), 400, "BAD_REQUEST");
    }

    @Test
    void aRequestBreakingSeveralRules_hearsTheFirstOfThemInTheRulesOrder() {
        String kim = app.token("kim-1");
        assertEquals(201, hold(app.token("leo-1"), "{\"seatIds\":[\"STALLS-12-1\"]}").status());

        // a seat the map shows taken beside one the show does not have: the unknown seat is said first
        TestApp.Http.Reply unknown = hold(kim, "{\"seatIds\":[\"STALLS-12-1\",\"STALLS-12-99\"]}");
        assertError(unknown, 422, "UNKNOWN_SEAT");
        assertEquals("STALLS-12-99", json(unknown).get("unknown").get(0).asText());
        // too many seats, all unknown: the size is said first
        StringBuilder eleven = new StringBuilder("{\"seatIds\":[");
        for (int i = 1; i <= 11; i++) {
            eleven.append(i > 1 ? "," : "").append("\"NOPE-1-").append(i).append('"');
        }
        assertError(hold(kim, eleven + "]}"), 422, "TOO_MANY_SEATS");
        // a closed sale, with too many seats as well: the sale is said first
        assertError(http.post("/v1/shows/echoes-berlin-2/holds", kim, eleven + "]}"), 422, "SALE_NOT_OPEN");
    }

    @Test
    void limits_areEnforced_andRejectionsChangeNothing() throws Exception {
        String ivan = app.token("ivan-1");
        long before = heldRows();

        assertError(hold(ivan, "{\"seatIds\":[]}"), 422, "TOO_MANY_SEATS");
        StringBuilder eleven = new StringBuilder("{\"seatIds\":[");
        for (int i = 1; i <= 11; i++) {
            eleven.append(i > 1 ? "," : "").append("\"STALLS-20-").append(i).append('"');
        }
        assertError(hold(ivan, eleven + "]}"), 422, "TOO_MANY_SEATS");
        TestApp.Http.Reply unknown = hold(ivan, "{\"seatIds\":[\"STALLS-1-99\",\"STALLS-20-1\"]}");
        assertError(unknown, 422, "UNKNOWN_SEAT");
        assertEquals("STALLS-1-99", json(unknown).get("unknown").get(0).asText());
        assertError(http.post("/v1/shows/echoes-berlin-2/holds", ivan, "{\"seatIds\":[\"A-1-1\"]}"), 422, "SALE_NOT_OPEN");
        assertError(http.post("/v1/shows/no-such-show/holds", ivan, "{\"seatIds\":[\"A-1-1\"]}"), 404, "NOT_FOUND");

        assertEquals(201, hold(ivan, "{\"bestAvailable\":{\"quantity\":6}}").status());
        TestApp.Http.Reply over = hold(ivan, "{\"bestAvailable\":{\"quantity\":5}}");
        assertError(over, 422, "ACCOUNT_LIMIT");
        assertEquals(4, json(over).get("remaining").asInt());
        assertEquals(before + 6, heldRows(), "only the one accepted hold changed seats");
    }

    @Test
    void malformedRequests_get400_andMissingOrBadTokens401() {
        String jo = app.token("jo-1");
        assertError(hold(jo, "{not json"), 400, "BAD_REQUEST");
        assertError(hold(jo, "[1,2]"), 400, "BAD_REQUEST");
        assertError(hold(jo, null), 400, "BAD_REQUEST");
        assertError(hold(jo, "{\"seatIds\":[\"A\"],\"bestAvailable\":{\"quantity\":1}}"), 400, "BAD_REQUEST");
        assertError(hold(jo, "{\"seatIds\":\"STALLS-1-1\"}"), 400, "BAD_REQUEST");
        assertError(hold(jo, "{\"seatIds\":[1,2]}"), 400, "BAD_REQUEST");
        assertError(hold(jo, "{\"seats\":[\"STALLS-1-1\"]}"), 400, "BAD_REQUEST");
        assertError(hold(jo, "{\"bestAvailable\":{\"quantity\":\"two\"}}"), 400, "BAD_REQUEST");
        assertError(hold(jo, "{\"bestAvailable\":{\"quantity\":2.5}}"), 400, "BAD_REQUEST");
        assertError(hold(jo, "{\"seatIds\":[\"STALLS-30-1\",\"STALLS-30-1\"]}"), 400, "BAD_REQUEST");

        assertError(hold(null, "{\"seatIds\":[\"STALLS-30-1\"]}"), 401, "UNAUTHORIZED");
        assertError(hold("not-a-jwt", "{\"seatIds\":[\"STALLS-30-1\"]}"), 401, "UNAUTHORIZED");
        String forged = jo.substring(0, jo.lastIndexOf('.') + 1) + "AAAA" + jo.substring(jo.lastIndexOf('.') + 5);
        assertError(hold(forged, "{\"seatIds\":[\"STALLS-30-1\"]}"), 401, "UNAUTHORIZED");
        String expired = app.app.authenticator().issue("jo-1", Set.of(), Duration.ofMillis(-1000));
        assertError(hold(expired, "{\"seatIds\":[\"STALLS-30-1\"]}"), 401, "UNAUTHORIZED");
        assertError(http.post("/v1/shows/" + SHOW + "/holds", null, "{}", "Authorization", "Basic abc"), 401, "UNAUTHORIZED");
        assertError(http.get("/v1/nothing-here", null), 404, "NOT_FOUND");
    }

    @Test
    void devTokens_andAdminShowCreation() {
        TestApp.Http.Reply t = http.post("/v1/dev/tokens", null, "{\"accountId\":\"kim\"}");
        assertEquals(201, t.status(), t.body());
        String kim = json(t).get("token").asText();
        assertError(http.post("/v1/dev/tokens", null, "{\"accountId\":\"\"}"), 400, "BAD_REQUEST");
        assertError(http.post("/v1/dev/tokens", null, "{\"accountId\":\"x\",\"roles\":[\"root\"]}"), 400, "BAD_REQUEST");

        String create = "{\"eventId\":\"mahler-5\",\"showId\":\"mahler-extra\",\"startsAt\":\"2030-01-01T19:00:00Z\","
                + "\"sections\":[{\"name\":\"A\",\"price\":\"10.50\",\"rows\":3,\"seatsPerRow\":4}]}";
        assertError(http.post("/v1/admin/shows", kim, create), 403, "FORBIDDEN");
        String admin = app.token("ops", "admin");
        TestApp.Http.Reply created = http.post("/v1/admin/shows", admin, create);
        assertEquals(201, created.status(), created.body());
        assertEquals(12, json(created).get("seatCount").asInt());
        assertError(http.post("/v1/admin/shows", admin, create), 409, "SHOW_EXISTS");
        assertError(http.post("/v1/admin/shows", admin, create.replace("mahler-5\"", "nope\"")), 422, "UNKNOWN_EVENT");
        assertError(http.post("/v1/admin/shows", admin, create.replace("\"rows\":3", "\"rows\":0")), 400, "BAD_REQUEST");
        assertError(http.post("/v1/admin/shows", admin, create.replace("10.50", "ten")), 400, "BAD_REQUEST");

        assertEquals(201, http.post("/v1/shows/mahler-extra/holds", kim, "{\"seatIds\":[\"A-3-4\"]}").status());
        TestApp.Http.Reply blocked = http.post("/v1/admin/shows/mahler-extra/seats/block", admin,
                "{\"seatIds\":[\"A-1-1\",\"A-1-2\"],\"reason\":\"camera\"}");
        assertEquals(200, blocked.status(), blocked.body());
        assertError(http.post("/v1/shows/mahler-extra/holds", kim, "{\"seatIds\":[\"A-1-1\"]}"), 409, "SEATS_UNAVAILABLE");
        assertEquals(200, http.post("/v1/admin/shows/mahler-extra/seats/unblock", admin, "{\"seatIds\":[\"A-1-1\"]}").status());
        assertEquals(201, http.post("/v1/shows/mahler-extra/holds", kim, "{\"seatIds\":[\"A-1-1\"]}").status());
        assertNotEquals(0, json(http.get("/v1/shows/mahler-extra", null)).get("counts").get("BLOCKED").asInt());
        assertFalse(json(http.get("/v1/events?q=mahler", null)).get("events").get(0).get("shows").isEmpty());
    }
}
