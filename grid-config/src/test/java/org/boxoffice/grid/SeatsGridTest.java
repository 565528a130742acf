package org.boxoffice.grid;

import com.hazelcast.core.HazelcastInstance;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.Show;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The whole sequences of {@link Seats} on two real members against an in-memory referee. */
class SeatsGridTest {

    private static final InMemoryInventoryRepository repo = new InMemoryInventoryRepository();
    private static final long NOW = 1_000_000;
    private static List<HazelcastInstance> members;
    private static Seats seats;
    private static ShowSnapshots snapshots;
    private static Allowances allowances;

    @BeforeAll
    static void start() {
        members = TestGrid.start(2, repo);
        Inventory inventory = new Inventory(members.get(0));
        snapshots = new ShowSnapshots(inventory, () -> NOW, 60_000);
        allowances = new Allowances(members.get(1), repo);
        seats = new Seats(inventory, allowances, snapshots);
    }

    @AfterAll
    static void stop() {
        snapshots.close();
        members.forEach(HazelcastInstance::shutdown);
    }

    private static SortedMap<Integer, int[]> seats(int block, int[] a, int block2, int[] b) {
        SortedMap<Integer, int[]> m = new TreeMap<>();
        m.put(block, a);
        if (b != null) {
            m.put(block2, b);
        }
        return m;
    }

    /** Waits (up to 10 s) until this member's map shows {@code seat} of block 0 taken: the claim has marked it. */
    private static void awaitTakenOnTheMap(Show show, int seat) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (snapshots.get(show).free(seat) && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
    }

    /** Seats 0 .. n-1. */
    private static int[] firstSeats(int n) {
        int[] seats = new int[n];
        for (int i = 0; i < n; i++) {
            seats[i] = i;
        }
        return seats;
    }

    @Test
    void hold_refusedInALaterBlock_leavesNothingHeld_givesTheAllowanceBack_andMarksTheTakenSeats() {
        Show show = TestGrid.show("seats-rollback", 2, 10, 2, repo);
        snapshots.get(show);
        assertInstanceOf(Seats.Claim.Held.class, seats.hold(show, "h-other", "acc-2", seats(1, new int[] {3}, 0, null),
                NOW + 60_000, NOW, new String[] {"x"}));

        Seats.Claim claim = seats.hold(show, "h-mine", "acc-1", seats(0, new int[] {0, 1}, 1, new int[] {3, 4}),
                NOW + 60_000, NOW, new String[] {"a", "b", "c", "d"});

        Seats.Claim.Refused refused = assertInstanceOf(Seats.Claim.Refused.class, claim);
        assertEquals(Rejection.SEATS_UNAVAILABLE, refused.reason());
        ShowSnapshot snapshot = snapshots.get(show);
        assertTrue(snapshot.free(0) && snapshot.free(1), "block 0 was rolled back");
        assertEquals(SeatState.Status.HELD, snapshot.status(10 + 3), "the seat found taken shows as taken");
        // the refused hold's 4 seats are not counted against the account: it may still take its whole limit
        int[] wholeBlock = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        assertEquals(wholeBlock.length, show.policy().maxPerAccount());
        assertInstanceOf(Seats.Claim.Held.class, seats.hold(show, "h-mine-2", "acc-1", seats(0, wholeBlock, 0, null),
                NOW + 60_000, NOW, new String[0]));
    }

