package org.boxoffice.app;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.waitlist.WaitlistSettings;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The waitlist with a look-ahead of one (smaller requests right behind a large head may use seats
 * it cannot) and a five-second offer window (offers lapse while the test watches).
 */
@ServerTest
class WaitlistOrderTest {

    private static TestApp app;
    private final WaitlistFixture w;

    WaitlistOrderTest(URI uri) {
        this.w = new WaitlistFixture(app, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server, s -> s.withWaitlist(new WaitlistSettings(Duration.ofSeconds(5), 1, Duration.ofHours(1))));
    }

    @Test
    void lookahead_servesASmallerRequestRightBehindTheHead_whileTheHeadKeepsItsPlace() {
        w.createShow("wl-look", 1, 8, null);
        String f1 = w.hold("f1", "wl-look", "A-1-1", "A-1-2");
        String f2 = w.hold("f2", "wl-look", "A-1-3", "A-1-4");
        w.hold("f3", "wl-look", "A-1-5", "A-1-6", "A-1-7", "A-1-8");
        w.joined("ann", "wl-look", 4);
        w.joined("bob", "wl-look", 2);
        w.joined("cat", "wl-look", 1);
        w.joined("dan", "wl-look", 1);

        w.release("f1", f1);

        assertEquals(List.of("A-1-1", "A-1-2"), WaitlistFixture.seats(w.awaitStatus("bob", "wl-look", "OFFERED")),
                "bob, second in line, within a look-ahead of one");
        assertEquals("WAITING", w.status("ann", "wl-look"));
        assertEquals(1, w.standing("ann", "wl-look").get("position").asLong());
        assertEquals("WAITING", w.status("cat", "wl-look"));

        w.release("f2", f2);

        w.awaitStatus("cat", "wl-look", "OFFERED");
        w.awaitStatus("dan", "wl-look", "OFFERED");
        assertEquals("WAITING", w.status("ann", "wl-look"), "two single seats never fit four together");
        assertEquals(1, w.standing("ann", "wl-look").get("position").asLong());
    }

    @Test
    void aLapsedOffer_goesToTheNextWaiter_andTheLapsedWaiterIsNotOfferedAgain() {
        w.createShow("wl-lapse", 1, 2, null);
        String filler = w.hold("fill", "wl-lapse", "A-1-1", "A-1-2");
        w.joined("eve", "wl-lapse", 2);
        w.joined("fay", "wl-lapse", 2);
        w.release("fill", filler);
        String eveHold = w.awaitStatus("eve", "wl-lapse", "OFFERED").get("offer").get("holdId").asText();

        // nobody checks out: the sweeper expires the offer's hold after five seconds, and that is a return
        String fayHold = w.awaitStatus("fay", "wl-lapse", "OFFERED").get("offer").get("holdId").asText();

        assertEquals(List.of("A-1-1", "A-1-2"), WaitlistFixture.seats(w.standing("fay", "wl-lapse")));
        assertEquals("EXPIRED", w.status("eve", "wl-lapse"));
        assertEquals("EXPIRED", w.f.one("select status from holds where hold_id = ?", eveHold));
        assertEquals(0, w.offersOf("eve").size());
        assertEquals("fay", w.f.one("select account_id from holds where hold_id = ?", fayHold));

        // fay's offer lapses too and nobody is left: the seats go back on sale, and the next pass
        // (nobody in line to wake one sooner) settles her entry
        assertTrue(CheckoutFixture.waitFor(() -> "EXPIRED".equals(w.f.one("select status from holds where hold_id = ?",
                fayHold)), Duration.ofSeconds(15)), "fay's offer lapsed");
        assertEquals(0, w.offers().match("wl-lapse"));
        assertEquals("EXPIRED", w.status("fay", "wl-lapse"));
        assertEquals(1, w.count("select count(*) from waitlist_entries where account_id = 'eve' and hold_id is not null"),
                "eve was offered once");
        assertEquals(2, w.count("select count(*) from seats where show_id = 'wl-lapse' and state = 'AVAILABLE'"));
        assertTrue(CheckoutFixture.waitFor(() -> w.http.post("/v1/shows/wl-lapse/holds", app.token("gil"),
                "{\"seatIds\":[\"A-1-1\",\"A-1-2\"]}").status() == 201, Duration.ofSeconds(5)), "anyone may hold them now");
    }
}
