package org.boxoffice.app;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The listener the service starts with, as {@code Main} builds it from the shipped configuration. */
class ServerOptionsTest {

    @Test
    void listener_disablesNagle_soABodyNeverWaitsForTheClientsDelayedAck() {
        WebServerConfig server = Main.serverBuilder(Config.create().get("server")).buildPrototype();
        assertTrue(server.connectionOptions().tcpNoDelay(),
                "server.connection-options.tcp-no-delay must be on: headers and body are written apart");
    }

    @Test
    void listener_closesIdleConnections_withinAMinute() {
        WebServerConfig server = Main.serverBuilder(Config.create().get("server")).buildPrototype();
        java.time.Duration bound = server.idleConnectionTimeout().plus(server.idleConnectionPeriod());
        assertTrue(bound.compareTo(java.time.Duration.ofMinutes(1)) <= 0, "an idle connection lives up to " + bound);
    }

    /** A server as {@code Main} builds it, closing idle connections after 1 s, with three small routes. */
    private static WebServer quickServer() {
        Config config = Config.builder()
                .addSource(ConfigSources.create(Map.of(
                        "server.port", "0", "server.idle-connection-timeout", "PT1S", "server.idle-connection-period", "PT1S")))
                .addSource(ConfigSources.classpath("application.yaml"))
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .build();
        return Main.serverBuilder(config.get("server"))
                .routing(r -> r.get("/", (req, res) -> res.send("ok"))
                        .post("/echo", (req, res) -> res.send(req.content().as(String.class)))
                        .get("/slow", (req, res) -> {
                            Thread.sleep(3_000);
                            res.send("late");
                        }))
                .build()
                .start();
    }

    @Test
    void aConnectionThatStallsAnywhereInItsRequest_isClosedAfterTheIdleTimeout() throws Exception {
        WebServer server = quickServer();
        try {
            Map<String, String> stalls = new LinkedHashMap<>();
            stalls.put("nothing", "");
            stalls.put("half a request line", "GET / HT");
            stalls.put("headers without their end", "GET / HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n");
            stalls.put("a short body", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly this");
            stalls.put("a short chunk", "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n64\r\nonly this");
            stalls.put("nothing after its request", "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            for (Map.Entry<String, String> stall : stalls.entrySet()) {
                long start = System.nanoTime();
                String answer = untilClosed(server.port(), stall.getValue());
                long seconds = (System.nanoTime() - start) / 1_000_000_000L;
                assertTrue(seconds < 8, stall.getKey() + " kept the connection for " + seconds + " s");
                if (stall.getKey().equals("nothing after its request")) {
                    assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
                }
            }
        } finally {
            server.stop();
        }
    }

    @Test
    void aRequestBeingAnswered_isNeverIdle_howeverLongItTakes() throws Exception {
        WebServer server = quickServer();
        try {
            String answer = untilClosed(server.port(), "GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertTrue(answer.startsWith("HTTP/1.1 200") && answer.endsWith("late"), answer);
            String echo = untilClosed(server.port(), "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                    + "Connection: close\r\n\r\nhello");
            assertTrue(echo.startsWith("HTTP/1.1 200") && echo.endsWith("hello"), echo);
        } finally {
            server.stop();
        }
    }

    @Test
    void aRequestWithConnectionClose_isTheConnectionsLast_whateverFollowsIt() throws Exception {
        WebServer server = quickServer();
        try {
            String next = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
            Map<String, String> lasts = new LinkedHashMap<>();
            lasts.put("a GET", "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            lasts.put("a body read", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello");
            lasts.put("a chunked body read", "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                    + "Connection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
            // nothing reads this body, and Helidon 4.5 does not read past it when the answer says close:
            // a connection kept open would take the body for the next request
            lasts.put("a body left unread", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: " + next.length()
                    + "\r\nConnection: close\r\n\r\n" + next);
            lasts.put("close among other options", "GET / HTTP/1.1\r\nHost: x\r\nConnection: TE, close\r\n\r\n");
            for (Map.Entry<String, String> last : lasts.entrySet()) {
                String answer = untilClosed(server.port(), last.getValue() + next);
                assertEquals(1, answer.split("HTTP/1\\.1 ", -1).length - 1, last.getKey() + ": " + answer);
                assertTrue(answer.toLowerCase(java.util.Locale.ROOT).contains("\r\nconnection: close\r\n"),
                        last.getKey() + ": " + answer);
            }
        } finally {
            server.stop();
        }
    }

    /** Sends {@code request} and reads until the server closes the connection (at most 20 s). */
    static String untilClosed(int port, String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(20_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            try {
                for (int b; (b = s.getInputStream().read()) >= 0; ) {
                    answer.write(b);
                }
            } catch (SocketException e) {
                // reset: closed as well
            }
            return answer.toString(StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void listener_bindsToLoopback_soTheDemoIsNotOpenToTheNetwork() {
        WebServerConfig server = Main.serverBuilder(Config.create().get("server")).buildPrototype();
        assertEquals("127.0.0.1", server.host(), "expose it with SERVER_HOST=0.0.0.0 (and leave demo mode)");
    }
}
