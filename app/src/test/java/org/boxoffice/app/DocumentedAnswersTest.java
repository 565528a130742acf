package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The answers of a buyer's journey, checked against the OpenAPI document: each status is one the
 * operation documents, and each JSON body fits the documented schema (types, required fields,
 * enums, no field a closed object does not name). What a generated client with validation on
 * would check.
 */
@ServerTest
class DocumentedAnswersTest {

    private static final String SHOW = "mahler-5-1";
    private static TestApp app;
    private final TestApp.Http http;
    private final List<String> problems = new ArrayList<>();
    private final OpenAPI api;

    DocumentedAnswersTest(URI uri) throws IOException {
        this.http = TestApp.Http.on(uri);
        try (InputStream in = getClass().getResourceAsStream("/openapi.yaml")) {
            ParseOptions options = new ParseOptions();
            options.setResolve(true);
            options.setResolveFully(true);
            this.api = new OpenAPIV3Parser().readContents(new String(in.readAllBytes(), StandardCharsets.UTF_8), null,
                    options).getOpenAPI();
        }
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.start();
        server.routing(app.app::routing).addFeature(app.app.observe());
    }

    @AfterAll
    static void stop() {
        app.close();
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

    /** Checks one answer against the operation {@code method path} documents; returns it. */
    private TestApp.Http.Reply check(String method, String path, TestApp.Http.Reply r) {
        String what = method + " " + path + " -> " + r.status();
        Operation op = operation(method, path);
        if (op == null) {
            problems.add(what + ": no documented operation");
            return r;
        }
        ApiResponse response = op.getResponses().get(Integer.toString(r.status()));
        if (response == null) {
            problems.add(what + ": status not documented");
            return r;
        }
        MediaType json = response.getContent() == null ? null : response.getContent().get("application/json");
        if (json != null && json.getSchema() != null) {
            validate(r.json(), json.getSchema(), what + " $");
        }
        return r;
    }

    private Operation operation(String method, String path) {
        String[] parts = path.substring(1).split("/");
        for (Map.Entry<String, PathItem> e : api.getPaths().entrySet()) {
            String[] template = e.getKey().substring(1).split("/");
            if (template.length != parts.length) {
                continue;
            }
            boolean match = true;
            for (int i = 0; i < parts.length && match; i++) {
                match = template[i].startsWith("{") || template[i].equals(parts[i]);
            }
            if (match) {
                return e.getValue().readOperationsMap().get(PathItem.HttpMethod.valueOf(method));
            }
        }
        return null;
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private void validate(JsonNode node, Schema schema, String at) {
        if (node.isNull()) {
            if (!Boolean.TRUE.equals(schema.getNullable()) && schema.getType() != null) {
                problems.add(at + ": null, not nullable");
            }
            return;
        }
        String type = schema.getType();
        if (type == null) {
            return;     // no type stated: anything fits
        }
        boolean fits = switch (type) {
            case "object" -> node.isObject();
            case "array" -> node.isArray();
            case "string" -> node.isTextual();
            case "integer" -> node.isIntegralNumber();
            case "number" -> node.isNumber();
            case "boolean" -> node.isBoolean();
            default -> true;
        };
        if (!fits) {
            problems.add(at + ": " + node.getNodeType() + ", documented " + type);
            return;
        }
        if (schema.getEnum() != null && node.isTextual() && !schema.getEnum().contains(node.asText())) {
            problems.add(at + ": '" + node.asText() + "' not in " + schema.getEnum());
        }
        if (node.isArray() && schema.getItems() != null) {
            for (int i = 0; i < node.size(); i++) {
                validate(node.get(i), schema.getItems(), at + "[" + i + "]");
            }
        }
        if (node.isObject()) {
            Map<String, Schema> properties = schema.getProperties() == null ? Map.of() : schema.getProperties();
            List<String> required = schema.getRequired() == null ? List.of() : schema.getRequired();
            for (String name : required) {
                if (!node.has(name)) {
                    problems.add(at + ": required field '" + name + "' missing");
                }
            }
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                Schema property = properties.get(name);
                if (property != null) {
                    validate(node.get(name), property, at + "." + name);
                } else if (Boolean.FALSE.equals(schema.getAdditionalProperties())) {
                    problems.add(at + ": field '" + name + "' not documented");
                }
            }
        }
    }
}
