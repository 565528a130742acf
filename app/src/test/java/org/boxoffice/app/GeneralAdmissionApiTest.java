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
import java.util.concurrent.atomic.AtomicInteger;

import static org.boxoffice.app.TestApp.assertError;
import static org.boxoffice.app.TestApp.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** General admission through the real routing on a real socket, a real grid member and real PostgreSQL. */
@ServerTest
class GeneralAdmissionApiTest {

    private static final AtomicInteger SHOWS = new AtomicInteger();
    private static TestApp app;
    private final TestApp.Http http;
    private final String admin;

    GeneralAdmissionApiTest(URI uri) {
        this.http = TestApp.Http.on(uri);
        this.admin = app.token("ops", "admin");
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server);
    }

    /** A new show on sale with one small seated section; {@code extra}: more fields of the show. */
    private String newShow(String extra) {
        String showId = "ga-show-" + SHOWS.incrementAndGet();
        TestApp.Http.Reply r = http.post("/v1/admin/shows", admin, "{\"showId\":\"" + showId + "\",\"eventId\":\"mahler-5\","
                + "\"startsAt\":\"2030-06-01T20:00:00Z\",\"sections\":[{\"name\":\"A\",\"price\":\"10.00\",\"rows\":1,"
                + "\"seatsPerRow\":10}]" + extra + "}");
        assertEquals(201, r.status(), r.body());
        return showId;
    }

    private TestApp.Http.Reply createArea(String showId, String body) {
        return http.post("/v1/admin/shows/" + showId + "/areas", admin, body);
    }

    private String newArea(String showId, int capacity, int stripes) {
        TestApp.Http.Reply r = createArea(showId, "{\"name\":\"FLOOR\",\"capacity\":" + capacity + ",\"price\":\"45.00\","
                + "\"stripes\":" + stripes + "}");
        assertEquals(201, r.status(), r.body());
        return "FLOOR";
    }

    private JsonNode area(String showId, String name) {
        for (JsonNode a : json(http.get("/v1/shows/" + showId + "/areas", null)).get("areas")) {
            if (a.get("name").asText().equals(name)) {
                return a;
            }
        }
        throw new AssertionError("no area " + name);
    }

    static int takenInReferee(String showId, String area) {
        try (Connection c = app.dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT coalesce(sum(taken), 0) FROM admission_stripes WHERE show_id = '"
                     + showId + "' AND area = '" + area + "'")) {
            rs.next();
            return rs.getInt(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---------------------------------------------------------------- areas: created, shown, resized

    @Test
    void anArea_isCreated_andShownOnTheShowDocumentAndItsAreasAnswer_withWhatIsLeft() {
        String showId = newShow("");
        assertEquals(0, json(http.get("/v1/shows/" + showId, null)).get("areas").size(), "a show document read before");

        TestApp.Http.Reply r = createArea(showId, "{\"name\":\"FLOOR\",\"capacity\":2000,\"price\":\"59.90\"}");

        assertEquals(201, r.status(), r.body());
        JsonNode created = json(r);
        assertEquals("FLOOR", created.get("name").asText());
        assertEquals(2000, created.get("capacity").asInt());
        assertEquals(16, created.get("stripes").asInt());
        assertEquals("/v1/shows/" + showId + "/areas", r.headers().firstValue("Location").orElseThrow());
        JsonNode area = area(showId, "FLOOR");
        assertEquals(2000, area.get("capacity").asInt());
        assertEquals(2000, area.get("left").asInt());
        TestApp.Http.Reply answer = http.get("/v1/shows/" + showId + "/areas", null);
        assertTrue(answer.body().contains("\"price\":59.90"), answer.body());
        assertTrue(answer.headers().firstValue("Cache-Control").orElse("").contains("public"), answer.headers().toString());
        assertEquals(1, eventually(() -> json(http.get("/v1/shows/" + showId, null)).get("areas").size(), 1));
        JsonNode doc = json(http.get("/v1/shows/" + showId, null));
        assertEquals("FLOOR", doc.get("areas").get(0).get("name").asText());
        assertEquals(2000, doc.get("areas").get(0).get("left").asInt());
    }

    @Test
    void badAreas_areRefused_with400sAndTheirCodes() {
        String showId = newShow("");
        newArea(showId, 10, 2);

        assertError(createArea(showId, "{\"name\":\"FLOOR\",\"capacity\":5,\"price\":\"1.00\"}"), 409, "AREA_EXISTS");
        assertError(createArea(showId, "{\"name\":\"A\",\"capacity\":5,\"price\":\"1.00\"}"), 409, "AREA_EXISTS");
        assertError(createArea(showId, "{\"name\":\"no spaces\",\"capacity\":5,\"price\":\"1.00\"}"), 400, "BAD_REQUEST");
        assertError(createArea(showId, "{\"name\":\"PIT\",\"capacity\":0,\"price\":\"1.00\"}"), 400, "BAD_REQUEST");
        assertError(createArea(showId, "{\"name\":\"PIT\",\"capacity\":\"ten\",\"price\":\"1.00\"}"), 400, "BAD_REQUEST");
        assertError(createArea(showId, "{\"name\":\"PIT\",\"price\":\"1.00\"}"), 400, "BAD_REQUEST");
        assertError(createArea(showId, "{\"name\":\"PIT\",\"capacity\":5,\"price\":\"-1\"}"), 400, "BAD_REQUEST");
        assertError(createArea(showId, "{\"name\":\"PIT\",\"capacity\":5,\"price\":\"1.00\",\"stripes\":6}"), 400, "BAD_REQUEST");
        assertError(createArea(showId, "{\"name\":\"PIT\",\"capacity\":5,\"price\":\"1.00\",\"vip\":true}"), 400, "BAD_REQUEST");
        assertError(createArea("no-such-show", "{\"name\":\"PIT\",\"capacity\":5,\"price\":\"1.00\"}"), 404, "NOT_FOUND");
        assertError(http.post("/v1/admin/shows/" + showId + "/areas", app.token("fan"),
                "{\"name\":\"PIT\",\"capacity\":5,\"price\":\"1.00\"}"), 403, "FORBIDDEN");
        assertEquals(1, json(http.get("/v1/shows/" + showId + "/areas", null)).get("areas").size());
    }

    @Test
    void anAreasCapacity_changes_butNeverBelowWhatIsTaken() {
        String showId = newShow("");
        newArea(showId, 10, 2);
        String path = "/v1/admin/shows/" + showId + "/areas/FLOOR/capacity";

        TestApp.Http.Reply grown = http.put(path, admin, "{\"capacity\":25}");

        assertEquals(200, grown.status(), grown.body());
        assertEquals(25, json(grown).get("capacity").asInt());
        assertEquals(25, area(showId, "FLOOR").get("left").asInt());
        assertError(http.put(path, admin, "{\"capacity\":-1}"), 400, "BAD_REQUEST");
        assertError(http.put(path, admin, "{}"), 400, "BAD_REQUEST");
        assertError(http.put("/v1/admin/shows/" + showId + "/areas/NOPE/capacity", admin, "{\"capacity\":5}"), 404, "NOT_FOUND");
        TestApp.Http.Reply shrunk = http.put(path, admin, "{\"capacity\":3}");
        assertEquals(200, shrunk.status(), shrunk.body());
        assertEquals(3, json(shrunk).get("capacity").asInt());
        assertEquals(3, eventually(() -> area(showId, "FLOOR").get("capacity").asInt(), 3));
    }

    /** What {@code read} gives once it gives {@code expected}, or after 5 s (the areas' answer may be a second old). */
    static int eventually(java.util.function.IntSupplier read, int expected) {
        long until = System.nanoTime() + 5_000_000_000L;
        int got = read.getAsInt();
        while (got != expected && System.nanoTime() < until) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            got = read.getAsInt();
        }
        return got;
    }

    // ---------------------------------------------------------------- holds by count

    private TestApp.Http.Reply hold(String showId, String token, String body, String... headers) {
        return http.post("/v1/shows/" + showId + "/holds", token, body, headers);
    }

    @Test
    void aShowWithNoSeatedSections_isCreated_andSellsItsStandingFloorByCount() {
        String showId = "ga-only-" + SHOWS.incrementAndGet();
        TestApp.Http.Reply created = http.post("/v1/admin/shows", admin, "{\"showId\":\"" + showId
                + "\",\"eventId\":\"mahler-5\",\"startsAt\":\"2030-06-01T20:00:00Z\"}");
        assertEquals(201, created.status(), created.body());
        assertEquals(0, json(created).get("seatCount").asInt());
        newArea(showId, 10, 2);

        TestApp.Http.Reply held = hold(showId, app.token("ann-ga-only"), "{\"area\":\"FLOOR\",\"quantity\":3}");

        assertEquals(201, held.status(), held.body());
        assertEquals(3, takenInReferee(showId, "FLOOR"));
        assertEquals(7, eventually(() -> area(showId, "FLOOR").get("left").asInt(), 7));
        assertEquals(200, http.get("/v1/shows/" + showId, null).status());
        assertEquals(200, http.get("/v1/shows/" + showId + "/seats", null).status(), "a seat map with no seats");
        assertEquals(422, hold(showId, app.token("bob-ga-only"), "{\"seatIds\":[\"A-1-1\"]}").status(), "no seat to hold");
        TestApp.Http.Reply empty = http.post("/v1/admin/shows", admin, "{\"eventId\":\"mahler-5\","
                + "\"startsAt\":\"2030-06-01T20:00:00Z\",\"sections\":{}}");
        assertEquals(400, empty.status(), empty.body());
        assertEquals("BAD_REQUEST", json(empty).get("error").asText());
    }

    @Test
    void aHoldByCount_isMade_shown_andReleased_givingItsAdmissionsBack() {
        String showId = newShow("");
        newArea(showId, 10, 3);
        String ann = app.token("ann-ga");

        TestApp.Http.Reply r = hold(showId, ann, "{\"area\":\"FLOOR\",\"quantity\":2}");

        assertEquals(201, r.status(), r.body());
        JsonNode h = json(r);
        String holdId = h.get("holdId").asText();
        assertEquals("FLOOR", h.get("area").asText());
        assertEquals(2, h.get("quantity").asInt());
        assertEquals(0, h.get("seatIds").size());
        assertEquals("HELD", h.get("status").asText());
        assertTrue(r.body().contains("\"totalAmount\":90.00"), r.body());
        assertEquals("/v1/holds/" + holdId, r.headers().firstValue("Location").orElseThrow());
        JsonNode shown = json(http.get("/v1/holds/" + holdId, ann));
        assertEquals("FLOOR", shown.get("area").asText());
        assertEquals(2, shown.get("quantity").asInt());
        assertEquals("HELD", shown.get("status").asText());
        assertEquals(2, takenInReferee(showId, "FLOOR"));
        assertEquals(8, eventually(() -> area(showId, "FLOOR").get("left").asInt(), 8));

        assertEquals(204, http.delete("/v1/holds/" + holdId, ann).status());

        assertEquals(0, takenInReferee(showId, "FLOOR"));
        assertEquals("RELEASED", json(http.get("/v1/holds/" + holdId, ann)).get("status").asText());
        assertEquals(10, eventually(() -> area(showId, "FLOOR").get("left").asInt(), 10));
    }

    @Test
    void badHoldsByCount_areRefused_withTheirCodes_andTakeNothing() {
        String showId = newShow(",\"maxSeatsPerHold\":4");
        newArea(showId, 10, 2);
        String bob = app.token("bob-ga");

        assertError(hold(showId, bob, "{\"area\":\"FLOOR\"}"), 400, "BAD_REQUEST");
        assertError(hold(showId, bob, "{\"quantity\":2}"), 400, "BAD_REQUEST");
        assertError(hold(showId, bob, "{\"area\":\"FLOOR\",\"quantity\":\"two\"}"), 400, "BAD_REQUEST");
        assertError(hold(showId, bob, "{\"area\":\"FLOOR\",\"quantity\":1,\"seatIds\":[\"A-1-1\"]}"), 400, "BAD_REQUEST");
        assertError(hold(showId, bob, "{\"area\":\"FLOOR\",\"quantity\":1,\"bestAvailable\":{\"quantity\":1}}"), 400, "BAD_REQUEST");
        assertError(hold(showId, bob, "{\"area\":\"PIT\",\"quantity\":1}"), 422, "UNKNOWN_AREA");
        assertError(hold(showId, bob, "{\"area\":\"FLOOR\",\"quantity\":0}"), 422, "TOO_MANY_SEATS");
        TestApp.Http.Reply five = hold(showId, bob, "{\"area\":\"FLOOR\",\"quantity\":5}");
        assertError(five, 422, "TOO_MANY_SEATS");
        assertEquals("a hold takes 1 to 4 admissions", five.json().path("message").asText());
        assertError(hold("no-such-show", bob, "{\"area\":\"FLOOR\",\"quantity\":1}"), 404, "NOT_FOUND");
        assertEquals(201, hold(showId, bob, "{\"area\":\"FLOOR\",\"quantity\":4}").status());
        assertEquals(201, hold(showId, app.token("cat-ga"), "{\"area\":\"FLOOR\",\"quantity\":4}").status());
        assertEquals(0L, app.app.invariants().checkNow().get("admissions_unbacked"));
        assertEquals(0L, app.app.invariants().checkNow().get("admissions_beyond_capacity"));

        TestApp.Http.Reply soldOut = hold(showId, app.token("dan-ga"), "{\"area\":\"FLOOR\",\"quantity\":3}");

        assertError(soldOut, 409, "SOLD_OUT");
        assertEquals(2, json(soldOut).get("left").asInt());
        assertEquals(8, takenInReferee(showId, "FLOOR"));
    }

    @Test
    void aSoldOutArea_isRefusedBeforeTheAccountLimit_andAReleaseIsHeldByTheNextRequestAtOnce() {
        String showId = newShow(",\"maxPerAccount\":4");
        newArea(showId, 6, 3);
        String ann = app.token("ann-ga-out");
        String bob = app.token("bob-ga-out");
        String annHold = json(hold(showId, ann, "{\"area\":\"FLOOR\",\"quantity\":4}")).get("holdId").asText();
        assertEquals(201, hold(showId, bob, "{\"area\":\"FLOOR\",\"quantity\":2}").status());
        assertError(hold(showId, app.token("cat-ga-out"), "{\"area\":\"FLOOR\",\"quantity\":1}"), 409, "SOLD_OUT");

        // ann is at her limit too: the area's answer comes first, from its mark, before her allowance is asked
        TestApp.Http.Reply again = hold(showId, ann, "{\"area\":\"FLOOR\",\"quantity\":1}");
        assertError(again, 409, "SOLD_OUT");
        assertEquals(0, json(again).get("left").asInt());
        assertEquals(204, http.delete("/v1/holds/" + annHold, ann).status());

        TestApp.Http.Reply next = hold(showId, app.token("dan-ga-out"), "{\"area\":\"FLOOR\",\"quantity\":4}");

        assertEquals(201, next.status(), next.body());
        assertEquals(6, takenInReferee(showId, "FLOOR"));
    }

    @Test
    void theInvariantCheck_catchesAStripeCountingAdmissionsNoHoldBacks() throws Exception {
        String showId = newShow("");
        newArea(showId, 10, 2);
        assertEquals(201, hold(showId, app.token("hal-ga"), "{\"area\":\"FLOOR\",\"quantity\":2}").status());
        assertEquals(0L, app.app.invariants().checkNow().get("admissions_unbacked"));
        try (Connection c = app.dataSource.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE admission_stripes SET taken = taken + 1, version = version + 1 WHERE show_id = '"
                    + showId + "' AND area = 'FLOOR' AND stripe = 0");
        }

        assertEquals(1L, app.app.invariants().checkNow().get("admissions_unbacked"));
        try (Connection c = app.dataSource.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE admission_stripes SET taken = taken - 1, version = version + 1 WHERE show_id = '"
                    + showId + "' AND area = 'FLOOR' AND stripe = 0");
        }
        assertEquals(0L, app.app.invariants().checkNow().get("admissions_unbacked"));
    }

    @Test
    void aCapacityChangeDuringASale_isRefusedBelowWhatIsHeld_andAShrunkAreaSellsNoMore() {
        String showId = newShow("");
        newArea(showId, 10, 3);
        assertEquals(201, hold(showId, app.token("ida-ga"), "{\"area\":\"FLOOR\",\"quantity\":4}").status());
        String path = "/v1/admin/shows/" + showId + "/areas/FLOOR/capacity";

        TestApp.Http.Reply below = http.put(path, admin, "{\"capacity\":3}");
        TestApp.Http.Reply shrunk = http.put(path, admin, "{\"capacity\":5}");

        assertError(below, 409, "CAPACITY_BELOW_TAKEN");
        assertEquals(4, json(below).get("taken").asInt());
        assertEquals(200, shrunk.status(), shrunk.body());
        assertEquals(4, json(shrunk).get("taken").asInt());
        TestApp.Http.Reply two = hold(showId, app.token("jon-ga"), "{\"area\":\"FLOOR\",\"quantity\":2}");
        assertError(two, 409, "SOLD_OUT");
        assertEquals(1, json(two).get("left").asInt());
        assertEquals(201, hold(showId, app.token("jon-ga"), "{\"area\":\"FLOOR\",\"quantity\":1}").status());
        assertEquals(5, takenInReferee(showId, "FLOOR"));
    }

    @Test
    void aRetryWithTheSameIdempotencyKey_getsTheSameHold_andTakesOnce() {
        String showId = newShow("");
        newArea(showId, 10, 2);
        String eve = app.token("eve-ga");

        TestApp.Http.Reply first = hold(showId, eve, "{\"area\":\"FLOOR\",\"quantity\":3}", "Idempotency-Key", "ga-key-1");
        TestApp.Http.Reply again = hold(showId, eve, "{\"area\":\"FLOOR\",\"quantity\":3}", "Idempotency-Key", "ga-key-1");

        assertEquals(201, first.status(), first.body());
        assertEquals(json(first).get("holdId"), json(again).get("holdId"));
        assertEquals(3, takenInReferee(showId, "FLOOR"));
    }

    @Test
    void fortyBuyersRacingForTheLastTen_getExactlyTen_andTheRestHearSoldOut() throws Exception {
        String showId = newShow("");
        newArea(showId, 10, 4);
        java.util.concurrent.CyclicBarrier go = new java.util.concurrent.CyclicBarrier(40);
        java.util.List<java.util.concurrent.Callable<TestApp.Http.Reply>> buyers = new java.util.ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String token = app.token("racer-" + i);
            buyers.add(() -> {
                go.await();
                return hold(showId, token, "{\"area\":\"FLOOR\",\"quantity\":1}");
            });
        }

        java.util.List<TestApp.Http.Reply> replies = new java.util.ArrayList<>();
        try (java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(40)) {
            for (java.util.concurrent.Future<TestApp.Http.Reply> f : pool.invokeAll(buyers)) {
                replies.add(f.get());
            }
        }

        assertEquals(10, replies.stream().filter(r -> r.status() == 201).count(), replies.toString());
        assertEquals(30, replies.stream().filter(r -> r.status() == 409 && r.body().contains("SOLD_OUT")).count(),
                replies.toString());
        assertEquals(10, takenInReferee(showId, "FLOOR"));
    }

    @Test
    void sixtyParallelHoldsByOneAccount_endWithExactlyItsLimitHeld() throws Exception {
        String showId = newShow(",\"maxPerAccount\":6");
        newArea(showId, 500, 8);
        String greedy = app.token("greedy-ga");
        java.util.concurrent.CyclicBarrier go = new java.util.concurrent.CyclicBarrier(60);
        java.util.List<java.util.concurrent.Callable<TestApp.Http.Reply>> tries = new java.util.ArrayList<>();
        for (int i = 0; i < 60; i++) {
            int quantity = 1 + i % 2;
            tries.add(() -> {
                go.await();
                return hold(showId, greedy, "{\"area\":\"FLOOR\",\"quantity\":" + quantity + "}");
            });
        }

        int held = 0;
        try (java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(60)) {
            for (java.util.concurrent.Future<TestApp.Http.Reply> f : pool.invokeAll(tries)) {
                TestApp.Http.Reply r = f.get();
                if (r.status() == 201) {
                    held += json(r).get("quantity").asInt();
                } else {
                    assertError(r, 422, "ACCOUNT_LIMIT");
                }
            }
        }

        assertEquals(6, held);
        assertEquals(6, takenInReferee(showId, "FLOOR"));
    }

    @Test
    void aLapsedHoldByCount_givesItsAdmissionsBack_lazilyAndThroughTheSweeper() throws Exception {
        String showId = newShow(",\"holdSeconds\":1,\"graceSeconds\":0");
        newArea(showId, 5, 2);
        String fay = app.token("fay-ga");
        String holdId = json(hold(showId, fay, "{\"area\":\"FLOOR\",\"quantity\":5}")).get("holdId").asText();
        assertEquals(5, takenInReferee(showId, "FLOOR"));

        Thread.sleep(1_200);

        assertEquals("EXPIRED", json(http.get("/v1/holds/" + holdId, fay)).get("status").asText());
        assertEquals(0, eventually(() -> takenInReferee(showId, "FLOOR"), 0), "the sweeper ended the lapsed hold");
        assertEquals(5, eventually(() -> area(showId, "FLOOR").get("left").asInt(), 5));
        assertEquals(201, hold(showId, app.token("gus-ga"), "{\"area\":\"FLOOR\",\"quantity\":5}").status());
    }
}
