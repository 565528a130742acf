package org.boxoffice.mapstore;

import static org.boxoffice.mapstore.TestShows.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.boxoffice.domain.DuplicateWaitlistEntryException;
import org.boxoffice.domain.MailOutbox;
import org.boxoffice.domain.WaitlistEntry;
import org.boxoffice.domain.WaitlistEntry.State;
import org.boxoffice.domain.WaitlistStanding;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The waitlist's rules as the referee enforces them, on real PostgreSQL. */
class PostgresWaitlistRepositoryTest {

    private static HikariDataSource db;
    private static PostgresWaitlistRepository waitlist;
    private static final AtomicLong IDS = new AtomicLong(1_000);

    @BeforeAll
    static void database() {
        db = TestDatabase.newDataSource(8);
        PostgresCatalogRepository catalog = new PostgresCatalogRepository(db);
        for (String show : List.of("wl-1", "wl-2", "wl-3", "wl-4", "wl-5")) {
            TestShows.save(catalog, TestShows.small(show));
        }
        waitlist = new PostgresWaitlistRepository(db);
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static WaitlistEntry entry(String show, String account, int quantity) {
        return new WaitlistEntry(IDS.incrementAndGet(), show, account, quantity, null, T0, account + "@example.test");
    }

    @Test
    void theLine_isInQueueItemOrder_andPositionsCountOnlyThoseStillInLine() {
        WaitlistEntry a = entry("wl-1", "a", 2);
        WaitlistEntry b = entry("wl-1", "b", 1);
        WaitlistEntry c = entry("wl-1", "c", 3);
        waitlist.enqueue(7, b);
        waitlist.enqueue(3, a);
        waitlist.enqueue(9, c);

        assertEquals(List.of(a, b, c), waitlist.line("wl-1"));
        assertEquals(List.of(3L, 7L, 9L), waitlist.queuedItems("wl-1"));
        assertEquals(2, waitlist.standing("wl-1", "b").orElseThrow().position());

        assertTrue(waitlist.end(a.entryId(), Set.of(State.WAITING), State.LEFT, "left", T0 + 1));

        assertEquals(1, waitlist.standing("wl-1", "b").orElseThrow().position());
        assertEquals(2, waitlist.standing("wl-1", "c").orElseThrow().position());
        WaitlistStanding left = waitlist.standing("wl-1", "a").orElseThrow();
        assertEquals(State.LEFT, left.state());
        assertEquals(0, left.position());
        assertEquals(a, waitlist.queued("wl-1", 3).orElseThrow(), "the queue can still read an ended item back");
        assertEquals(Map.of(7L, b, 9L, c), waitlist.queued("wl-1", List.of(7L, 9L)));
    }

    @Test
    void oneLiveEntryPerAccountAndShow_evenWhenJoinsRace() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> joins = new java.util.ArrayList<>();
            for (int i = 0; i < 16; i++) {
                long item = i;
                joins.add(pool.submit(() -> {
                    try {
                        waitlist.enqueue(item, entry("wl-2", "dup", 1));
                        return true;
                    } catch (DuplicateWaitlistEntryException e) {
                        return false;
                    }
                }));
            }
            long won = 0;
            for (Future<Boolean> f : joins) {
                won += f.get() ? 1 : 0;
            }
            assertEquals(1, won);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, waitlist.line("wl-2").size());
        WaitlistStanding live = waitlist.standing("wl-2", "dup").orElseThrow();
        assertTrue(waitlist.end(live.entry().entryId(), Set.of(State.WAITING), State.LEFT, "left", T0));
        waitlist.enqueue(100, entry("wl-2", "dup", 2));
        assertEquals(2, waitlist.standing("wl-2", "dup").orElseThrow().entry().quantity(), "rejoining after leaving is a new entry");
    }

    @Test
    void anOffer_movesOnlyFromTheExpectedState_andPutsItsMailInTheOutbox() {
        WaitlistEntry e = entry("wl-3", "olga", 2);
        waitlist.enqueue(1, e);

        assertTrue(waitlist.beginOffer(e.entryId(), "W1", T0));
        assertFalse(waitlist.beginOffer(e.entryId(), "W2", T0), "one offer in flight per entry");
        assertFalse(waitlist.offered(e.entryId(), "W2", List.of("A-1-1", "A-1-2"), T0 + 60_000, T0), "not its hold");
        assertEquals(1, waitlist.line("wl-3").size(), "an entry being offered keeps its place");
        assertTrue(waitlist.offered(e.entryId(), "W1", List.of("A-1-1", "A-1-2"), T0 + 60_000, T0));
        assertFalse(waitlist.offered(e.entryId(), "W1", List.of("A-1-1", "A-1-2"), T0 + 60_000, T0), "offered once");

        WaitlistStanding s = waitlist.standing("wl-3", "olga").orElseThrow();
        assertEquals(State.OFFERED, s.state());
        assertEquals("W1", s.holdId());
        assertEquals(List.of("A-1-1", "A-1-2"), s.seatIds());
        assertEquals(T0 + 60_000, s.offerExpiresAt());
        assertEquals(List.of(), waitlist.line("wl-3"));
        assertEquals(List.of(s), waitlist.offersOf("olga"));
        assertTrue(waitlist.showsWithLiveEntries().contains("wl-3"));

        MailOutbox<MailOutbox.OfferMail> outbox = PostgresMailOutbox.offerMails(db);
        List<MailOutbox.OfferMail> mails = outbox.claim(10, T0 + 1, 30_000);
        assertEquals(1, mails.size());
        assertEquals("W1", mails.get(0).holdId());
        assertEquals("olga@example.test", mails.get(0).recipient());
        assertEquals(List.of("A-1-1", "A-1-2"), mails.get(0).seatIds());
        assertEquals(List.of(), outbox.claim(10, T0 + 2, 30_000), "leased to the first claimer");
        outbox.sent(mails.get(0).mailId(), T0 + 3);
        assertEquals(List.of(), outbox.claim(10, T0 + 60_000, 30_000), "sent once");

        assertTrue(waitlist.end(e.entryId(), Set.of(State.OFFERED), State.EXPIRED, "offer lapsed", T0 + 70_000));
        assertFalse(waitlist.showsWithLiveEntries().contains("wl-3"));
    }

    @Test
    void anAbandonedOffer_keepsThePlaceInLine() {
        WaitlistEntry first = entry("wl-4", "first", 4);
        WaitlistEntry second = entry("wl-4", "second", 1);
        waitlist.enqueue(1, first);
        waitlist.enqueue(2, second);

        assertTrue(waitlist.beginOffer(first.entryId(), "W9", T0));
        assertTrue(waitlist.abandonOffer(first.entryId(), "W9", T0));

        assertEquals(List.of(first, second), waitlist.line("wl-4"));
        assertEquals(State.WAITING, waitlist.standing("wl-4", "first").orElseThrow().state());
        assertEquals(1, waitlist.standing("wl-4", "first").orElseThrow().position());
    }

    @Test
    void closing_endsEveryEntryInLine_andTheQueueCanNoLongerPutThemBack() {
        WaitlistEntry a = entry("wl-5", "a", 1);
        WaitlistEntry b = entry("wl-5", "b", 1);
        waitlist.enqueue(1, a);
        waitlist.enqueue(2, b);
        waitlist.enqueue(5, a); // a repair putting a live entry back moves only its item id

        assertEquals(List.of(b, a), waitlist.line("wl-5"));
        assertEquals(2, waitlist.close("wl-5", T0));

        assertEquals(List.of(), waitlist.line("wl-5"));
        assertEquals(State.CLOSED, waitlist.standing("wl-5", "a").orElseThrow().state());
        assertThrows(IllegalStateException.class, () -> waitlist.enqueue(6, a));
        waitlist.dequeue("wl-5", 2);
        assertEquals(State.CLOSED, waitlist.standing("wl-5", "b").orElseThrow().state(), "dequeue never reopens or rewrites an ended entry");
    }
}
