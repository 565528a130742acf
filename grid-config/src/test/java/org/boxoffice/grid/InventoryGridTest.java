package org.boxoffice.grid;

import com.hazelcast.core.HazelcastInstance;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.Show;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Claims through three real members (one JVM, loopback) against an in-memory referee. */
class InventoryGridTest {

    private static final InMemoryInventoryRepository repo = new InMemoryInventoryRepository();
    private static List<HazelcastInstance> members;
    private static List<Inventory> inventories;

    @BeforeAll
    static void start() {
        members = TestGrid.start(3, repo);
        inventories = members.stream().map(Inventory::new).toList();
    }

    @AfterAll
    static void stop() {
        members.forEach(HazelcastInstance::shutdown);
    }

    private static SortedMap<Integer, int[]> seats(int block, int... idx) {
        SortedMap<Integer, int[]> m = new TreeMap<>();
        m.put(block, idx);
        return m;
    }

    @Test
    void concurrentClaims_neverHoldASeatTwice_andEveryAcknowledgedHoldIsInTheReferee() throws Exception {
        Show show = TestGrid.show("contended", 8, 40, 4, repo);
        Map<String, SortedMap<Integer, int[]>> acknowledged = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(32);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 32; t++) {
            futures.add(pool.submit(() -> {
                ThreadLocalRandom r = ThreadLocalRandom.current();
                for (int a = 0; a < 150; a++) {
                    int block = r.nextInt(8);
                    int n = 1 + r.nextInt(3);
                    int first = r.nextInt(40 - n + 1);
                    SortedMap<Integer, int[]> want = new TreeMap<>();
                    want.put(block, java.util.stream.IntStream.range(first, first + n).toArray());
                    if (r.nextInt(5) == 0 && block < 7) {
                        want.put(block + 1, new int[] {r.nextInt(40)});
                    }
                    String holdId = UUID.randomUUID().toString();
                    Inventory inv = inventories.get(r.nextInt(inventories.size()));
                    if (inv.hold(show, holdId, "acct" + r.nextInt(100), want, Long.MAX_VALUE / 2, 1_000, new String[0])
                            instanceof Inventory.ClaimResult.Held) {
                        acknowledged.put(holdId, want);
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get(2, TimeUnit.MINUTES);
        }
        pool.shutdown();

        Map<String, String> owner = new HashMap<>();
        acknowledged.forEach((holdId, want) -> want.forEach((block, idx) -> {
            for (int i : idx) {
                String previous = owner.put(block + ":" + i, holdId);
                assertEquals(null, previous, "seat " + block + ":" + i + " acknowledged to two holds");
            }
        }));
        assertTrue(acknowledged.size() > 20, "some claims must succeed: " + acknowledged.size());
        Map<BlockKey, SeatBlock> grid = inventories.get(0).blocks(show);
        acknowledged.forEach((holdId, want) -> want.forEach((block, idx) -> {
            for (int i : idx) {
                assertEquals(holdId, ((SeatState.Held) repo.stored(show.showId(), block).state(i)).holdId());
                assertEquals(holdId, ((SeatState.Held) grid.get(Inventory.key(show, block)).state(i)).holdId());
            }
        }));
        for (int b = 0; b < 8; b++) {
            SeatBlock stored = repo.stored(show.showId(), b);
            for (int i = 0; i < 40; i++) {
                if (stored.status(i) == SeatState.Status.HELD) {
                    assertTrue(acknowledged.containsKey(((SeatState.Held) stored.state(i)).holdId()),
                            "a seat is held in the referee by a hold nobody was told about");
                }
            }
        }
    }

    @Test
    void aHoldSpanningBlocks_isAllOrNothing() {
        Show show = TestGrid.show("spanning", 2, 10, 2, repo);
        Inventory inv = inventories.get(0);
        assertInstanceOf(Inventory.ClaimResult.Held.class, inv.hold(show, "first", "bob", seats(1, 5), 99_999, 1, new String[0]));

        SortedMap<Integer, int[]> both = seats(0, 1, 2);
        both.put(1, new int[] {5, 6});
        Inventory.ClaimResult result = inv.hold(show, "second", "alice", both, 99_999, 1, new String[0]);

        Inventory.ClaimResult.Rejected rejected = assertInstanceOf(Inventory.ClaimResult.Rejected.class, result);
        assertEquals(Rejection.SEATS_UNAVAILABLE, rejected.reason());
        assertEquals(SeatState.Status.AVAILABLE, repo.stored("spanning", 0).status(1));
        assertEquals(SeatState.Status.AVAILABLE, inv.blocks(show).get(Inventory.key(show, 0)).status(2));
    }

    @Test
    void theRefereeWins_whenASeatChangedBehindTheGridsBack() {
        Show show = TestGrid.show("referee", 1, 10, 1, repo);
        Inventory inv = inventories.get(1);
        inv.blocks(show); // load into the grid
        repo.tamper("referee", 0, 3, new SeatState.Held("offline-sale", "boxoffice-window", Long.MAX_VALUE / 2));
        int refusedBefore = repo.refused.get();

        Inventory.ClaimResult result = inv.hold(show, "h", "alice", seats(0, 3, 4), 99_999, 1, new String[0]);

        assertInstanceOf(Inventory.ClaimResult.Rejected.class, result);
        assertEquals(refusedBefore + 1, repo.refused.get(), "the first attempt was refused by the referee");
        SeatBlock reloaded = inv.blocks(show).get(Inventory.key(show, 0));
        assertEquals("offline-sale", ((SeatState.Held) reloaded.state(3)).holdId());
        assertEquals(SeatState.Status.AVAILABLE, reloaded.status(4));
        assertInstanceOf(Inventory.ClaimResult.Held.class, inv.hold(show, "h2", "alice", seats(0, 4), 99_999, 2, new String[0]));
    }

    @Test
    void sweeper_releasesLapsedHolds_withoutAnyRequestTouchingTheShow() throws Exception {
        Show show = TestGrid.show("sweep", 2, 10, 2, repo);
        long start = System.currentTimeMillis();
        inventories.get(0).hold(show, "short", "alice", seats(1, 0, 1), start + 300, start, new String[0]);
        List<HoldSweeper> sweepers = members.stream()
                .map(m -> new HoldSweeper(m, seatsOf(m), repo, id -> Optional.of(show), System::currentTimeMillis)
                        .start(100, 60_000))
                .toList();
        try {
            long deadline = System.currentTimeMillis() + 10_000;
            while (repo.stored("sweep", 1).status(0) != SeatState.Status.AVAILABLE && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
            long returnedAt = System.currentTimeMillis();
            assertEquals(SeatState.Status.AVAILABLE, repo.stored("sweep", 1).status(1));
            assertTrue(returnedAt - (start + 300 + show.policy().graceMillis()) < 2_000,
                    "back on sale within 2 s of expiry plus grace");
            assertInstanceOf(Inventory.ClaimResult.Held.class,
                    inventories.get(2).hold(show, "next", "bob", seats(1, 0, 1), returnedAt + 60_000, returnedAt, new String[0]));
        } finally {
            sweepers.forEach(HoldSweeper::close);
        }
    }

    @Test
    void reconciliation_expiresHoldsInBlocksTheGridNeverLoaded() throws InterruptedException {
        Show show = TestGrid.show("reconcile", 1, 10, 1, repo);
        long deadline = System.currentTimeMillis() + 30_000;
        while (!members.get(0).getPartitionService().isClusterSafe() && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        repo.tamper("reconcile", 0, 2, new SeatState.Held("old", "carol", 1_000));
        java.util.function.Function<String, Optional<Show>> shows = id -> id.equals("reconcile") ? Optional.of(show) : Optional.empty();
        List<HoldSweeper> sweepers = members.stream()
                .map(m -> new HoldSweeper(m, seatsOf(m), repo, shows, () -> 1_000_000L).reconcileSlack(0))
                .toList();
        // each member reconciles the blocks it owns; a round may skip a block whose partition is moving
        deadline = System.currentTimeMillis() + 20_000;
        while (repo.stored("reconcile", 0).status(2) != SeatState.Status.AVAILABLE && System.currentTimeMillis() < deadline) {
            sweepers.forEach(HoldSweeper::reconcileOnce);
            Thread.sleep(50);
        }
        sweepers.forEach(HoldSweeper::close);

        assertEquals(SeatState.Status.AVAILABLE, repo.stored("reconcile", 0).status(2));
    }

    /** The member's {@link Seats}, as the service builds it. */
    private static Seats seatsOf(HazelcastInstance member) {
        Inventory inventory = new Inventory(member);
        return new Seats(inventory, new Allowances(member), new ShowSnapshots(inventory, System::currentTimeMillis, 250));
    }
}
