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
    void listener_bindsToLoopback_soTheDemoIsNotOpenToTheNetwork() {
        WebServerConfig server = Main.serverBuilder(Config.create().get("server")).buildPrototype();
        assertEquals("127.0.0.1", server.host(), "expose it with SERVER_HOST=0.0.0.0 (and leave demo mode)");
    }
}
