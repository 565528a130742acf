package org.boxoffice.grid;

import com.hazelcast.core.HazelcastInstance;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.Show;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seat-map snapshots on the first of two real members (one JVM, loopback), against an in-memory
 * referee. Most tests turn the refresher by hand ({@link ShowSnapshots#refreshAll}) on a clock
 * they move themselves, so each step sees exactly what happened before it.
 */
class ShowSnapshotsGridTest {

    private static final long HOUR = 3_600_000;
    private static final int BLOCKS = 16;
    private static final int SEATS = 10;
    private static final int GROUPS = 8;

    private static final InMemoryInventoryRepository repo = new InMemoryInventoryRepository();
    private static List<HazelcastInstance> members;
    private static Inventory here;
    private static Inventory there;
    private final List<ShowSnapshots> opened = new ArrayList<>();

    @BeforeAll
    static void start() throws InterruptedException {
        members = TestGrid.start(2, repo);
        here = new Inventory(members.get(0));
        there = new Inventory(members.get(1));
        // safe alone is not enough: just after the join, before the master has moved any partition
        // to the second member, the cluster is already "safe"; the tests need the second member to own some
        awaitTrue(() -> members.get(1).getPartitionService().getPartitions().stream()
                .filter(p -> p.getOwner() != null && p.getOwner().localMember()).count() > 100
                && members.get(0).getPartitionService().isClusterSafe(), 30_000);
    }

    @AfterAll
    static void stop() {
        members.forEach(HazelcastInstance::shutdown);
    }

    @AfterEach
    void closeSnapshots() {
        opened.forEach(ShowSnapshots::close);
    }

    /**
     * A show whose blocks the grid has already loaded, so no load event is still on its way. Its
     * eight partitions are fixed by its name but their owners by the join, so the name gets a
     * suffix until the second member owns at least one of them (all eight on the first member
     * happens in about one start of a hundred).
     */
    private static Show loadedShow(String name) {
        String showId = name;
        for (int i = 1; !theOtherMemberOwnsABlockOf(showId); i++) {
            showId = name + "-" + i;
        }
        Show show = TestGrid.show(showId, BLOCKS, SEATS, GROUPS, repo);
        assertEquals(BLOCKS, here.blocks(show).size());
        return show;
    }

    /** Snapshots on the first member, refreshed by hand unless {@code refreshMillis} is short. */
    private ShowSnapshots snapshots(LongSupplier clock, long refreshMillis, long fullReadEveryMillis) {
        ShowSnapshots s = new ShowSnapshots(here, clock, refreshMillis, fullReadEveryMillis);
        opened.add(s);
        return s;
    }

    private static boolean theOtherMemberOwnsABlockOf(String showId) {
        for (int b = 0; b < GROUPS; b++) {
            if (members.get(1).getPartitionService().getPartition(BlockKey.of(showId, b, GROUPS)).getOwner().localMember()) {
                return true;
            }
        }
        return false;
    }

    /** A block of {@code show} whose partition the second member owns: its processors run there. */
    private static int blockOwnedByTheOtherMember(Show show) {
        for (int b = 0; b < BLOCKS; b++) {
            if (members.get(1).getPartitionService().getPartition(Inventory.key(show, b)).getOwner().localMember()) {
                return b;
            }
        }
        throw new AssertionError("the second member owns no block of " + show.showId());
    }

    private static SortedMap<Integer, int[]> seats(int block, int... idx) {
        SortedMap<Integer, int[]> m = new TreeMap<>();
        m.put(block, idx);
        return m;
    }

    private static void hold(Inventory inventory, Show show, String holdId, int block, long expiresAt, long now, int... idx) {
        assertInstanceOf(Inventory.ClaimResult.Held.class,
                inventory.hold(show, holdId, "alice", seats(block, idx), expiresAt, now, new String[0]));
    }

    private static SeatState.Status status(ShowSnapshots snapshots, Show show, int block, int seat) {
        return snapshots.get(show).status(show.layout().offset(block) + seat);
    }

    private static void awaitTrue(BooleanSupplier condition, long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean() && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(condition.getAsBoolean(), "not within " + millis + " ms");
    }

    @Test
    void aHoldMadeOnAnotherMember_showsUpFromItsChangeEvent_withoutReadingTheGrid() throws InterruptedException {
        Show show = loadedShow("snap-remote");
        ShowSnapshots snapshots = snapshots(System::currentTimeMillis, HOUR, HOUR); // refreshed by hand only
        ShowSnapshot before = snapshots.get(show);
        long readsBefore = snapshots.blocksRead();
        int block = blockOwnedByTheOtherMember(show);

        long now = System.currentTimeMillis();
        hold(there, show, "remote", block, now + HOUR, now, 2, 3);

        awaitTrue(() -> status(snapshots, show, block, 3) == SeatState.Status.HELD, 10_000);
        assertEquals(SeatState.Status.HELD, status(snapshots, show, block, 2), "the event's value, before any refresh");
        snapshots.refreshAll();
        ShowSnapshot after = snapshots.get(show);
        assertNotSame(before, after);
        assertEquals(SeatState.Status.HELD, after.status(show.layout().offset(block) + 2));
        assertEquals(before.gridVersion() + 2, after.gridVersion(), "two seats moved one version each");
        assertEquals(readsBefore, snapshots.blocksRead(), "the event's value stood in for reading the block");
    }

    @Test
    void seatsAnotherMemberFreed_waitForTheRefresh_soAnEventNeverUndoesAClaimInFlightHere() throws InterruptedException {
        Show show = loadedShow("snap-freed");
        ShowSnapshots snapshots = snapshots(System::currentTimeMillis, HOUR, HOUR);
        snapshots.get(show);
        int block = blockOwnedByTheOtherMember(show);
        long now = System.currentTimeMillis();
        hold(there, show, "to-release", block, now + HOUR, now, 4);
        awaitTrue(() -> status(snapshots, show, block, 4) == SeatState.Status.HELD, 10_000);
        // this member marks seat 5 for a claim of its own in flight
        assertTrue(snapshots.markHeldIfFree(show, seats(block, 5)));

        there.execute(show, block, new BlockCommand.Release("to-release", System.currentTimeMillis(), "alice", "test"));
        Thread.sleep(500); // the release's event has arrived by now
        assertEquals(SeatState.Status.HELD, status(snapshots, show, block, 4), "freed seats wait for the refresh");
        assertEquals(SeatState.Status.HELD, status(snapshots, show, block, 5), "the mark in flight stands");

        snapshots.refreshAll();
        assertEquals(SeatState.Status.AVAILABLE, status(snapshots, show, block, 4));
        assertEquals(SeatState.Status.AVAILABLE, status(snapshots, show, block, 5), "the grid's word stands at the refresh");
    }

    @Test
    void aHoldLapsingWithoutAWrite_showsAvailableAfterItsDeadline_withoutReadingTheGrid() {
        Show show = loadedShow("snap-lapse");
        AtomicLong clock = new AtomicLong(1_000_000);
        ShowSnapshots snapshots = snapshots(clock::get, HOUR, HOUR);
        snapshots.loseChangeEvents(true); // so any change the snapshot shows was worked out locally
        long grace = show.policy().graceMillis();
        long t = clock.get();
        hold(here, show, "short", 1, t + 5_000, t, 1, 2);
        hold(here, show, "long", 1, t + 20_000, t, 5);
        ShowSnapshot held = snapshots.refresh(show);
        assertEquals(SeatState.Status.HELD, status(snapshots, show, 1, 1));
        long reads = snapshots.blocksRead();

        clock.set(t + 5_000 + grace - 1);
        snapshots.refreshAll();
        assertSame(held, snapshots.get(show), "nothing lapsed yet");

        clock.set(t + 5_000 + grace);
        snapshots.refreshAll();
        assertEquals(SeatState.Status.AVAILABLE, status(snapshots, show, 1, 1));
        assertEquals(SeatState.Status.AVAILABLE, status(snapshots, show, 1, 2));
        assertEquals(SeatState.Status.HELD, status(snapshots, show, 1, 5));
        assertEquals(held.gridVersion(), snapshots.get(show).gridVersion(), "no block was written");
        assertEquals(SeatState.Status.HELD, here.blocks(show).get(Inventory.key(show, 1)).status(1),
                "the grid still holds the seat: the sweeper has not run");

        clock.set(t + 20_000 + grace);
        snapshots.refreshAll();
        assertEquals(SeatState.Status.AVAILABLE, status(snapshots, show, 1, 5));
        assertEquals(reads, snapshots.blocksRead(), "lapses are worked out from the blocks already read");
    }

    @Test
    void whenNothingChanges_refreshesReadNoBlock_andKeepTheSnapshot() throws InterruptedException {
        Show show = loadedShow("snap-quiet");
        AtomicLong clock = new AtomicLong(System.currentTimeMillis());
        ShowSnapshots snapshots = snapshots(clock::get, HOUR, HOUR);
        ShowSnapshot first = snapshots.get(show);
        byte[] packed = first.packed();
        long reads = snapshots.blocksRead();

        for (int i = 0; i < 10; i++) {
            clock.addAndGet(250);
            snapshots.refreshAll();
            assertSame(first, snapshots.get(show));
            assertSame(packed, snapshots.get(show).packed());
            assertEquals(reads, snapshots.blocksRead());
        }

        long now = clock.get();
        hold(there, show, "one", blockOwnedByTheOtherMember(show), now + HOUR, now, 0);
        awaitTrue(() -> {
            snapshots.refreshAll();
            return snapshots.get(show) != first;
        }, 10_000);
        assertEquals(reads, snapshots.blocksRead(), "one event, its value taken: no block read");
        ShowSnapshot second = snapshots.get(show);
        snapshots.refreshAll();
        assertSame(second, snapshots.get(show));
    }

    @Test
    void aChangeWhoseEventWasLost_showsUpAtTheNextFullRead() {
        Show show = loadedShow("snap-lost");
        AtomicLong clock = new AtomicLong(System.currentTimeMillis());
        ShowSnapshots snapshots = snapshots(clock::get, HOUR, 5_000);
        ShowSnapshot before = snapshots.get(show);
        snapshots.loseChangeEvents(true);
        int block = blockOwnedByTheOtherMember(show);
        long now = clock.get();
        hold(there, show, "unheard", block, now + HOUR, now, 4);

        snapshots.refreshAll();
        assertSame(before, snapshots.get(show), "stale by design: nobody heard of the change");

        clock.addAndGet(5_000);
        snapshots.refreshAll();
        assertEquals(SeatState.Status.HELD, status(snapshots, show, block, 4));
        assertEquals(before.gridVersion() + 1, snapshots.get(show).gridVersion());
    }

    @Test
    void byDefault_aLostChangeShowsUpWithinHalfAMinute_butNotAtEveryRefresh() {
        Show show = loadedShow("snap-default-interval");
        AtomicLong clock = new AtomicLong(System.currentTimeMillis());
        ShowSnapshots snapshots = new ShowSnapshots(here, clock::get, 250); // the member's own refresh and full-read intervals
        opened.add(snapshots);
        ShowSnapshot before = snapshots.get(show);
        snapshots.loseChangeEvents(true);
        int block = blockOwnedByTheOtherMember(show);
        long now = clock.get();
        hold(there, show, "unheard-for-a-while", block, now + HOUR, now, 6);
        long read = snapshots.blocksRead();

        clock.addAndGet(ShowSnapshots.FULL_READ_MILLIS / 2 - 1); // the first full read comes in the interval's second half
        snapshots.refreshAll();
        assertSame(before, snapshots.get(show), "not read whole before half the interval");
        assertEquals(read, snapshots.blocksRead());

        clock.addAndGet(ShowSnapshots.FULL_READ_MILLIS / 2 + 1);
        snapshots.refreshAll();
        assertEquals(SeatState.Status.HELD, status(snapshots, show, block, 6));
        assertEquals(read + BLOCKS, snapshots.blocksRead(), "read whole once");
    }

    @Test
    void aHoldsChangeEventArrivingAfterThisMemberReleasedTheHold_doesNotMarkTheFreedSeatsTakenAgain() {
        Show show = loadedShow("snap-late");
        AtomicLong clock = new AtomicLong(System.currentTimeMillis());
        ShowSnapshots snapshots = snapshots(clock::get, HOUR, HOUR);
        snapshots.loseChangeEvents(true); // the events are delivered by hand, one of them late
        snapshots.get(show);
        int block = blockOwnedByTheOtherMember(show);
        long now = clock.get();
        hold(here, show, "held-then-released", block, now + HOUR, now, 3);
        SeatBlock afterHold = here.blocks(show).get(Inventory.key(show, block));
        snapshots.record(show, block, new int[] {3}, SeatState.Status.HELD);

        Seats seats = new Seats(here, new Allowances(members.get(0), repo), snapshots);
        seats.release(show, "held-then-released", "alice", java.util.Set.of(block), now, "alice", "released", false);
        assertEquals(SeatState.Status.AVAILABLE, status(snapshots, show, block, 3));

        snapshots.deliver(Inventory.key(show, block), afterHold); // the hold's event, late
        assertEquals(SeatState.Status.AVAILABLE, status(snapshots, show, block, 3),
                "an event older than this member's own release must not take the seat again");
    }

    @Test
    void aLiteMemberComingAndGoing_costsNoRead_whileADataMemberLeaving_hasTheShowReadWithinHalfAFullReadInterval()
            throws InterruptedException {
        Show show = loadedShow("snap-members");
        AtomicLong clock = new AtomicLong(System.currentTimeMillis());
        ShowSnapshots snapshots = snapshots(clock::get, HOUR, 10_000);
        snapshots.get(show);
        long read = snapshots.blocksRead();

        // a member warming up joins as a lite member, as a starting service does while it rehearses
        com.hazelcast.config.Config first = members.get(0).getConfig();
        List<String> peers = first.getNetworkConfig().getJoin().getTcpIpConfig().getMembers();
        int port = members.get(0).getCluster().getLocalMember().getAddress().getPort() + members.size();
        HazelcastInstance newcomer = org.boxoffice.grid.member.GridMember.start(
                GridSettings.loopback(first.getClusterName(), port, peers), TestStores.of(repo),
                "the same referee", org.boxoffice.grid.member.GridMember.Promotion.WHEN_WARM);
        try {
            awaitTrue(() -> members.get(0).getCluster().getMembers().size() == 3, 30_000);
            assertTrue(newcomer.getCluster().getLocalMember().isLiteMember());
            Thread.sleep(500); // the membership event reaches the listener on an event thread
            snapshots.refreshAll();
            assertEquals(read, snapshots.blocksRead(), "a lite member's arrival moves no data: nothing to read again");

            org.boxoffice.grid.member.GridMember.promote(newcomer);
            assertTrue(org.boxoffice.grid.member.GridMember.awaitSettled(newcomer, java.time.Duration.ofSeconds(30)));
        } finally {
            newcomer.shutdown(); // a data member leaves: change events in flight from it may be lost
        }
        awaitTrue(() -> members.get(0).getCluster().getMembers().size() == 2
                && members.get(0).getPartitionService().isClusterSafe(), 30_000);
        Thread.sleep(500);
        clock.addAndGet(5_000); // half the full-read interval: every watched show is due by now
        snapshots.refreshAll();
        assertEquals(read + BLOCKS, snapshots.blocksRead(), "the show is read whole once after a data member left");
    }

    @Test
    void anOutcomeRecordedHere_showsAtOnce_andTheNextRefreshReadsTheBlockWithIt() {
        Show show = loadedShow("snap-record");
        AtomicLong clock = new AtomicLong(System.currentTimeMillis());
        ShowSnapshots snapshots = snapshots(clock::get, HOUR, HOUR);
        snapshots.loseChangeEvents(true); // the block is read again because it was recorded, not because of its event
        ShowSnapshot before = snapshots.get(show);
        long now = clock.get();
        hold(here, show, "mine", 3, now + HOUR, now, 7, 8);

        snapshots.record(show, 3, new int[] {7, 8}, SeatState.Status.HELD);
        assertSame(before, snapshots.get(show));
        assertEquals(SeatState.Status.HELD, status(snapshots, show, 3, 8));
        assertEquals(before.gridVersion() + ".2", before.version());

        snapshots.refreshAll();
        ShowSnapshot after = snapshots.get(show);
        assertNotSame(before, after);
        assertEquals(SeatState.Status.HELD, after.status(show.layout().offset(3) + 7));
        assertEquals(SeatState.Status.HELD, after.status(show.layout().offset(3) + 8));
        assertEquals((before.gridVersion() + 2) + ".0", after.version());
    }
    @Test
    void markHeldIfFree_marksEverySeatOrNone_andOfTwoClaimsForASeatOnlyTheFirstGetsIt() {
        Show show = loadedShow("snap-mark-if-free");
        AtomicLong clock = new AtomicLong(System.currentTimeMillis());
        ShowSnapshots snapshots = snapshots(clock::get, HOUR, HOUR);
        snapshots.get(show);
        SortedMap<Integer, int[]> first = new TreeMap<>(Map.of(2, new int[] {3, 4}, 5, new int[] {0}));

        assertTrue(snapshots.markHeldIfFree(show, first));
        assertEquals(SeatState.Status.HELD, status(snapshots, show, 2, 3));
        assertEquals(SeatState.Status.HELD, status(snapshots, show, 5, 0));

        // overlaps the first in one seat of block 5: refused whole, its free seats stay free
        SortedMap<Integer, int[]> second = new TreeMap<>(Map.of(1, new int[] {6}, 5, new int[] {0, 1}));
        assertFalse(snapshots.markHeldIfFree(show, second));
        assertEquals(SeatState.Status.AVAILABLE, status(snapshots, show, 1, 6));
        assertEquals(SeatState.Status.AVAILABLE, status(snapshots, show, 5, 1));

        assertTrue(snapshots.markHeldIfFree(show, seats(5, 1)));
        // nothing was written to the grid: the next refresh reads the marked blocks and repaints them
        snapshots.refreshAll();
        assertEquals(SeatState.Status.AVAILABLE, status(snapshots, show, 2, 3));
        assertEquals(SeatState.Status.AVAILABLE, status(snapshots, show, 5, 0));
    }

    @Test
    void markHeldIfFree_withConcurrentClaimsForOneSeat_letsExactlyOneThrough() throws Exception {
        Show show = loadedShow("snap-mark-race");
        ShowSnapshots snapshots = snapshots(System::currentTimeMillis, HOUR, HOUR);
        snapshots.get(show);
        int threads = 8;
        for (int round = 0; round < 20; round++) {
            int seat = round % SEATS;
            int block = round / SEATS;
            java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
            java.util.concurrent.atomic.AtomicInteger won = new java.util.concurrent.atomic.AtomicInteger();
            List<Thread> racers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread racer = Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    if (snapshots.markHeldIfFree(show, seats(block, seat))) {
                        won.incrementAndGet();
                    }
                });
                racers.add(racer);
            }
            for (Thread racer : racers) {
                racer.join(10_000);
            }
            assertEquals(1, won.get(), "round " + round + ": one claim marks the seat, the others find it taken");
        }
    }
}
