package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;
import java.util.function.Predicate;

import static org.boxoffice.app.TestApp.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two real members on one database, each with its own web server and its own cache of encoded
 * catalog answers: a show created through one member's admin API is answered by both, well before
 * a cached answer's maximum age, because the catalog's change events reach every member.
 */
class CatalogAcrossMembersTest {

    /** Well under {@link org.boxoffice.app.catalog.CatalogAnswers}' 30 s maximum age: only the change events can make it. */
    private static final long DEADLINE_MILLIS = 10_000;

    private static TestApp a;
    private static TestApp b;
    private static WebServer serverA;
    private static WebServer serverB;
    private static TestApp.Http httpA;
    private static TestApp.Http httpB;

    @BeforeAll
    static void start() {
        a = TestApp.start();
        b = TestApp.joining(a);
        serverA = WebServer.builder().port(0).host("127.0.0.1").routing(a.app::routing).build().start();
        serverB = WebServer.builder().port(0).host("127.0.0.1").routing(b.app::routing).build().start();
        httpA = TestApp.Http.on(URI.create("http://127.0.0.1:" + serverA.port()));
        httpB = TestApp.Http.on(URI.create("http://127.0.0.1:" + serverB.port()));
    }

    @AfterAll
    static void stop() {
        serverB.stop();
        serverA.stop();
        b.close();
        a.close();
    }

    @Test
    void aShowCreatedOnOneMember_isAnsweredByBoth_inSearchTheEventAndItsOwnPage() {
        assertEquals(2, a.app.hazelcast().getCluster().getMembers().size(), "one cluster of two");
        String search = "/v1/events?q=echoes";
        String event = "/v1/events/midnight-echoes";
        // both members encode and keep the current answers
        List<String> before = List.of(etag(httpA, search), etag(httpB, search), etag(httpA, event), etag(httpB, event));
        assertEquals(before.get(0), before.get(1), "members encode the same catalog to the same bytes");
        assertEquals(before.get(2), before.get(3));

        String admin = a.token("boss", "admin");
        TestApp.Http.Reply created = httpA.post("/v1/admin/shows", admin, """
                {"showId":"echoes-encore","eventId":"midnight-echoes","startsAt":"2027-06-01T20:00:00Z",
                 "sections":[{"name":"A","price":"99.00","rows":2,"seatsPerRow":5}]}""");
        assertEquals(201, created.status(), created.body());
        // it went on sale warm: its blocks were loaded into the grid before the 201
        com.hazelcast.map.IMap<org.boxoffice.grid.BlockKey, ?> blocks = b.app.hazelcast().getMap(org.boxoffice.grid.GridMaps.INVENTORY);
        int blockCount = json(created).get("blocks").asInt();
        assertTrue(blockCount > 0, created.body());
        assertEquals(blockCount, blocks.keySet().stream().filter(k -> k.showId().equals("echoes-encore")).count(),
                "the new show's blocks are in the grid");

        Predicate<JsonNode> listsIt = doc -> doc.findValuesAsText("showId").contains("echoes-encore");
        for (TestApp.Http http : List.of(httpA, httpB)) {
            JsonNode found = await(http, search, doc -> listsIt.test(doc.get("events").get(0)));
            assertTrue(listsIt.test(found), "search on every member lists the new show");
            await(http, event, listsIt);
            TestApp.Http.Reply page = http.get("/v1/shows/echoes-encore", null);
            assertEquals(200, page.status(), page.body());
            assertEquals(10, json(page).get("layout").get("seatCount").asInt());
            assertEquals(200, http.get(event, null, "If-None-Match", before.get(2)).status(), "the old ETag is stale");
        }
        assertNotEquals(before.get(2), etag(httpB, event));
        assertEquals(etag(httpA, event), etag(httpB, event));
    }

    private static String etag(TestApp.Http http, String path) {
        // right after the second member joined, the cluster may still be settling: a 503 says "again"
        long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
        TestApp.Http.Reply r = http.get(path, null);
        while (r.status() == 503 && System.currentTimeMillis() < deadline) {
            sleep();
            r = http.get(path, null);
        }
        assertEquals(200, r.status(), r.body());
        return r.headers().firstValue("ETag").orElseThrow();
    }

    /** The answer once it satisfies {@code until}, asked again until the deadline; the last answer otherwise. */
    private static JsonNode await(TestApp.Http http, String path, Predicate<JsonNode> until) {
        long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
        JsonNode doc = json(http.get(path, null));
        while (!until.test(doc) && System.currentTimeMillis() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            doc = json(http.get(path, null));
        }
        assertTrue(until.test(doc), path + " on " + http.base() + ": " + doc);
        return doc;
    }

    private static void sleep() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
