package org.boxoffice.app;

import org.junit.jupiter.api.Test;

import java.net.http.HttpHeaders;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The check every HTTP test's answers go through ({@link OpenApiAnswers}), shown to catch what it should. */
class OpenApiAnswersTest {

    private static TestApp.Http.Reply json(int status, String body) {
        return new TestApp.Http.Reply(status, body, HttpHeaders.of(Map.of("Content-Type", List.of("application/json")),
                (a, b) -> true));
    }

    @Test
    void aDocumentedAnswer_passes() {
        OpenApiAnswers.verify("GET", "/v1/holds/H1", json(404, "{\"error\":\"NOT_FOUND\",\"message\":\"hold H1\"}"));
        OpenApiAnswers.verify("GET", "/observe/metrics", json(200, "not JSON: no operation, not checked"));
    }

    @Test
    void aStatusTheOperationDoesNotDocument_fails() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> OpenApiAnswers.verify("GET", "/v1/holds/H1", json(418, "{\"error\":\"TEAPOT\",\"message\":\"\"}")));
        assertTrue(e.getMessage().contains("GET /v1/holds/H1 -> 418: status not documented"), e.getMessage());
    }

    @Test
    void aBodyThatDoesNotFitTheSchema_fails() {
        assertEquals(List.of("GET /v1/holds/H1 -> 404 $: required field 'message' missing"),
                OpenApiAnswers.problems("GET", "/v1/holds/H1", json(404, "{\"error\":\"NOT_FOUND\"}")));
        List<String> problems = OpenApiAnswers.problems("GET", "/v1/admin/shows/s1/queue",
                json(200, "{\"showId\":\"s1\",\"mode\":\"SOMETIMES\",\"length\":\"many\"}"));
        assertTrue(problems.contains("GET /v1/admin/shows/s1/queue -> 200 $.mode: 'SOMETIMES' not in [ON, OFF, AUTO]"),
                problems.toString());
        assertTrue(problems.contains("GET /v1/admin/shows/s1/queue -> 200 $.length: STRING, documented integer"),
                problems.toString());
    }

    @Test
    void aJsonAnswerSentAsAnotherType_fails() {
        TestApp.Http.Reply text = new TestApp.Http.Reply(404, "{}", HttpHeaders.of(Map.of("Content-Type",
                List.of("text/plain")), (a, b) -> true));
        assertEquals(List.of("GET /v1/holds/H1 -> 404: Content-Type 'text/plain', documented application/json"),
                OpenApiAnswers.problems("GET", "/v1/holds/H1", text));
    }
}
