package org.boxoffice.app;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.notify.SimulatedSmsProvider;
import org.boxoffice.app.web.ShowEvents;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.boxoffice.app.CheckoutFixture.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A fan whose hold lapses is told on their open page at once and by their channel, once, by a
 * cluster of two members whose sweepers and reconciliations all find the lapse.
 */
@ServerTest
class LapseNoticesTest {

    private static final String SHOW = "lapse-1";
    private static TestApp first;
    private static TestApp second;
    private final CheckoutFixture f;
    private final URI base;

    LapseNoticesTest(URI uri) {
        this.base = uri;
        this.f = new CheckoutFixture(first, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        first = TestApp.serve(server);
        second = TestApp.joining(first);
    }

    @AfterAll
    static void stop() {
        second.close(); // the first member closes with the server
    }

    @Test
    void aLapsedHold_isToldOnItsPage_andOnceBySms_whateverMemberFoundTheLapse() throws Exception {
        // long enough for the page to be open before the hold lapses, even on a busy machine: a page
        // that opens after its notice was sent does not hear it (the fan's other channel still does)
        f.createShow(SHOW, 8, 2);
        String token = first.token("lapsing-fan");
        String phone = "+4915155500011";
        assertEquals(200, f.http.put("/v1/accounts/me/phone", token, "{\"phone\":\"" + phone + "\"}").status());
        String holdId = f.hold(token, SHOW, "A-1-1", "A-1-2");

        try (EventStream page = new EventStream(base, streamOf(SHOW, token) + "&hold=" + holdId);
             EventStream other = new EventStream(base, "/v1/shows/" + SHOW + "/events")) {
            assertEquals(ShowEvents.AVAILABILITY, page.next(Duration.ofSeconds(5)).name());
            assertEquals("HELD", f.http.get("/v1/holds/" + holdId, token).json().get("status").asText(),
                    "the page is open before the hold lapses");
            EventStream.Event notice = nextNotice(page, Duration.ofSeconds(20));
            assertEquals("HOLD_LAPSED", notice.data().get("kind").asText());
            assertEquals(holdId, notice.data().get("holdId").asText());
            assertEquals(SHOW, notice.data().get("showId").asText());
            assertTrue(notice.data().get("message").asText().contains("back on sale"));
            Thread.sleep(500);
            assertTrue(other.events.stream().noneMatch(e -> ShowEvents.NOTICE.equals(e.name())),
                    "a page that holds nothing is told nothing");
        }

        assertTrue(waitFor(() -> smsTo(phone).size() == 1, Duration.ofSeconds(10)), "the SMS arrives");
        assertTrue(smsTo(phone).get(0).text().contains("back on sale"), smsTo(phone).get(0).text());
        assertEquals(List.of("PAGE", "SMS"), f.query("SELECT channel FROM messages WHERE subject = ? "
                + "AND kind = 'HOLD_LAPSED' ORDER BY channel", holdId), "one notice per channel");
        Thread.sleep(2_000); // both members' sweepers and reconciliations had their turns
        assertEquals(1, smsTo(phone).size(), "told once");
    }

    @Test
    void aFanWithoutAPhone_isToldByEmail_andAReleasedHoldIsNotALapse() {
        f.createShow("lapse-2", 2, 1);
        String token = first.token("mail-fan");
        String lapsing = f.hold(token, "lapse-2", "A-1-1");
        String released = f.hold(token, "lapse-2", "A-1-5");
        assertEquals(204, f.http.delete("/v1/holds/" + released, token).status());

        assertTrue(waitFor(() -> f.count("SELECT count(*) FROM messages WHERE subject = ? AND channel = 'EMAIL' "
                + "AND sent_at IS NOT NULL", lapsing) == 1, Duration.ofSeconds(20)), "the lapse is mailed");
        assertEquals(0, f.count("SELECT count(*) FROM messages WHERE subject = ?", released));
    }

    @Test
    void aHoldsNotices_comeOnlyOnAStreamOpenedWithTheKeyOfTheAccountThatHoldsIt() {
        f.createShow("lapse-3", 2, 1);
        f.createShow("lapse-4", 2, 1);
        String owner = first.token("key-owner");
        String holdId = f.hold(owner, "lapse-3", "A-1-1");

        assertStatus(401, "UNAUTHORIZED", "/v1/shows/lapse-3/events?hold=" + holdId);
        assertStatus(404, "NOT_FOUND", streamOf("lapse-3", first.token("key-stranger")) + "&hold=" + holdId);
        assertStatus(404, "NOT_FOUND", streamOf("lapse-4", owner) + "&hold=" + holdId);
        assertStatus(404, "NOT_FOUND", streamOf("lapse-3", owner) + "&hold=H-NO-SUCH-HOLD");
    }

    private void assertStatus(int status, String code, String path) {
        TestApp.Http.Reply r = f.http.get(path, null);
        assertEquals(status, r.status(), path + ": " + r.body());
        assertEquals(code, r.json().get("error").asText());
    }

    /** The path of {@code account}'s stream of {@code show}, with the key it asked for. */
    private String streamOf(String show, String token) {
        TestApp.Http.Reply r = f.http.post("/v1/shows/" + show + "/events/key", token, null);
        assertEquals(200, r.status(), r.body());
        return r.json().get("events").asText();
    }

    private static EventStream.Event nextNotice(EventStream stream, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            EventStream.Event e = stream.next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (ShowEvents.NOTICE.equals(e.name())) {
                return e;
            }
        }
        throw new AssertionError("no notice within " + within);
    }

    private static List<SimulatedSmsProvider.Sent> smsTo(String phone) {
        return Stream.of(first, second)
                .flatMap(a -> ((SimulatedSmsProvider) a.app.notifications().sms()).sent().values().stream())
                .filter(s -> s.to().e164().equals(phone)).toList();
    }
}
