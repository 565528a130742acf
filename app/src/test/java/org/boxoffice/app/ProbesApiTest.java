package org.boxoffice.app;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.junit.jupiter.api.Test;

import java.net.URI;

import static org.boxoffice.app.TestApp.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The probes through the real wiring, with PostgreSQL taken away: readiness notices at its next
 * check (once a second), liveness never asks the database and stays up, so a member whose
 * database is slow or gone is taken out of rotation rather than restarted.
 */
@ServerTest
class ProbesApiTest {

    private static TestApp app;
    private final TestApp.Http http;

    ProbesApiTest(URI uri) {
        this.http = TestApp.Http.on(uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server);
    }

    @Test
    void withoutTheDatabase_readinessGoesDown_andLivenessStaysUp() throws InterruptedException {
        assertEquals(200, http.get("/observe/health/ready", null).status());
        app.dataSource.close();

        long deadline = System.currentTimeMillis() + 15_000;
        TestApp.Http.Reply ready = http.get("/observe/health/ready", null);
        while (ready.status() == 200 && System.currentTimeMillis() < deadline) {
            assertEquals(200, http.get("/observe/health/live", null).status());
            Thread.sleep(100);
            ready = http.get("/observe/health/ready", null);
        }
        assertEquals(503, ready.status(), ready.body());
        assertEquals("DOWN", json(ready).get("status").asText());
        assertTrue(ready.body().contains("\"database\":false"), ready.body());
        TestApp.Http.Reply live = http.get("/observe/health/live", null);
        assertEquals(200, live.status(), "liveness does not depend on the database");
        assertEquals("UP", json(live).get("status").asText());
    }
}
