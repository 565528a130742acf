package org.boxoffice.app.web;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.TestApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A seat-map stream whose client went away without a word, on a show where nothing changes, gives
 * its slot back within two keep-alives (docs/web.md): the first comment line
 * after the client left still goes out and draws the peer's reset, the second write fails and the
 * stream ends. With the production keep-alive of 15 s that is about 30 s; here the keep-alive is
 * 200 ms.
 */
@ServerTest
class VanishedStreamTest {

    private static final Duration KEEP_ALIVE = Duration.ofMillis(200);
    private static TestApp app;
    private static ShowEvents events;
    private static ShowEventsService streams;
    private final URI base;

    VanishedStreamTest(URI uri) {
        this.base = uri;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.start();
        events = new ShowEvents(app.app.snapshots(), Duration.ofMillis(100));
        streams = new ShowEventsService(app.app.directory(), events, 10, KEEP_ALIVE, app.app.authenticator(),
                new org.boxoffice.app.admission.PassTokens(org.boxoffice.app.admission.AdmissionSettings.DEMO_ROOM_SECRET,
                        System::currentTimeMillis), (account, show, hold) -> false);
        server.routing(r -> r.register("/v1", streams));
    }

    @AfterAll
    static void stop() {
        events.close();
        app.close();
    }

    @Test
    void aClientThatVanishes_givesItsSlotBack_withinTwoKeepAlives() throws Exception {
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET /v1/shows/comedy-1/events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            assertTrue(in.readLine().startsWith("HTTP/1.1 200"));
            for (String line = in.readLine(); line != null && !line.startsWith("data:"); line = in.readLine()) {
                // headers, then the first event's id and name: the whole map follows
            }
            assertEquals(1, streams.openStreams());
        }
        long closed = System.nanoTime();
        while (streams.openStreams() > 0 && System.nanoTime() - closed < Duration.ofSeconds(10).toNanos()) {
            Thread.sleep(20);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - closed);
        assertEquals(0, streams.openStreams(), "the slot is still taken after " + took);
        // two keep-alives, plus the time to write, fail and unwind (generous on a busy machine)
        assertTrue(took.compareTo(KEEP_ALIVE.multipliedBy(2).plusSeconds(2)) < 0, "took " + took);
    }
}
