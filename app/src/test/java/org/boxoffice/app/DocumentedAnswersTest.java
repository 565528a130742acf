package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The answers of a buyer's and an admin's journey, checked against the OpenAPI document: each
 * request is a documented operation, each status one it documents, and each JSON body fits the
 * documented schema ({@link OpenApiAnswers}; every other HTTP test gets the same check of its
 * answers from {@link TestApp.Http}, but only for the operations the document has).
 */
@ServerTest
class DocumentedAnswersTest {

    private static final String SHOW = "mahler-5-1";
    private static TestApp app;
    private final TestApp.Http http;
    private final List<String> problems = new ArrayList<>();

    DocumentedAnswersTest(URI uri) {
        this.http = TestApp.Http.on(uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server);
        server.addFeature(app.app.observe());
    }

    @Test
    void aBuyersJourney_getsOnlyDocumentedStatusesAndBodies() {
        JsonNode events = check("GET", "/v1/events", http.get("/v1/events", null)).json();
        String eventId = events.get("events").get(0).get("eventId").asText();
        check("GET", "/v1/events/" + eventId, http.get("/v1/events/" + eventId, null));
        check("GET", "/v1/shows/" + SHOW, http.get("/v1/shows/" + SHOW, null));
        check("GET", "/v1/shows/" + SHOW + "/availability", http.get("/v1/shows/" + SHOW + "/availability", null));
        check("GET", "/v1/shows/" + SHOW + "/seats", http.get("/v1/shows/" + SHOW + "/seats", null));
        check("GET", "/v1/shows/no-such-show", http.get("/v1/shows/no-such-show", null));

        String ann = app.token("doc-ann");
        String holds = "/v1/shows/" + SHOW + "/holds";
        String body = "{\"seatIds\":[\"STALLS-30-1\",\"STALLS-30-2\"]}";
        check("POST", holds, http.post(holds, null, body));
        check("POST", holds, http.post(holds, "not-a-jwt", body));
        TestApp.Http.Reply held = check("POST", holds, http.post(holds, ann, body));
        String holdId = held.json().get("holdId").asText();
        check("POST", holds, http.post(holds, app.token("doc-bob"), body));
        check("POST", holds, http.post(holds, ann, "{\"seatIds\":[\"NOPE-1-1\"]}"));
        check("POST", holds, http.post(holds, ann, "{\"seatIds\":"));
        check("GET", "/v1/holds/" + holdId, http.get("/v1/holds/" + holdId, ann));
        check("GET", "/v1/holds/" + holdId, http.get("/v1/holds/" + holdId, app.token("doc-eve")));
        check("DELETE", "/v1/holds/" + holdId, http.delete("/v1/holds/" + holdId, ann));
        check("GET", "/v1/accounts/me/bookings", http.get("/v1/accounts/me/bookings", ann));
        check("GET", "/v1/accounts/me/offers", http.get("/v1/accounts/me/offers", ann));
        check("GET", "/v1/shows/" + SHOW + "/waitlist/me", http.get("/v1/shows/" + SHOW + "/waitlist/me", ann));

        String cy = app.token("doc-cy");
        TestApp.Http.Reply again = check("POST", holds, http.post(holds, cy, "{\"seatIds\":[\"STALLS-30-5\"]}"));
        assertEquals(201, again.status(), again.body());
        String toPay = again.json().get("holdId").asText();
        String checkout = "/v1/holds/" + toPay + "/checkout";
        TestApp.Http.Reply paid = check("POST", checkout, http.post(checkout, cy, "{\"paymentMethod\":\"card_ok\"}",
                "Idempotency-Key", "doc-pay-1"));
        assertEquals(200, paid.status(), paid.body());
        String booking = "/v1/bookings/" + paid.json().get("bookingId").asText();
        check("GET", booking, http.get(booking, cy));

        String admin = app.token("doc-ops", "admin");
        TestApp.Http.Reply created = check("POST", "/v1/admin/shows", http.post("/v1/admin/shows", admin,
                "{\"eventId\":\"" + eventId + "\",\"startsAt\":\"2099-06-01T19:00:00Z\",\"holdSeconds\":300,"
                        + "\"sections\":[{\"name\":\"A\",\"price\":\"59.00\",\"rows\":2,\"seatsPerRow\":4}]}"));
        assertEquals(201, created.status(), created.body());
        String block = "/v1/admin/shows/" + created.json().get("showId").asText() + "/seats/block";
        check("POST", block, http.post(block, admin, "{\"seatIds\":[\"A-1-1\"],\"reason\":\"camera\"}"));
        check("POST", "/v1/admin/shows", http.post("/v1/admin/shows", ann, "{}"));

        assertEquals(List.of(), problems);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aFanAtTheDoor_getsOnlyDocumentedStatusesAndBodies() {
        String admin = app.token("doc-door-ops", "admin");
        String room = "/v1/admin/shows/fado-1/queue";
        check("PUT", room, http.put(room, admin, "{\"mode\":\"ON\",\"challengeDifficulty\":2}"));
        check("GET", room, http.get(room, admin));
        String fan = app.token("doc-door-fan");
        String queue = "/v1/shows/fado-1/queue";
        check("GET", "/v1/shows/fado-1/queue/summary", http.get("/v1/shows/fado-1/queue/summary", null));
        check("POST", queue, http.post(queue, fan, null));
        TestApp.Http.Reply challenge = check("GET", "/v1/challenge", http.get("/v1/challenge?showId=fado-1", fan));
        java.util.Map<String, Object> parameters = org.boxoffice.app.http.Json.MAPPER.convertValue(
                challenge.json().get("parameters"), java.util.Map.class);
        String payload = java.util.Base64.getEncoder().encodeToString(org.boxoffice.app.http.Json.write(java.util.Map.of(
                "challenge", challenge.json(), "solution", org.boxoffice.app.admission.Challenges.solve(parameters, 100)))
                .getBytes(StandardCharsets.UTF_8));
        assertEquals(200, check("POST", queue, http.post(queue, fan, null, "Challenge-Solution", payload)).status());
        check("POST", queue, http.post(queue, fan, null, "Challenge-Solution", payload));
        check("GET", "/v1/challenge", http.get("/v1/challenge?showId=comedy-2", fan));
        check("GET", "/v1/challenge", http.get("/v1/challenge", fan));
        check("PUT", room, http.put(room, admin, "{\"mode\":\"OFF\"}"));
        assertEquals(List.of(), problems);
    }

    /** Checks one answer against the operation {@code method path} documents (which must exist); returns it. */
    private TestApp.Http.Reply check(String method, String path, TestApp.Http.Reply r) {
        problems.addAll(OpenApiAnswers.problems(method, path, r));
        return r;
    }
}
