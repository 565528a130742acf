package org.boxoffice.app;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A member keeps at most {@code boxoffice.limits.streams} seat-map streams open (two here): the next
 * client is told to poll instead, and a slot comes back once a closed client's stream ends.
 */
@ServerTest
class StreamLimitTest {

    private static final String SHOW = "comedy-1";
    private static final String EVENTS = "/v1/shows/" + SHOW + "/events";
    private static TestApp app;
    private final URI base;
    private final TestApp.Http http;

    StreamLimitTest(URI uri) {
        this.base = uri;
        this.http = TestApp.Http.on(uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server, s -> s.withAdmission(s.admission().withHoldLimits(0, 0).withStreamsPerMember(2)));
    }

    @Test
    void beyondTheCap_aStreamIsRefusedWith503AndRetryAfter_andAClosedStreamFreesItsSlot() throws Exception {
        EventStream b;
        try (EventStream a = new EventStream(base, EVENTS)) {
            b = new EventStream(base, EVENTS);
            a.next(Duration.ofSeconds(5));
            b.next(Duration.ofSeconds(5));

            TestApp.Http.Reply full = http.get(EVENTS, null, "Accept", "text/event-stream");
            assertEquals(503, full.status(), full.body());
            TestApp.assertError(full, 503, "STREAMS_FULL");
            assertEquals("30", full.headers().firstValue("Retry-After").orElse(""));
            // the seat map itself is still served: that is what a refused client polls
            assertEquals(200, http.get("/v1/shows/" + SHOW + "/availability", null).status());
        }

        // the server notices a client went away when it next writes to it: seat changes do that
        String token = app.token("stream-limit");
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        boolean reopened = false;
        try (b) {
            while (!reopened && System.nanoTime() < deadline) {
                TestApp.Http.Reply hold = http.post("/v1/shows/" + SHOW + "/holds", token, "{\"seatIds\":[\"CIRCLE-2-1\"]}");
                assertEquals(201, hold.status(), hold.body());
                Thread.sleep(300);
                String holdId = hold.json().get("holdId").asText();
                assertEquals(204, http.delete("/v1/holds/" + holdId, token).status());
                try (EventStream c = new EventStream(base, EVENTS)) {
                    if (c.response.statusCode() == 200) {
                        c.next(Duration.ofSeconds(5));
                        reopened = true;
                    } else {
                        assertEquals(503, c.response.statusCode());
                        Thread.sleep(300);
                    }
                }
            }
        }
        assertTrue(reopened, "no stream could be opened again within 30 s of one being closed");
    }
}
