package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.waitlist.WaitlistSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An offer of admissions (general admission) that nobody takes: with a five-second offer window the
 * offer lapses while the test watches, and its admissions go to the next in line, or back on sale
 * when nobody waits. The periodic pass is slowed to an hour, so the next offer came from the lapse's
 * returned-admissions signal.
 */
@ServerTest
class WaitlistByCountLapseTest {

    private static TestApp app;
    private final WaitlistFixture w;

    WaitlistByCountLapseTest(URI uri) {
        this.w = new WaitlistFixture(app, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.start(s -> s.withWaitlist(new WaitlistSettings(Duration.ofSeconds(5), 0, Duration.ofHours(1))));
        server.routing(app.app::routing);
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void aLapsedOfferOfAdmissions_goesToTheNextInLine_andThenBackOnSale() {
        String showId = "wll-floor";
        String admin = app.token("ops", "admin");
        TestApp.Http.Reply show = w.http.post("/v1/admin/shows", admin, "{\"showId\":\"" + showId
                + "\",\"eventId\":\"fado-nights\",\"startsAt\":\"2031-01-01T20:00:00Z\",\"holdSeconds\":420,"
                + "\"graceSeconds\":0,\"maxPerAccount\":100,\"sections\":[{\"name\":\"A\",\"price\":\"5.00\","
                + "\"rows\":1,\"seatsPerRow\":4}]}");
        assertEquals(201, show.status(), show.body());
        TestApp.Http.Reply area = w.http.post("/v1/admin/shows/" + showId + "/areas", admin,
                "{\"name\":\"FLOOR\",\"capacity\":2,\"price\":\"20.00\",\"stripes\":1}");
        assertEquals(201, area.status(), area.body());
        TestApp.Http.Reply filler = w.http.post("/v1/shows/" + showId + "/holds", app.token("wll-fill"),
                "{\"area\":\"FLOOR\",\"quantity\":2}");
        assertEquals(201, filler.status(), filler.body());
        for (String waiter : new String[] {"wll-eve", "wll-fay"}) {
            TestApp.Http.Reply joined = w.http.post("/v1/shows/" + showId + "/waitlist", app.token(waiter),
                    "{\"area\":\"FLOOR\",\"quantity\":2}");
            assertEquals(201, joined.status(), joined.body());
        }

        w.release("wll-fill", filler.json().get("holdId").asText());
        String eveHold = w.awaitStatus("wll-eve", showId, "OFFERED").get("offer").get("holdId").asText();
        assertEquals("WAITING", w.status("wll-fay", showId));

        // nobody checks out: the sweeper ends the offer's hold after five seconds, and that is a return
        String fayHold = w.awaitStatus("wll-fay", showId, "OFFERED").get("offer").get("holdId").asText();
        assertEquals("EXPIRED", w.status("wll-eve", showId));
        assertEquals("EXPIRED", w.f.one("select status from holds where hold_id = ?", eveHold));
        assertEquals(0, w.offersOf("wll-eve").size());
        JsonNode fays = w.offersOf("wll-fay").get(0);
        assertEquals(fayHold, fays.get("holdId").asText());
        assertEquals("FLOOR", fays.get("area").asText());
        assertEquals(2, fays.get("quantity").asInt());

        // fay's offer lapses too and nobody is left: the admissions go back on sale, and the next pass
        // settles her entry
        assertTrue(CheckoutFixture.waitFor(() -> "EXPIRED".equals(w.f.one("select status from holds where hold_id = ?",
                fayHold)), Duration.ofSeconds(15)), "fay's offer lapsed");
        assertEquals(0, w.offers().match(showId));
        assertEquals("EXPIRED", w.status("wll-fay", showId));
        assertEquals(1, w.count("select count(*) from waitlist_entries where account_id = 'wll-eve' and hold_id is not null"),
                "eve was offered once");
        assertTrue(CheckoutFixture.waitFor(() -> w.http.get("/v1/shows/" + showId + "/areas", null).json()
                .get("areas").get(0).get("left").asInt() == 2, Duration.ofSeconds(5)), "both admissions are on sale");
        TestApp.Http.Reply again = w.http.post("/v1/shows/" + showId + "/holds", app.token("wll-gil"),
                "{\"area\":\"FLOOR\",\"quantity\":2}");
        assertEquals(201, again.status(), "anyone may hold them now: " + again.body());
        Map<String, Long> violations = app.app.invariants().checkNow();
        violations.forEach((kind, count) -> assertEquals(0L, count, kind + ": " + violations));
    }
}
