package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.waitlist.WaitlistSettings;
import org.boxoffice.app.web.ShowEvents;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.boxoffice.app.TestApp.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A waitlist offer reaches the open page of the fan it was made for over the show's live stream, as
 * it is made, and no other page: the fan's page names a key that only the fan's token gets. The
 * offer window is shorter than the notices' lead, so the "about to lapse" notice follows at once.
 */
@ServerTest
class OfferNoticesTest {

    private static final Duration OFFER_WINDOW = Duration.ofSeconds(90);
    private static TestApp app;
    private final WaitlistFixture w;
    private final URI base;

    OfferNoticesTest(URI uri) {
        this.base = uri;
        this.w = new WaitlistFixture(app, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server, s -> s.withWaitlist(new WaitlistSettings(OFFER_WINDOW, 0, Duration.ofHours(1))));
    }

    @Test
    void anOffer_reachesTheStreamOfTheFanItWasMadeFor_withWhatItHolds_andNoOtherStream() throws Exception {
        w.createShow("on-1", 1, 2, null);
        String first = w.hold("holder", "on-1", "A-1-1");
        w.hold("holder", "on-1", "A-1-2");
        assertEquals(1, w.joined("ann", "on-1", 1));
        assertEquals(2, w.joined("bob", "on-1", 1));

        try (EventStream ann = new EventStream(base, events("ann", "on-1"));
             EventStream bob = new EventStream(base, events("bob", "on-1"));
             EventStream anonymous = new EventStream(base, "/v1/shows/on-1/events")) {
            for (EventStream page : List.of(ann, bob, anonymous)) {
                assertEquals(200, page.response.statusCode());
                assertEquals(ShowEvents.AVAILABILITY, page.next(Duration.ofSeconds(5)).name());
            }
            w.release("holder", first);

            // the offer's window (90 s) is within the "about to lapse" lead, so both notices are due
            // at once and may arrive in either order: a real window lasts longer than the lead
            Map<String, JsonNode> notices = new java.util.HashMap<>();
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (notices.size() < 2 && System.nanoTime() < until) {
                JsonNode n = nextNotice(ann, Duration.ofSeconds(30)).data();
                notices.putIfAbsent(n.get("kind").asText(), n);
            }
            JsonNode made = notices.get("OFFER_MADE");
            assertNotNull(made, "no OFFER_MADE notice on ann's stream: " + notices);
            JsonNode offer = w.standing("ann", "on-1").get("offer");
            assertEquals("OFFER_MADE", made.get("kind").asText());
            assertEquals(offer.get("holdId").asText(), made.get("holdId").asText());
            assertEquals("on-1", made.get("showId").asText());
            assertEquals(List.of("A-1-1"), List.of(made.get("seatIds").get(0).asText()));
            assertEquals(1, made.get("quantity").asInt());
            assertEquals(Instant.parse(offer.get("expiresAt").asText()).toEpochMilli(), made.get("expiresAt").asLong());
            assertTrue(made.get("message").asText().contains("A-1-1"), made.toString());
            assertFalse(made.has("accountId"), "a page is not told whose account the notice is addressed to");

            JsonNode lapsing = notices.get("OFFER_LAPSING");
            assertNotNull(lapsing, "the offer lapses within the notices' lead, and ann is told: " + notices);
            assertEquals(made.get("holdId").asText(), lapsing.get("holdId").asText());

            Thread.sleep(1_500); // the page notices' dispatcher had its turns
            for (EventStream other : List.of(bob, anonymous)) {
                assertTrue(other.events.stream().noneMatch(e -> ShowEvents.NOTICE.equals(e.name())),
                        "another fan's page, and a page nobody signed, hear nothing of ann's offer");
            }
        }
        assertEquals(1, w.count("SELECT count(*) FROM messages WHERE kind = 'OFFER_MADE' AND account_id = 'ann'"),
                "one notice, for the page: the mail is the offer mail");
    }

