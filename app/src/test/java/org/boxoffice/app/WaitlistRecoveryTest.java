package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServer;
import org.boxoffice.app.waitlist.WaitlistSettings;
import org.boxoffice.domain.WaitlistEntry;
import org.boxoffice.grid.waitlist.Waitlists;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A member restarted on the same database: nobody in line is lost, and nothing is offered twice. */
class WaitlistRecoveryTest {

    private static final UnaryOperator<AppSettings> SLOW_PASS =
            s -> s.withWaitlist(new WaitlistSettings(Duration.ofMinutes(10), 0, Duration.ofHours(1)));

    private final List<AutoCloseable> running = new ArrayList<>();

    private record Node(TestApp app, WebServer server, WaitlistFixture w) {
    }

    private Node start(TestApp app) {
        WebServer server = WebServer.builder().port(0).host("127.0.0.1").routing(app.app::routing).build().start();
        running.add(server::stop);
        running.add(app);
        return new Node(app, server, new WaitlistFixture(app, URI.create("http://127.0.0.1:" + server.port())));
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : running) {
            c.close();
        }
    }

    @Test
    void aRestart_losesNobodyInLine_keepsOpenOffers_andOffersNothingTwice() throws Exception {
        Node first = start(TestApp.start(SLOW_PASS));
        WaitlistFixture w = first.w();
        w.createShow("wl-restart", 1, 6, null);
        String f1 = w.hold("f1", "wl-restart", "A-1-1", "A-1-2");
        String f2 = w.hold("f2", "wl-restart", "A-1-3", "A-1-4");
        w.hold("f3", "wl-restart", "A-1-5", "A-1-6");
        for (String fan : List.of("ana", "ben", "cai", "dee")) {
            w.joined(fan, "wl-restart", 2);
        }
        w.release("f1", f1);
        String anaHold = w.awaitStatus("ana", "wl-restart", "OFFERED").get("offer").get("holdId").asText();
        List<WaitlistEntry> lineBefore = new Waitlists(first.app().app.hazelcast()).line("wl-restart");
        // the member dies in the middle of offering to ben: the entry says OFFERING, no seats were held
        try (Connection c = first.app().dataSource.getConnection(); Statement s = c.createStatement()) {
            assertEquals(1, s.executeUpdate("update waitlist_entries set state = 'OFFERING', hold_id = 'WGHOST', "
                    + "updated_at = now() - interval '5 minutes' where account_id = 'ben' and show_id = 'wl-restart'"));
        }
        first.server().stop();
        first.app().app.close();

        Node second = start(TestApp.restartOn(first.app().db, SLOW_PASS));
        WaitlistFixture v = second.w();

        assertEquals(lineBefore, new Waitlists(second.app().app.hazelcast()).line("wl-restart"),
                "the queue reloads the line from PostgreSQL, in order");
        JsonNode ana = v.standing("ana", "wl-restart");
        assertEquals("OFFERED", ana.get("status").asText());
        assertEquals(anaHold, ana.get("offer").get("holdId").asText());
        assertEquals(anaHold, v.offersOf("ana").get(0).get("holdId").asText());
        assertEquals(0, v.offers().passOnce(), "nothing is free, and ana's open offer is not made again");
        assertEquals("WAITING", v.status("ben", "wl-restart"), "the offer its maker left is undone; ben keeps his place");
        assertEquals(1, v.standing("ben", "wl-restart").get("position").asLong());
        assertEquals(2, v.standing("cai", "wl-restart").get("position").asLong());
        assertEquals(3, v.standing("dee", "wl-restart").get("position").asLong());

        v.release("f2", f2);

        assertEquals(List.of("A-1-3", "A-1-4"), WaitlistFixture.seats(v.awaitStatus("ben", "wl-restart", "OFFERED")));
        assertEquals(0, v.offers().passOnce());
        assertEquals("OFFERED", v.status("ana", "wl-restart"));
        assertEquals(1, v.standing("cai", "wl-restart").get("position").asLong());
        assertEquals(2, v.standing("dee", "wl-restart").get("position").asLong());
        assertEquals(3, v.joined("eva", "wl-restart", 2), "a join after the restart queues behind everyone who waited");
        assertEquals(0, v.seatsOfferedTwice("wl-restart"));
        assertEquals(1, v.count("select count(*) from holds where show_id = 'wl-restart' and account_id = 'ana' "
                + "and hold_id like 'W%'"), "ana was offered once");
        assertTrue(v.count("select count(*) from waitlist_entries where show_id = 'wl-restart' and state in "
                + "('WAITING', 'OFFERING', 'OFFERED')") == 5, "nobody lost: ana and ben offered, cai, dee and eva waiting");
    }
}
