package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.admission.PassTokens;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.boxoffice.app.TestApp.assertError;
import static org.boxoffice.app.TestApp.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Rush mode through the real routing: join, long-poll status, passes on holds, rate limits. */
@ServerTest
class QueueApiTest {

    private static final String ROOM_SECRET = "queue-test-room-secret-0123456789-abcdef";
    private static TestApp app;
    private final TestApp.Http http;

    QueueApiTest(URI uri) {
        this.http = TestApp.Http.on(uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server, s -> s.withAdmission(s.admission().withPassSecret(ROOM_SECRET)
                .withRoom(50, 2, Duration.ofMillis(100)).withHoldLimits(6, 0).withStreamsPerMember(0)));
    }



    private void rush(String show, String body) {
        TestApp.Http.Reply r = http.put("/v1/admin/shows/" + show + "/queue", app.token("ops", "admin"), body);
        assertEquals(200, r.status(), r.body());
    }

    private String admittedPass(String show, String account) {
        String token = app.token(account);
        JsonNode place = json(http.post("/v1/shows/" + show + "/queue", token, null));
        JsonNode status = json(http.get("/v1/shows/" + show + "/queue/status?wait=10", token,
                "Queue-Token", place.get("queueToken").asText()));
        assertTrue(status.get("admitted").asBoolean(), status.toString());
        return status.get("pass").asText();
    }

    @Test
    void withoutARush_theQueueIsNotInvolved() {
        assertError(http.post("/v1/shows/comedy-2/queue", app.token("walk-in"), null), 409, "QUEUE_NOT_ACTIVE");
        assertEquals(201, http.post("/v1/shows/comedy-2/holds", app.token("walk-in"), "{\"seatIds\":[\"STALLS-1-1\"]}").status());
        assertEquals(false, json(http.get("/v1/shows/comedy-2/queue/summary", null)).get("active").asBoolean());
    }

    @Test
    void inARush_aFanJoins_waits_isAdmitted_andHoldsWithThePass() {
        rush("fado-1", "{\"mode\":\"ON\",\"admissionRate\":20}");
        String ann = app.token("ann");

        assertError(http.post("/v1/shows/fado-1/holds", ann, "{\"seatIds\":[\"PLATEIA-1-1\"]}"), 403, "PASS_REQUIRED");
        TestApp.Http.Reply joined = http.post("/v1/shows/fado-1/queue", ann, null);
        assertEquals(200, joined.status(), joined.body());
        JsonNode place = json(joined);
        long position = place.get("position").asLong();
        assertTrue(position >= 1);
        assertEquals(position, json(http.post("/v1/shows/fado-1/queue", ann, null)).get("position").asLong(), "one place per account");

        TestApp.Http.Reply status = http.get("/v1/shows/fado-1/queue/status?wait=10", ann, "Queue-Token", place.get("queueToken").asText());
        assertEquals(200, status.status(), status.body());
        assertEquals("private, no-store", status.headers().firstValue("Cache-Control").orElse(""));
        JsonNode s = json(status);
        assertTrue(s.get("admitted").asBoolean(), s.toString());
        String pass = s.get("pass").asText();

        TestApp.Http.Reply held = http.post("/v1/shows/fado-1/holds", ann, "{\"seatIds\":[\"PLATEIA-1-1\"]}", "Queue-Pass", pass);
        assertEquals(201, held.status(), held.body());

        JsonNode admin = json(http.get("/v1/admin/shows/fado-1/queue", app.token("ops", "admin")));
        assertTrue(admin.get("length").asLong() >= 1);
        assertTrue(admin.get("admitted").asLong() >= position);
        assertTrue(admin.get("passes").asLong() >= 1);
        assertEquals(20.0, admin.get("admissionRate").asDouble());
        assertEquals(403, http.get("/v1/admin/shows/fado-1/queue", ann).status());
        assertTrue(http.get("/v1/shows/fado-1/queue/summary", null).headers().firstValue("Cache-Control").orElse("").startsWith("public"));
        assertEquals("private, no-store", http.get("/v1/shows/fado-1/queue/summary", app.token("summary-fan")).headers()
                .firstValue("Cache-Control").orElse(""), "asked with a token: no shared cache keeps it");
    }

    @Test
    void passes_areBoundToAccountAndShow_andExpire() {
        rush("jazz-1", "{\"mode\":\"ON\"}");
        rush("mahler-5-1", "{\"mode\":\"ON\"}");
        String bea = app.token("bea");
        String beaPass = admittedPass("mahler-5-1", "bea");
        String carlPass = admittedPass("mahler-5-1", "carl");
        String hold = "{\"seatIds\":[\"STALLS-3-3\"]}";

        assertError(http.post("/v1/shows/mahler-5-1/holds", bea, hold, "Queue-Pass", carlPass), 403, "PASS_INVALID");
        String forged = beaPass.substring(0, beaPass.length() - 4) + "AAAA";
        assertError(http.post("/v1/shows/mahler-5-1/holds", bea, hold, "Queue-Pass", forged), 403, "PASS_INVALID");
        String otherSecret = new PassTokens("another-secret-entirely-0123456789-xyz", System::currentTimeMillis)
                .pass("bea", "mahler-5-1", 1, System.currentTimeMillis(), 60_000);
        assertError(http.post("/v1/shows/mahler-5-1/holds", bea, hold, "Queue-Pass", otherSecret), 403, "PASS_INVALID");
        String expired = new PassTokens(ROOM_SECRET, System::currentTimeMillis)
                .pass("bea", "mahler-5-1", 1, System.currentTimeMillis() - 3_600_000, 60_000);
        assertError(http.post("/v1/shows/mahler-5-1/holds", bea, hold, "Queue-Pass", expired), 403, "PASS_REQUIRED");
        String otherShow = new PassTokens(ROOM_SECRET, System::currentTimeMillis)
                .pass("bea", "jazz-1", 1, System.currentTimeMillis(), 60_000);
        assertError(http.post("/v1/shows/mahler-5-1/holds", bea, hold, "Queue-Pass", otherShow), 403, "PASS_INVALID");
        assertEquals(201, http.post("/v1/shows/mahler-5-1/holds", bea, hold, "Queue-Pass", beaPass).status());
    }