    @Test
    void aStreamKey_isTheCallersForOneShow_andAKeyThatOpensNothingIsA401WithAJsonError() throws Exception {
        w.createShow("on-2", 1, 2, null);
        w.createShow("on-3", 1, 2, null);
        assertError(w.http.post("/v1/shows/on-2/events/key", null, null), 401, "UNAUTHORIZED");
        assertError(w.http.post("/v1/shows/no-such-show/events/key", app.token("ann"), null), 404, "NOT_FOUND");

        TestApp.Http.Reply issued = w.http.post("/v1/shows/on-2/events/key", app.token("ann"), null);
        assertEquals(200, issued.status(), issued.body());
        String key = issued.json().get("key").asText();
        assertEquals("/v1/shows/on-2/events?key=" + key, issued.json().get("events").asText());
        assertTrue(Instant.parse(issued.json().get("expiresAt").asText()).isAfter(Instant.now().plusSeconds(50 * 60)));

        assertError(w.http.get("/v1/shows/on-3/events?key=" + key, null), 401, "UNAUTHORIZED");
        assertError(w.http.get("/v1/shows/on-2/events?key=" + key.substring(0, key.length() - 2) + "xx", null),
                401, "UNAUTHORIZED");
        assertError(w.http.get("/v1/shows/on-2/events?key=" + app.token("ann"), null), 401, "UNAUTHORIZED");
        try (EventStream page = new EventStream(base, "/v1/shows/on-2/events?key=" + key)) {
            assertEquals(ShowEvents.AVAILABILITY, page.next(Duration.ofSeconds(5)).name());
        }
    }

    @Test
    void streamKeysAskedInParallel_areEachTheCallersAndEachOpensTheStream() throws Exception {
        w.createShow("on-5", 1, 2, null);
        w.createShow("on-6", 1, 2, null);
        var pool = java.util.concurrent.Executors.newFixedThreadPool(20);
        try {
            List<java.util.concurrent.Future<TestApp.Http.Reply>> asked = new java.util.ArrayList<>();
            for (int i = 0; i < 20; i++) {
                asked.add(pool.submit(() -> w.http.post("/v1/shows/on-5/events/key", app.token("ann"), null)));
            }
            for (var f : asked) {
                TestApp.Http.Reply r = f.get();
                assertEquals(200, r.status(), r.body());
                String key = r.json().get("key").asText();
                assertError(w.http.get("/v1/shows/on-6/events?key=" + key, null), 401, "UNAUTHORIZED");
                try (EventStream page = new EventStream(base, "/v1/shows/on-5/events?key=" + key)) {
                    assertEquals(200, page.response.statusCode());
                    assertEquals(ShowEvents.AVAILABILITY, page.next(Duration.ofSeconds(5)).name());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anOffersHoldAndItsBooking_sayTheyCameFromTheWaitlist_andAFansOwnHoldSaysItIsTheirs() {
        w.createShow("on-4", 1, 2, null);
        String held = w.hold("holder", "on-4", "A-1-1", "A-1-2");
        assertEquals("fan", w.http.get("/v1/holds/" + held, app.token("holder")).json().get("origin").asText());
        w.joined("cid", "on-4", 2);
        w.release("holder", held);

        String offer = w.awaitStatus("cid", "on-4", "OFFERED").get("offer").get("holdId").asText();
        assertEquals("waitlist-offer", w.http.get("/v1/holds/" + offer, app.token("cid")).json().get("origin").asText());
        TestApp.Http.Reply paid = w.f.checkout(app.token("cid"), offer, "card_ok");
        assertEquals(200, paid.status(), paid.body());
        TestApp.Http.Reply booking = w.http.get("/v1/bookings/" + paid.json().get("bookingId").asLong(), app.token("cid"));
        assertEquals(200, booking.status(), booking.body());
        assertEquals("waitlist-offer", booking.json().get("origin").asText());
    }

    /** The address of the fan's own stream of the show, with a key asked for with the fan's token. */
    private String events(String account, String show) {
        TestApp.Http.Reply r = w.http.post("/v1/shows/" + show + "/events/key", app.token(account), null);
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
}
