package org.boxoffice.app;

import io.helidon.config.Config;
import io.helidon.webserver.WebServerConfig;
import org.junit.jupiter.api.Test;

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

    @Test
    void aConnectionThatSendsNothing_orHalfARequestLine_orNothingAfterItsRequest_isClosed() throws Exception {
        Config config = Config.builder()
                .addSource(io.helidon.config.ConfigSources.create(java.util.Map.of(
                        "server.port", "0", "server.idle-connection-timeout", "PT1S", "server.idle-connection-period", "PT1S")))
                .addSource(io.helidon.config.ConfigSources.classpath("application.yaml"))
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .build();
        io.helidon.webserver.WebServer server = Main.serverBuilder(config.get("server"))
                .routing(r -> r.get("/", (req, res) -> res.send("ok")))
                .build()
                .start();
        try {
            for (String sent : new String[] {"", "GET / HT", "GET / HTTP/1.1\r\nHost: x\r\n\r\n"}) {
                long start = System.nanoTime();
                String answer = untilClosed(server.port(), sent);
                long seconds = (System.nanoTime() - start) / 1_000_000_000L;
                assertTrue(seconds < 8, "'" + sent + "' kept the connection for " + seconds + " s");
                assertTrue(sent.isEmpty() || sent.length() < 10 || answer.startsWith("HTTP/1.1 200"), answer);
            }
        } finally {
            server.stop();
        }
    }

    /** Sends {@code request} and reads until the server closes the connection (at most 20 s). */
    private static String untilClosed(int port, String request) throws Exception {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            s.setSoTimeout(20_000);
            s.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            java.io.ByteArrayOutputStream answer = new java.io.ByteArrayOutputStream();
            try {
                for (int b; (b = s.getInputStream().read()) >= 0; ) {
                    answer.write(b);
                }
            } catch (java.net.SocketException e) {
                // reset: closed as well
            }
            return answer.toString(java.nio.charset.StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void listener_bindsToLoopback_soTheDemoIsNotOpenToTheNetwork() {
        WebServerConfig server = Main.serverBuilder(Config.create().get("server")).buildPrototype();
        assertEquals("127.0.0.1", server.host(), "expose it with SERVER_HOST=0.0.0.0 (and leave demo mode)");
    }
}