    @Test
    void oneAdmission_isOnePass_howeverOftenTheBuyerPolls() throws Exception {
        rush("comedy-1", "{\"mode\":\"ON\",\"admissionRate\":50}");
        List<String> buyers = List.of("polly-1", "polly-2", "polly-3");
        for (String buyer : buyers) {
            String token = app.token(buyer);
            String queueToken = json(http.post("/v1/shows/comedy-1/queue", token, null)).get("queueToken").asText();
            Set<String> passes = java.util.concurrent.ConcurrentHashMap.newKeySet();
            Set<String> expiries = java.util.concurrent.ConcurrentHashMap.newKeySet();
            // a page polling from several tabs at once: still one pass
            try (java.util.concurrent.ExecutorService tabs = java.util.concurrent.Executors.newFixedThreadPool(4)) {
                List<java.util.concurrent.Future<JsonNode>> polls = new java.util.ArrayList<>();
                for (int poll = 0; poll < 8; poll++) {
                    polls.add(tabs.submit(() -> json(http.get("/v1/shows/comedy-1/queue/status?wait=10", token,
                            "Queue-Token", queueToken))));
                }
                for (java.util.concurrent.Future<JsonNode> poll : polls) {
                    JsonNode status = poll.get();
                    assertTrue(status.get("admitted").asBoolean(), status.toString());
                    passes.add(status.get("pass").asText());
                    expiries.add(status.get("passExpiresAt").asText());
                }
            }
            assertEquals(1, passes.size(), "a re-poll returns the same pass");
            assertEquals(1, expiries.size(), "and the same expiry: polling does not extend a pass");
        }
        JsonNode admin = json(http.get("/v1/admin/shows/comedy-1/queue", app.token("ops", "admin")));
        assertEquals(buyers.size(), admin.get("admitted").asLong(), admin.toString());
        assertEquals(admin.get("admitted").asLong(), admin.get("passes").asLong(),
                "outstanding passes are the admitted buyers, one each");
    }

    @Test
    void badQueueRequests_getClear4xx() {
        rush("jazz-2", "{\"mode\":\"ON\"}");
        String dee = app.token("dee");
        JsonNode place = json(http.post("/v1/shows/jazz-2/queue", dee, null));
        assertEquals(400, http.get("/v1/shows/jazz-2/queue/status", dee).status(), "no token");
        assertError(http.get("/v1/shows/jazz-2/queue/status?wait=99", dee, "Queue-Token", place.get("queueToken").asText()), 400, "BAD_REQUEST");
        assertError(http.get("/v1/shows/jazz-2/queue/status", app.token("eli"), "Queue-Token", place.get("queueToken").asText()),
                403, "QUEUE_TOKEN_INVALID");
        assertError(http.put("/v1/admin/shows/jazz-2/queue", app.token("ops", "admin"), "{\"mode\":\"MAYBE\"}"), 400, "BAD_REQUEST");
        assertError(http.put("/v1/admin/shows/jazz-2/queue", app.token("ops", "admin"), "{\"mode\":\"ON\",\"admissionRate\":-1}"),
                400, "BAD_REQUEST");
        assertError(http.post("/v1/shows/nope/queue", dee, null), 404, "NOT_FOUND");
        assertError(http.post("/v1/shows/jazz-2/queue", null, null), 401, "UNAUTHORIZED");
    }

    @Test
    void holdRequests_areRateLimitedPerAccount_with429AndRetryAfter() {
        String flo = app.token("flo");
        for (int i = 0; i < 6; i++) {
            int status = http.post("/v1/shows/comedy-1/holds", flo, "{\"seatIds\":[\"CIRCLE-9-" + (i + 1) + "\"]}").status();
            assertTrue(status == 201 || status == 422, "request " + i + " got " + status);
        }
        TestApp.Http.Reply limited = http.post("/v1/shows/comedy-1/holds", flo, "{\"seatIds\":[\"CIRCLE-9-20\"]}");
        assertError(limited, 429, "RATE_LIMITED");
        assertTrue(Long.parseLong(limited.headers().firstValue("Retry-After").orElseThrow()) >= 1);
        assertEquals(201, http.post("/v1/shows/comedy-1/holds", app.token("gus"), "{\"seatIds\":[\"CIRCLE-9-20\"]}").status(),
                "other accounts are not affected");
    }
}
