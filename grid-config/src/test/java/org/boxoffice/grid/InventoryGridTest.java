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

    /**
     * Claims on one block that arrive while a claim on it is in flight (its store paused) wait, then
     * go to the grid together in one call and one store: each decided on its own, in arrival order.
     */
    @Test
    void claimsQueuedBehindOneInFlight_goTogether_eachDecidedOnItsOwn_andAllDurable() throws Exception {
        Show show = TestGrid.show("combined", 2, 40, 1, repo);
        Inventory inv = inventories.get(0);
        inv.blocks(show);
        Inventory.ClaimStats before = inv.claimStats();
        int appliedBefore = repo.applied.get();
        List<int[]> queued = List.of(new int[] {2, 3}, new int[] {4}, new int[] {1, 5}, new int[] {6, 7}, new int[] {7, 8},
                new int[] {9});
        ExecutorService pool = Executors.newCachedThreadPool();
        Map<String, Future<Inventory.ClaimResult>> claims = new java.util.LinkedHashMap<>();
        repo.pauseStores();
        try {
            claims.put("first", pool.submit(() -> inv.hold(show, "first", "acct-0", seats(0, 0, 1), Long.MAX_VALUE / 2,
                    1_000, new String[0])));
            awaitTrue(() -> repo.storesWaiting.get() == 1, "the first claim's store is in flight");
            for (int i = 0; i < queued.size(); i++) {
                int[] idx = queued.get(i);
                String holdId = "queued-" + i;
                claims.put(holdId, pool.submit(() -> inv.hold(show, holdId, "acct-" + holdId, seats(0, idx),
                        Long.MAX_VALUE / 2, 1_000, new String[0])));
                int waiting = i + 1;
                awaitTrue(() -> inv.claimsWaiting(show, 0) == waiting, "claim " + holdId + " waits behind the first");
            }
        } finally {
            repo.resumeStores();
        }
        Map<String, Inventory.ClaimResult> results = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, Future<Inventory.ClaimResult>> e : claims.entrySet()) {
            results.put(e.getKey(), e.getValue().get(30, TimeUnit.SECONDS));
        }
        pool.shutdown();

        List<String> held = results.entrySet().stream().filter(e -> e.getValue() instanceof Inventory.ClaimResult.Held)
                .map(Map.Entry::getKey).toList();
        assertEquals(List.of("first", "queued-0", "queued-1", "queued-3", "queued-5"), held,
                "in arrival order: a claim on a seat an earlier claim took is refused");
        assertEquals(Rejection.SEATS_UNAVAILABLE, ((Inventory.ClaimResult.Rejected) results.get("queued-2")).reason());
        assertTrue(java.util.Arrays.equals(new int[] {1},
                ((Inventory.ClaimResult.Rejected) results.get("queued-2")).seatsByBlock().get(0)));
        assertTrue(java.util.Arrays.equals(new int[] {7},
                ((Inventory.ClaimResult.Rejected) results.get("queued-4")).seatsByBlock().get(0)));
        Inventory.ClaimStats after = inv.claimStats();
        assertEquals(2, after.calls() - before.calls(), "the first alone, then the six queued in one call");
        assertEquals(7, after.claims() - before.claims());
        assertEquals(5, repo.applied.get() - appliedBefore, "every claim that held was stored, one transition each");
        SeatBlock stored = repo.stored(show.showId(), 0);
        SeatBlock grid = inv.blocks(show).get(Inventory.key(show, 0));
        for (String holdId : held) {
            int[] idx = holdId.equals("first") ? new int[] {0, 1} : queued.get(Integer.parseInt(holdId.substring(7)));
            for (int i : idx) {
                assertEquals(holdId, ((SeatState.Held) stored.state(i)).holdId(), "seat " + i + " in the referee");
                assertEquals(holdId, ((SeatState.Held) grid.state(i)).holdId(), "seat " + i + " on the grid");
            }
        }
        assertEquals(SeatState.Status.AVAILABLE, stored.status(8), "a refused claim's other seats stay free");
    }

    /** A combined call whose store the referee refuses as stale is decided again against the referee's state. */
    @Test
    void aCombinedCallTheRefereeRefuses_isDecidedAgainOnTheRefereesState() throws Exception {
        Show show = TestGrid.show("combined-stale", 1, 20, 1, repo);
        Inventory inv = inventories.get(1);
        inv.blocks(show);
        ExecutorService pool = Executors.newCachedThreadPool();
        Map<String, Future<Inventory.ClaimResult>> claims = new java.util.LinkedHashMap<>();
        repo.pauseStores();
        try {
            claims.put("first", pool.submit(() -> inv.hold(show, "s-first", "acct-a", seats(0, 0), Long.MAX_VALUE / 2,
                    1_000, new String[0])));
            awaitTrue(() -> repo.storesWaiting.get() == 1, "the first claim's store is in flight");
            claims.put("mine", pool.submit(() -> inv.hold(show, "s-mine", "acct-b", seats(0, 5), Long.MAX_VALUE / 2,
                    1_000, new String[0])));
            awaitTrue(() -> inv.claimsWaiting(show, 0) == 1, "the second claim waits");
            claims.put("other", pool.submit(() -> inv.hold(show, "s-other", "acct-c", seats(0, 6), Long.MAX_VALUE / 2,
                    1_000, new String[0])));
            awaitTrue(() -> inv.claimsWaiting(show, 0) == 2, "the third claim waits");
            // seat 5 is taken behind the grid's back: the combined store is stale
            repo.tamper(show.showId(), 0, 5, new SeatState.Held("elsewhere", "acct-x", Long.MAX_VALUE / 2));
        } finally {
            repo.resumeStores();
        }
        assertInstanceOf(Inventory.ClaimResult.Held.class, claims.get("first").get(30, TimeUnit.SECONDS));
        assertInstanceOf(Inventory.ClaimResult.Rejected.class, claims.get("mine").get(30, TimeUnit.SECONDS));
        assertInstanceOf(Inventory.ClaimResult.Held.class, claims.get("other").get(30, TimeUnit.SECONDS),
                "the other claim of the refused call holds once decided on the reloaded block");
        pool.shutdown();
        SeatBlock stored = repo.stored(show.showId(), 0);
        assertEquals("elsewhere", ((SeatState.Held) stored.state(5)).holdId());
        assertEquals("s-other", ((SeatState.Held) stored.state(6)).holdId());
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(5);
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
            // the sweeper passes every 100 ms, the reconciliation every 60 s: well within 5 s, even on a
            // loaded machine, is the sweeper's doing
            assertTrue(returnedAt - (start + 300 + show.policy().graceMillis()) < 5_000,
                    "back on sale within 5 s of expiry plus grace");
            assertInstanceOf(Inventory.ClaimResult.Held.class,
                    inventories.get(2).hold(show, "next", "bob", seats(1, 0, 1), returnedAt + 60_000, returnedAt, new String[0]));
        } finally {
            sweepers.forEach(HoldSweeper::close);
        }
    }

    @Test
    void sweeper_betweenFullScans_findsLapsedHoldsThroughTheChangesItFollowed() throws Exception {
        Show show = TestGrid.show("calendar", 2, 10, 2, repo);
        List<HoldSweeper> sweepers = members.stream()
                .map(m -> new HoldSweeper(m, seatsOf(m), repo, id -> Optional.of(show), System::currentTimeMillis)
                        .start(100, 60_000))
                .toList();
        try {
            long deadline = System.currentTimeMillis() + 10_000;
            while (sweepers.stream().anyMatch(s -> s.fullScans() == 0) && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            long scansBefore = sweepers.stream().mapToLong(HoldSweeper::fullScans).sum();
            long start = System.currentTimeMillis();
            inventories.get(1).hold(show, "brief", "alice", seats(0, 3, 4), start + 300, start, new String[0]);
            deadline = System.currentTimeMillis() + 10_000;
            while (repo.stored("calendar", 0).status(3) != SeatState.Status.AVAILABLE && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            long returnedAt = System.currentTimeMillis();
            assertEquals(SeatState.Status.AVAILABLE, repo.stored("calendar", 0).status(4));
            // the sweeper passes every 100 ms, the reconciliation every 60 s: well within 5 s, even on a
            // loaded machine, is the sweeper's doing
            assertTrue(returnedAt - (start + 300 + show.policy().graceMillis()) < 5_000,
                    "back on sale within 5 s of expiry plus grace");
            assertEquals(scansBefore, sweepers.stream().mapToLong(HoldSweeper::fullScans).sum(),
                    "found by the calendar, with no full scan since the hold was made");
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
        int loadsBefore = repo.loads.get();
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
        assertEquals(1, repo.loads.get() - loadsBefore,
                "the cold block read once, onto its owner and its backup, before it was expired (not again by the backup)");
    }

    /** The member's {@link Seats}, as the service builds it. */
    private static Seats seatsOf(HazelcastInstance member) {
        Inventory inventory = new Inventory(member);
        return new Seats(inventory, new Allowances(member, repo), new ShowSnapshots(inventory, System::currentTimeMillis, 250));
    }

    @Test
    void aPreloadedShow_isOnItsOwnersAndItsBackups_soClaimsReadNothingMore() {
        Show show = TestGrid.show("preloaded", 12, 10, 4, repo);
        Show cold = TestGrid.show("cold", 12, 10, 4, repo);
        int before = repo.loads.get();
        long owned = entries(true);
        long backups = entries(false);
        assertTrue(inventories.get(0).preload(show));
        assertEquals(12, repo.loads.get() - before, "every block read once");
        assertEquals(12, entries(true) - owned, "on its owners");
        assertEquals(12, entries(false) - backups, "and on its backups");

        int loaded = repo.loads.get();
        for (int b = 0; b < 12; b++) {
            assertInstanceOf(Inventory.ClaimResult.Held.class, inventories.get(b % 3)
                    .hold(show, "pre-" + b, "acct", seats(b, 1), Long.MAX_VALUE / 2, 1_000, new String[0]));
        }
        assertEquals(loaded, repo.loads.get(), "no block read again, by an owner or a backup");

        // what preloading saves: a show first claimed cold is read by the owners and again by the backups
        for (int b = 0; b < 12; b++) {
            inventories.get(b % 3).hold(cold, "cold-" + b, "acct", seats(b, 1), Long.MAX_VALUE / 2, 1_000, new String[0]);
        }
        assertEquals(24, repo.loads.get() - loaded, "each cold block read by its owner and by its backup");
    }

    @Test
    void aPreload_keepsABlockAClaimChangedFirst() {
        Show show = TestGrid.show("claimed-first", 4, 10, 4, repo);
        assertInstanceOf(Inventory.ClaimResult.Held.class, inventories.get(1)
                .hold(show, "first", "acct", seats(2, 3), Long.MAX_VALUE / 2, 1_000, new String[0]));
        inventories.get(0).preload(show);
        assertInstanceOf(Inventory.ClaimResult.Rejected.class, inventories.get(2)
                .hold(show, "second", "acct2", seats(2, 3), Long.MAX_VALUE / 2, 1_000, new String[0]),
                "the claim made before the preload still holds the seat");
    }

    /** Inventory entries the members own ({@code owned}) or keep as backups, all shows together. */
    private static long entries(boolean owned) {
        long n = 0;
        for (HazelcastInstance m : members) {
            com.hazelcast.map.LocalMapStats stats = m.getMap(GridMaps.INVENTORY).getLocalMapStats();
            n += owned ? stats.getOwnedEntryCount() : stats.getBackupEntryCount();
        }
        return n;
    }
}
