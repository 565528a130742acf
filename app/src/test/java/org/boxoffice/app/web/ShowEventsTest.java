package org.boxoffice.app.web;

import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.app.TestApp;
import org.boxoffice.app.http.Json;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.Show;
import org.boxoffice.grid.ShowSnapshots;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The fan-out behind the seat-map stream, over a real member's inventory. Changes are written into
 * the snapshots the way this member's own outcomes are ({@code ShowSnapshots.record}); these
 * snapshots are never rebuilt from the grid, so the writes stay, and the test polls by hand
 * ({@link ShowEvents#pollNow()}), so each poll sees exactly the changes made before it.
 * (The timing with the background poller is covered by {@code WebAppApiTest}.)
 */
class ShowEventsTest {

    private static final int QUEUE = 4;
    private static TestApp app;
    private static ShowSnapshots snapshots;
    private static ShowEvents events;

    @BeforeAll
    static void start() {
        app = TestApp.start();
        snapshots = new ShowSnapshots(app.app.inventory(), System::currentTimeMillis, 3_600_000);
        events = new ShowEvents(snapshots, null, QUEUE);
    }

    @AfterAll
    static void stop() {
        events.close();
        snapshots.close();
        app.close();
    }

    private static Show show(String id) {
        return app.app.directory().find(id).orElseThrow();
    }

    /** Marks a seat of block 0 as held, as a hold made on this member does, and lets the poller look. */
    private static void holdAndPoll(Show show, int seat) {
        snapshots.record(show, 0, new int[] {seat}, SeatState.Status.HELD);
        events.pollNow();
    }

    private static int status(JsonNode whole, int seat) {
        byte[] packed = Base64.getDecoder().decode(whole.get("data").asText());
        return (packed[seat >> 2] >> ((seat & 3) * 2)) & 3;
    }

    private static JsonNode json(ShowEvents.Event e) throws Exception {
        return Json.MAPPER.readTree(e.json());
    }

    @Test
    void aNotice_reachesOnlyThePageThatFollowsItsHold_betweenTheMapsEvents() throws Exception {
        Show show = show("jazz-1");
        try (ShowEvents.Subscription mine = events.subscribe(show, "H-mine");
             ShowEvents.Subscription other = events.subscribe(show, "H-other");
             ShowEvents.Subscription anonymous = events.subscribe(show)) {
            ShowEvents.Event whole = mine.next(Duration.ofSeconds(1));
            other.next(Duration.ofSeconds(1));
            anonymous.next(Duration.ofSeconds(1));

            events.notice("jazz-1", "H-mine", null, "{\"kind\":\"HOLD_LAPSED\",\"holdId\":\"H-mine\"}");
            events.notice("other-show", "H-mine", null, "{}");
            ShowEvents.Event notice = mine.next(Duration.ofSeconds(1));
            assertEquals(ShowEvents.NOTICE, notice.name());
            assertEquals("HOLD_LAPSED", json(notice).get("kind").asText());
            assertEquals(whole.seq(), notice.seq(), "a notice keeps the map's sequence where it was");
            assertNull(other.next(Duration.ofMillis(200)), "another hold's page hears nothing");
            assertNull(anonymous.next(Duration.ofMillis(200)), "a page without a hold hears nothing");

            holdAndPoll(show, 21);
            assertEquals(ShowEvents.CHANGES, mine.next(Duration.ofSeconds(1)).name(), "the map goes on after it");
        }
    }

    @Test
    void aNoticeToAFan_reachesOnlyThePagesThatFanOpened_once_evenWhenOneAlsoFollowsItsHold() throws Exception {
        Show show = show("jazz-1");
        try (ShowEvents.Subscription ann = events.subscribe(show, null, "ann");
             ShowEvents.Subscription annsHold = events.subscribe(show, "W-ann", "ann");
             ShowEvents.Subscription bob = events.subscribe(show, null, "bob");
             ShowEvents.Subscription anonymous = events.subscribe(show)) {
            for (ShowEvents.Subscription s : List.of(ann, annsHold, bob, anonymous)) {
                s.next(Duration.ofSeconds(1));
            }

            events.notice("jazz-1", "W-ann", "ann", "{\"kind\":\"OFFER_MADE\",\"holdId\":\"W-ann\"}");
            assertEquals("OFFER_MADE", json(ann.next(Duration.ofSeconds(1))).get("kind").asText());
            assertEquals("W-ann", json(annsHold.next(Duration.ofSeconds(1))).get("holdId").asText());
            assertNull(annsHold.next(Duration.ofMillis(200)), "once, though it follows the hold and is the fan's");
            assertNull(bob.next(Duration.ofMillis(200)), "another fan's page hears nothing of it");
            assertNull(anonymous.next(Duration.ofMillis(200)), "nor does a page nobody signed");
        }
    }

    @Test
    void subscriber_getsTheWholeMapFirst_thenEachChangeInOrder() throws Exception {
        Show show = show("jazz-1");
        try (ShowEvents.Subscription sub = events.subscribe(show)) {
            ShowEvents.Event first = sub.next(Duration.ofSeconds(1));
            assertEquals(ShowEvents.AVAILABILITY, first.name());
            assertEquals(show.layout().totalSeats(), json(first).get("seatCount").asInt());
            assertEquals(0, status(json(first), 3));

            holdAndPoll(show, 3);
            holdAndPoll(show, 4);
            ShowEvents.Event a = sub.next(Duration.ofSeconds(1));
            ShowEvents.Event b = sub.next(Duration.ofSeconds(1));
            assertEquals(ShowEvents.CHANGES, a.name());
            assertEquals("[[3,1]]", json(a).get("changes").toString());
            assertEquals("[[4,1]]", json(b).get("changes").toString());
            assertEquals(first.seq() + 1, a.seq());
            assertEquals(a.seq() + 1, b.seq());

            events.pollNow();
            assertNull(sub.next(Duration.ofMillis(100)), "nothing changed, nothing is sent");
        }
    }

    @Test
    void aLateSubscriber_startsFromTheCurrentMap() throws Exception {
        Show show = show("echoes-berlin-2");
        try (ShowEvents.Subscription early = events.subscribe(show)) {
            early.next(Duration.ofSeconds(1));
            holdAndPoll(show, 7);
            try (ShowEvents.Subscription late = events.subscribe(show)) {
                ShowEvents.Event first = late.next(Duration.ofSeconds(1));
                assertEquals(ShowEvents.AVAILABILITY, first.name());
                assertEquals(1, status(json(first), 7), "the change is part of the map it starts with");
                assertNull(late.next(Duration.ofMillis(100)), "and is not sent again");
            }
        }
    }

    @Test
    void slowSubscriber_getsTheWholeMapInsteadOfTheChangesItMissed() throws Exception {
        Show show = show("jazz-2");
        try (ShowEvents.Subscription slow = events.subscribe(show); ShowEvents.Subscription quick = events.subscribe(show)) {
            slow.next(Duration.ofSeconds(1));
            quick.next(Duration.ofSeconds(1));
            int changes = QUEUE + 3;
            for (int seat = 0; seat < changes; seat++) {
                holdAndPoll(show, seat);
                assertEquals(ShowEvents.CHANGES, quick.next(Duration.ofSeconds(1)).name(), "a reading client gets every change");
            }
            ShowEvents.Event next = slow.next(Duration.ofSeconds(1));
            assertEquals(ShowEvents.AVAILABILITY, next.name(), "one that fell behind is sent the whole map again");
            for (int seat = 0; seat < changes; seat++) {
                assertEquals(1, status(json(next), seat), "seat " + seat + " shows held");
            }
            assertNull(slow.next(Duration.ofMillis(100)), "and no stale changes after it");
        }
    }

    @Test
    void aClosedSubscription_isForgotten() {
        Show show = show("mahler-5-1");
        ShowEvents.Subscription a = events.subscribe(show);
        ShowEvents.Subscription b = events.subscribe(show);
        assertEquals(2, events.subscribers(show.showId()));
        a.close();
        assertEquals(1, events.subscribers(show.showId()));
        b.close();
        assertEquals(0, events.subscribers(show.showId()));
    }
}