    @Test
    void whileAClaimIsInFlight_thisMembersMapShowsItsSeatsTaken() throws Exception {
        Show show = TestGrid.show("seats-in-flight", 1, 10, 1, repo);
        snapshots.get(show);
        repo.pauseStores();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            java.util.concurrent.Future<Seats.Claim> claim = pool.submit(() -> seats.hold(show, "h-flight", "acc-f",
                    seats(0, new int[] {4, 5}, 0, null), NOW + 60_000, NOW, new String[] {"a", "b"}));
            awaitTakenOnTheMap(show, 4);
            assertFalse(snapshots.get(show).free(4), "seat 4 shows taken while its claim waits for the referee");
            assertFalse(snapshots.get(show).free(5));
            assertFalse(claim.isDone(), "the claim is still waiting for its store");
            repo.resumeStores();
            assertInstanceOf(Seats.Claim.Held.class, claim.get(30, java.util.concurrent.TimeUnit.SECONDS));
            assertFalse(snapshots.get(show).free(4), "and stays taken once held");
        } finally {
            repo.resumeStores();
            pool.shutdownNow();
        }
    }

    @Test
    void aBuyersClaimForSeatsOfAClaimInFlight_isRefusedByTheMap_withoutWaitingForTheGrid() throws Exception {
        Show show = TestGrid.show("seats-first-comer", 1, 10, 1, repo);
        snapshots.get(show);
        repo.pauseStores();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.Future<Seats.Claim> first = pool.submit(() -> seats.holdIfFree(show, "h-first", "acc-first",
                    seats(0, new int[] {4, 5}, 0, null), NOW + 60_000, NOW, new String[] {"a", "b"}));
            awaitTakenOnTheMap(show, 4);
            assertFalse(first.isDone(), "the first claim waits for its store");

            // a claim of the block would queue behind the paused store: an answer now means no grid call
            java.util.concurrent.Future<Seats.Claim> asked = pool.submit(() -> seats.holdIfFree(show, "h-second",
                    "acc-second", seats(0, new int[] {5, 6}, 0, null), NOW + 60_000, NOW, new String[] {"b", "c"}));
            Seats.Claim second = asked.get(10, java.util.concurrent.TimeUnit.SECONDS);

            assertEquals(new Seats.Claim.Refused(Rejection.SEATS_UNAVAILABLE, java.util.Map.of()), second);
            assertTrue(snapshots.get(show).free(6), "nothing of the refused claim is marked");
            repo.resumeStores();
            assertInstanceOf(Seats.Claim.Held.class, first.get(30, java.util.concurrent.TimeUnit.SECONDS));
            // the refused buyer reserved nothing: its whole limit is still there
            int max = show.policy().maxPerAccount();
            int[] rest = {0, 1, 2, 3, 6, 7, 8, 9};
            assertTrue(rest.length <= max);
            assertInstanceOf(Seats.Claim.Held.class, seats.holdIfFree(show, "h-second-2", "acc-second",
                    seats(0, rest, 0, null), NOW + 60_000, NOW, new String[0]));
        } finally {
            repo.resumeStores();
            pool.shutdownNow();
        }
    }

    @Test
    void aBuyersClaimOverTheLimit_putsItsSeatsBackOnTheMap() {
        Show show = TestGrid.show("seats-first-comer-limit", 1, 20, 1, repo);
        snapshots.get(show);
        int max = show.policy().maxPerAccount();
        int[] all = firstSeats(max);
        assertInstanceOf(Seats.Claim.Held.class, seats.holdIfFree(show, "h-fc-full", "acc-fc", seats(0, all, 0, null),
                NOW + 60_000, NOW, new String[0]));

        assertEquals(new Seats.Claim.OverLimit(0), seats.holdIfFree(show, "h-fc-more", "acc-fc",
                seats(0, new int[] {max}, 0, null), NOW + 60_000, NOW, new String[0]));

        assertTrue(snapshots.get(show).free(max), "the seat is free on the map again");
        assertInstanceOf(Seats.Claim.Held.class, seats.holdIfFree(show, "h-fc-other", "acc-fc-2",
                seats(0, new int[] {max}, 0, null), NOW + 60_000, NOW, new String[0]));
    }

    @Test
    void hold_overTheAccountsLimit_claimsNothing() {
        Show show = TestGrid.show("seats-limit", 1, 20, 1, repo);
        int max = show.policy().maxPerAccount();
        int[] all = firstSeats(max);
        assertInstanceOf(Seats.Claim.Held.class, seats.hold(show, "h-full", "acc-9", seats(0, all, 0, null),
                NOW + 60_000, NOW, new String[0]));

        Seats.Claim claim = seats.hold(show, "h-more", "acc-9", seats(0, new int[] {max}, 0, null), NOW + 60_000, NOW,
                new String[0]);

        assertEquals(new Seats.Claim.OverLimit(0), claim);
        assertTrue(snapshots.get(show).free(max));
    }

    @Test
    void release_putsTheSeatsBackOnTheMap_andTheAllowanceBack() {
        Show show = TestGrid.show("seats-release", 1, 10, 1, repo);
        snapshots.get(show);
        seats.hold(show, "h-1", "acc-3", seats(0, new int[] {2, 3}, 0, null), NOW + 60_000, NOW, new String[0]);
        assertEquals(SeatState.Status.HELD, snapshots.get(show).status(2));

        seats.release(show, "h-1", "acc-3", Set.of(0), NOW + 1, "acc-3", "changed my mind", true);

        assertTrue(snapshots.get(show).free(2) && snapshots.get(show).free(3));
        assertInstanceOf(Seats.Claim.Held.class, seats.hold(show, "h-2", "acc-4", seats(0, new int[] {2, 3}, 0, null),
                NOW + 60_000, NOW + 2, new String[0]));
    }
}
