package org.boxoffice.mapstore;

import static org.boxoffice.mapstore.TestShows.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.boxoffice.domain.AccountAllowance;
import org.boxoffice.domain.BlockDecision;
import org.boxoffice.domain.HoldRecord;
import org.boxoffice.domain.HoldStatus;
import org.boxoffice.domain.InventoryRepository.BlockId;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.StaleInventoryException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PostgresInventoryRepositoryTest {

    private static final long GRACE = 5_000;
    private static final long EXPIRES = T0 + 600_000;
    private static final AtomicInteger SHOWS = new AtomicInteger();

    private static HikariDataSource db;
    private static PostgresCatalogRepository catalog;
    private static PostgresInventoryRepository inventory;

    @BeforeAll
    static void database() {
        db = TestDatabase.newDataSource(4);
        catalog = new PostgresCatalogRepository(db);
        inventory = new PostgresInventoryRepository(db);
    }

    @AfterAll
    static void close() {
        db.close();
    }

    // ---------------------------------------------------------------- every kind, applied and audited

    @Test
    void apply_hold_movesTheSeatsToHeld_recordsTheHold_andAuditsEachSeat() throws SQLException {
        Show show = newShow();
        String hold = show.showId() + "-h1";

        inventory.apply(hold(block(show, 0), hold, "acc-1", show, 0, 1));

        assertEquals(new SeatRow("HELD", hold, "acc-1", EXPIRES, null, 1), seat(show, "A-1-1"));
        assertEquals(new SeatRow("HELD", hold, "acc-1", EXPIRES, null, 1), seat(show, "A-1-2"));
        assertEquals(new SeatRow("AVAILABLE", null, null, null, null, 0), seat(show, "A-1-3"));
        assertEquals(Optional.of(new HoldRecord(hold, show.showId(), "acc-1", List.of("A-1-1", "A-1-2"),
                EXPIRES, HoldStatus.ACTIVE, T0, 10_000, "EUR")), inventory.findHold(hold));
        assertEquals(List.of(new Audit("HOLD", hold, null, "AVAILABLE", "HELD", 0, 1, "acc-1", "hold", T0)),
                audit(show, "A-1-1"));
        assertEquals(1, audit(show, "A-1-2").size());
        assertEquals(List.of(), audit(show, "A-1-3"));
    }

    @Test
    void versionSums_countEveryTransitionOfEverySeat_perBlock() {
        Show show = newShow();
        java.util.Map<Integer, Long> before = inventory.versionSums(show.showId());
        String hold = show.showId() + "-h1";

        inventory.apply(hold(block(show, 0), hold, "acc-1", show, 0, 1));

        java.util.Map<Integer, Long> after = inventory.versionSums(show.showId());
        assertEquals(before.keySet(), after.keySet(), "every block of the show, changed or not");
        assertEquals(before.get(0) + 2, after.get(0), "two seats moved once each");
        before.keySet().stream().filter(b -> b != 0).forEach(b -> assertEquals(before.get(b), after.get(b)));
        assertEquals(java.util.Map.of(), inventory.versionSums("no-such-show"));
    }

    @Test
    void apply_hold_spanningTwoBlocks_recordsOneHoldWithTheWholeHoldsSeatsAndTotal() throws SQLException {
        Show show = newShow();
        String hold = show.showId() + "-h1";
        String[] seatIds = {"A-1-1", "B-1-1"};

        inventory.apply(changed(block(show, 0).hold(hold, "acc-1", new int[] {0}, EXPIRES, T0, GRACE, seatIds)));
        inventory.apply(changed(block(show, 1).hold(hold, "acc-1", new int[] {0}, EXPIRES, T0, GRACE, seatIds)));

        assertEquals("HELD", seat(show, "A-1-1").state());
        assertEquals("HELD", seat(show, "B-1-1").state());
        HoldRecord record = inventory.findHold(hold).orElseThrow();
        assertEquals(List.of("A-1-1", "B-1-1"), record.seatIds());
        assertEquals(8_000, record.totalCents());
    }

    @Test
    void apply_release_returnsTheSeatsToSale_andMarksTheHoldReleased() throws SQLException {
        Show show = newShow();
        String hold = show.showId() + "-h1";
        SeatBlock held = hold(block(show, 0), hold, "acc-1", show, 0, 1);
        inventory.apply(held);

        inventory.apply(changed(held.release(hold, T0 + 1_000, "acc-1", "changed my mind")));

        assertEquals(new SeatRow("AVAILABLE", null, null, null, null, 2), seat(show, "A-1-1"));
        assertEquals(new SeatRow("AVAILABLE", null, null, null, null, 2), seat(show, "A-1-2"));
        assertEquals(HoldStatus.RELEASED, inventory.findHold(hold).orElseThrow().status());
        assertEquals(new Audit("RELEASE", hold, null, "HELD", "AVAILABLE", 1, 2, "acc-1", "changed my mind",
                T0 + 1_000), audit(show, "A-1-2").get(1));
    }

    @Test
    void apply_expire_returnsLapsedSeatsToSale_andMarksTheHoldExpired() throws SQLException {
        Show show = newShow();
        String hold = show.showId() + "-h1";
        SeatBlock held = hold(block(show, 0), hold, "acc-1", show, 0, 1);
        inventory.apply(held);

        inventory.apply(changed(held.expire(EXPIRES + GRACE, GRACE)));

        assertEquals(new SeatRow("AVAILABLE", null, null, null, null, 2), seat(show, "A-1-1"));
        assertEquals(HoldStatus.EXPIRED, inventory.findHold(hold).orElseThrow().status());
        assertEquals(new Audit("EXPIRE", hold, null, "HELD", "AVAILABLE", 1, 2, "system:sweeper", "expired",
                EXPIRES + GRACE), audit(show, "A-1-1").get(1));
    }

    @Test
    void apply_hold_overALapsedHold_takesTheSeat_andExpiresTheDisplacedHold() throws SQLException {
        Show show = newShow();
        String first = show.showId() + "-h1";
        String second = show.showId() + "-h2";
        SeatBlock held = hold(block(show, 0), first, "acc-1", show, 0, 1);
        inventory.apply(held);
        long later = EXPIRES + GRACE;

        inventory.apply(changed(held.hold(second, "acc-2", new int[] {0}, later + 600_000, later, GRACE,
                new String[] {"A-1-1"})));

        assertEquals(new SeatRow("HELD", second, "acc-2", later + 600_000, null, 2), seat(show, "A-1-1"));
        assertEquals(HoldStatus.EXPIRED, inventory.findHold(first).orElseThrow().status());
        assertEquals(HoldStatus.ACTIVE, inventory.findHold(second).orElseThrow().status());
        assertEquals(new Audit("HOLD", second, null, "HELD", "HELD", 1, 2, "acc-2", "hold", later),
                audit(show, "A-1-1").get(1));
    }

    @Test
    void apply_extend_movesTheExpiry_andFlagsTheHoldExtended() throws SQLException {
        Show show = newShow();
        String hold = show.showId() + "-h1";
        SeatBlock held = hold(block(show, 0), hold, "acc-1", show, 0, 1);
        inventory.apply(held);

        inventory.apply(changed(held.extend(hold, EXPIRES + 300_000, T0 + 1_000, GRACE)));

        assertEquals(new SeatRow("HELD", hold, "acc-1", EXPIRES + 300_000, null, 2), seat(show, "A-1-2"));
        assertEquals(EXPIRES + 300_000, inventory.findHold(hold).orElseThrow().expiresAt());
        assertEquals(1, count("SELECT count(*) FROM holds WHERE hold_id = '" + hold + "' AND extended"));
        assertEquals(new Audit("EXTEND", hold, null, "HELD", "HELD", 1, 2, "acc-1", "payment started",
                T0 + 1_000), audit(show, "A-1-2").get(1));
    }

    @Test
    void apply_confirm_sellsTheSeatsToTheBooking_keepingTheBuyer_andConfirmsTheHold() throws SQLException {
        Show show = newShow();
        String hold = show.showId() + "-h1";
        SeatBlock held = hold(block(show, 0), hold, "acc-1", show, 0, 1);
        inventory.apply(held);

        inventory.apply(changed(held.confirm(hold, new int[] {0, 1}, 4242, T0 + 1_000, GRACE)));

        assertEquals(new SeatRow("SOLD", hold, "acc-1", null, 4242L, 2), seat(show, "A-1-1"));
        assertEquals(new SeatRow("SOLD", hold, "acc-1", null, 4242L, 2), seat(show, "A-1-2"));
        assertEquals(HoldStatus.CONFIRMED, inventory.findHold(hold).orElseThrow().status());
        assertEquals(new Audit("CONFIRM", hold, 4242L, "HELD", "SOLD", 1, 2, "acc-1", "payment captured",
                T0 + 1_000), audit(show, "A-1-1").get(1));
    }

    @Test
    void apply_cancel_returnsSoldSeatsToSale_andAuditsTheCancelledBooking() throws SQLException {
        Show show = newShow();
        String hold = show.showId() + "-h1";
        SeatBlock held = hold(block(show, 0), hold, "acc-1", show, 0, 1);
        SeatBlock sold = changed(held.confirm(hold, new int[] {0, 1}, 4242, T0 + 1_000, GRACE));
        inventory.apply(held);
        inventory.apply(sold);

        inventory.apply(changed(sold.cancel(4242, T0 + 2_000, "admin:ops", "refunded")));

        assertEquals(new SeatRow("AVAILABLE", null, null, null, null, 3), seat(show, "A-1-1"));
        assertEquals(HoldStatus.CONFIRMED, inventory.findHold(hold).orElseThrow().status());
        assertEquals(new Audit("CANCEL", null, 4242L, "SOLD", "AVAILABLE", 2, 3, "admin:ops", "refunded",
                T0 + 2_000), audit(show, "A-1-1").get(2));
    }

    @Test
    void apply_blockAndUnblock_takeSeatsOffSaleAndBack() throws SQLException {
        Show show = newShow();
        SeatBlock blocked = changed(block(show, 0).block(new int[] {2, 3}, T0, "admin:ops", "camera"));
        inventory.apply(blocked);

        assertEquals(new SeatRow("BLOCKED", null, null, null, null, 1), seat(show, "A-1-3"));

        inventory.apply(changed(blocked.unblock(new int[] {2, 3}, T0 + 1_000, "admin:ops", "camera moved")));

        assertEquals(new SeatRow("AVAILABLE", null, null, null, null, 2), seat(show, "A-1-4"));
        assertEquals(List.of(
                new Audit("BLOCK", null, null, "AVAILABLE", "BLOCKED", 0, 1, "admin:ops", "camera", T0),
                new Audit("UNBLOCK", null, null, "BLOCKED", "AVAILABLE", 1, 2, "admin:ops", "camera moved", T0 + 1_000)),
                audit(show, "A-1-3"));
    }

    @Test
    void apply_block_ofAHeldSeat_clearsTheHoldFromTheSeat_andEndsTheHold() throws SQLException {
        Show show = newShow();
        String hold = show.showId() + "-h1";
        SeatBlock held = hold(block(show, 0), hold, "acc-1", show, 0, 1);
        inventory.apply(held);

        inventory.apply(changed(held.block(new int[] {1}, T0 + 1_000, "admin:ops", "broken seat")));

        assertEquals(new SeatRow("BLOCKED", null, null, null, null, 2), seat(show, "A-1-2"));
        assertEquals(HoldStatus.EXPIRED, inventory.findHold(hold).orElseThrow().status());
        assertEquals(hold, audit(show, "A-1-2").get(1).holdId());
    }

    // ---------------------------------------------------------------- the referee

    @Test
    void apply_rejectsHold_whenSeatVersionMovedBehindTheGrid_andWritesNothing() throws SQLException {
        Show show = newShow();
        SeatBlock snapshot = block(show, 0);
        inventory.apply(hold(snapshot, show.showId() + "-winner", "acc-1", show, 0));
        SeatBlock stale = hold(snapshot, show.showId() + "-loser", "acc-2", show, 1, 0);

        assertThrows(StaleInventoryException.class, () -> inventory.apply(stale));

        // seat 1 matched its expected version, yet the whole transition was refused
        assertEquals(new SeatRow("AVAILABLE", null, null, null, null, 0), seat(show, "A-1-2"));
        assertEquals(show.showId() + "-winner", seat(show, "A-1-1").holdId());
        assertEquals(List.of(), audit(show, "A-1-2"));
        assertEquals(1, audit(show, "A-1-1").size());
        assertEquals(Optional.empty(), inventory.findHold(show.showId() + "-loser"));
    }

    @Test
    void apply_rejectsConfirm_whenTheSeatIsHeldByAnotherHoldAtTheExpectedVersion() throws SQLException {
        Show show = newShow();
        String hold = show.showId() + "-h1";
        SeatBlock held = hold(block(show, 0), hold, "acc-1", show, 0);
        inventory.apply(held);
        execute("UPDATE seats SET hold_id = 'someone-else' WHERE show_id = '" + show.showId() + "' AND idx = 0");

        assertThrows(StaleInventoryException.class,
                () -> inventory.apply(changed(held.confirm(hold, new int[] {0}, 7, T0 + 1_000, GRACE))));

        assertEquals("HELD", seat(show, "A-1-1").state());
        assertEquals(HoldStatus.ACTIVE, inventory.findHold(hold).orElseThrow().status());
    }

    @Test
    void apply_isANoOp_whenTheTransitionIsAlreadyApplied() throws SQLException {
        Show show = newShow();
        String hold = show.showId() + "-h1";
        SeatBlock held = hold(block(show, 0), hold, "acc-1", show, 0, 1);
        SeatBlock sold = changed(held.confirm(hold, new int[] {0, 1}, 99, T0 + 1_000, GRACE));
        inventory.apply(held);
        inventory.apply(held);
        inventory.apply(sold);

        inventory.apply(sold);

        assertEquals(new SeatRow("SOLD", hold, "acc-1", null, 99L, 2), seat(show, "A-1-1"));
        assertEquals(2, audit(show, "A-1-1").size());
    }

    @Test
    void apply_rejectsAReplayedTransition_onceTheSeatsHaveMovedOn() {
        Show show = newShow();
        String hold = show.showId() + "-h1";
        SeatBlock held = hold(block(show, 0), hold, "acc-1", show, 0, 1);
        inventory.apply(held);
        inventory.apply(changed(held.release(hold, T0 + 1_000, "acc-1", "released")));

        assertThrows(StaleInventoryException.class, () -> inventory.apply(held));
    }

    @Test
    void apply_doesNothing_whenTheBlockCarriesNoTransition() throws SQLException {
        Show show = newShow();

        inventory.apply(block(show, 0));

        assertEquals(0, count("SELECT count(*) FROM seat_events WHERE show_id = '" + show.showId() + "'"));
    }

    @Test
    void apply_letsExactlyOneOfTwoConcurrentClaimsOnASeatWin() throws Exception {
        Show show = TestShows.save(catalog, TestShows.stadium("inv-race-" + SHOWS.incrementAndGet(), 1, 1, 40));
        SeatBlock snapshot = block(show, 0);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int seat = 0; seat < 40; seat++) {
                SeatBlock a = hold(snapshot, show.showId() + "-a" + seat, "acc-a", show, seat);
                SeatBlock b = hold(snapshot, show.showId() + "-b" + seat, "acc-b", show, seat);
                CyclicBarrier start = new CyclicBarrier(2);
                List<Future<Boolean>> outcomes = pool.invokeAll(List.of(claim(start, a), claim(start, b)));

                int wins = 0;
                for (Future<Boolean> outcome : outcomes) {
                    wins += outcome.get() ? 1 : 0;
                }
                assertEquals(1, wins, "seat " + seat);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(40, count("SELECT count(*) FROM seats WHERE show_id = '" + show.showId()
                + "' AND state = 'HELD' AND version = 1"));
        assertEquals(40, count("SELECT count(*) FROM seat_events WHERE show_id = '" + show.showId() + "'"));
        assertEquals(40, count("SELECT count(*) FROM holds WHERE show_id = '" + show.showId() + "'"));
    }

    @Test
    void apply_writesASameTransitionOnce_whenTwoStoresApplyItAtOnce() throws Exception {
        Show show = TestShows.save(catalog, TestShows.stadium("inv-twice-" + SHOWS.incrementAndGet(), 1, 1, 20));
        SeatBlock snapshot = block(show, 0);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int seat = 0; seat < 20; seat++) {
                SeatBlock held = hold(snapshot, show.showId() + "-h" + seat, "acc-1", show, seat);
                CyclicBarrier start = new CyclicBarrier(2);
                for (Future<Boolean> outcome : pool.invokeAll(List.of(claim(start, held), claim(start, held)))) {
                    assertTrue(outcome.get(), "seat " + seat);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(20, count("SELECT count(*) FROM seat_events WHERE show_id = '" + show.showId() + "'"));
    }

    /** Stores every value of {@code all} from its own thread, all released at once; per value, whether it was stored. */
    private static List<Boolean> storeAllAtOnce(List<SeatBlock> all) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(all.size());
        try {
            CyclicBarrier start = new CyclicBarrier(all.size());
            List<Future<Boolean>> outcomes = new ArrayList<>();
            for (SeatBlock next : all) {
                outcomes.add(pool.submit(claim(start, next)));
            }
            List<Boolean> stored = new ArrayList<>();
            for (Future<Boolean> f : outcomes) {
                stored.add(f.get());
            }
            return stored;
        } finally {
            pool.shutdownNow();
        }
    }

    private static Callable<Boolean> claim(CyclicBarrier start, SeatBlock next) {
        return () -> {
            start.await();
            try {
                inventory.apply(next);
                return true;
            } catch (StaleInventoryException e) {
                return false;
            }
        };
    }

    // ---------------------------------------------------------------- reads

    @Test
    void load_restoresHeldSoldBlockedAndAvailableSeats_withTheirVersions() {
        Show show = newShow();
        String h1 = show.showId() + "-h1";
        String h2 = show.showId() + "-h2";
        String h3 = show.showId() + "-h3";
        SeatBlock b = block(show, 0);
        b = applied(hold(b, h1, "acc-1", show, 0, 1));
        b = applied(hold(b, h2, "acc-2", show, 2, 3));
        b = applied(changed(b.confirm(h2, new int[] {2, 3}, 77, T0 + 1_000, GRACE)));
        b = applied(changed(b.block(new int[] {4}, T0 + 1_000, "admin:ops", "pillar")));
        b = applied(hold(b, h3, "acc-3", show, 5));
        b = applied(changed(b.release(h3, T0 + 2_000, "acc-3", "released")));

        SeatBlock loaded = inventory.load(show.showId(), 0).orElseThrow();

        assertEquals(b.size(), loaded.size());
        for (int i = 0; i < b.size(); i++) {
            assertEquals(b.state(i), loaded.state(i), "seat " + i);
            assertEquals(b.version(i), loaded.version(i), "version of seat " + i);
        }
        assertEquals(b.revision(), loaded.revision());
        assertEquals(b.holds(), loaded.holds());
        assertEquals(new SeatState.Held(h1, "acc-1", EXPIRES), loaded.state(0));
        assertEquals(new SeatState.Sold(77), loaded.state(3));
        assertEquals(null, loaded.transition());
    }

    @Test
    void load_isEmpty_forABlockTheShowDoesNotHave() {
        Show show = newShow();

        assertEquals(Optional.empty(), inventory.load(show.showId(), 2));
        assertEquals(Optional.empty(), inventory.load("no-such-show", 0));
    }

    @Test
    void findHold_isEmpty_forAnUnknownHold() {
        assertEquals(Optional.empty(), inventory.findHold("no-such-hold"));
    }

    @Test
    void blocksWithHoldsLapsedBefore_listsOnlyBlocksWithSeatsStillHeldPastThatTime() {
        Show show = newShow();
        inventory.apply(changed(block(show, 0).hold(show.showId() + "-early", "acc-1", new int[] {0},
                T0 + 1_000, T0, GRACE, new String[] {"A-1-1"})));
        inventory.apply(changed(block(show, 1).hold(show.showId() + "-late", "acc-1", new int[] {0},
                T0 + 9_000, T0, GRACE, new String[] {"B-1-1"})));

        List<BlockId> lapsed = inventory.blocksWithHoldsLapsedBefore(T0 + 5_000).stream()
                .filter(b -> b.showId().equals(show.showId())).toList();

        assertEquals(List.of(new BlockId(show.showId(), 0)), lapsed);
        assertEquals(2, inventory.blocksWithHoldsLapsedBefore(T0 + 10_000).stream()
                .filter(b -> b.showId().equals(show.showId())).count());
    }

    @Test
    void allowance_countsTheAccountsActiveHoldsAndBoughtSeats_inThatShowOnly() {
        Show show = newShow();
        Show other = newShow();
        String id = show.showId();
        SeatBlock b0 = applied(hold(block(show, 0), id + "-h1", "acc-1", show, 0, 1));
        b0 = applied(hold(b0, id + "-bought", "acc-1", show, 2, 3, 4));
        b0 = applied(changed(b0.confirm(id + "-bought", new int[] {2, 3, 4}, 5, T0, GRACE)));
        b0 = applied(hold(b0, id + "-gone", "acc-1", show, 5));
        b0 = applied(changed(b0.release(id + "-gone", T0, "acc-1", "released")));
        applied(hold(b0, id + "-theirs", "acc-2", show, 6));
        applied(changed(block(show, 1).hold(id + "-h2", "acc-1", new int[] {0}, EXPIRES + 1, T0, GRACE,
                new String[] {"B-1-1"})));
        applied(hold(block(other, 0), other.showId() + "-elsewhere", "acc-1", other, 0));

        AccountAllowance allowance = inventory.allowance(id, "acc-1");

        assertEquals(new AccountAllowance(List.of(new AccountAllowance.HoldEntry(id + "-h1", 2, EXPIRES),
                new AccountAllowance.HoldEntry(id + "-h2", 1, EXPIRES + 1)), 3), allowance);
        assertEquals(AccountAllowance.empty(), inventory.allowance(id, "acc-nobody"));
    }

    @Test
    void allowance_readsAskedForAtOnce_shareQueries_andEachGetsItsOwnAccount() throws Exception {
        Show show = newShow();
        Show other = newShow();
        String id = show.showId();
        // acc-a: two holds (expiring in that order); acc-b: three bought seats; acc-c: a hold in the other show only
        SeatBlock b0 = applied(hold(block(show, 0), id + "-a2", "acc-a", show, 0));
        b0 = applied(changed(b0.hold(id + "-a1", "acc-a", new int[] {1, 2}, EXPIRES - 1, T0, GRACE,
                new String[] {"A-1-2", "A-1-3"})));
        b0 = applied(hold(b0, id + "-b", "acc-b", show, 3, 4, 5));
        applied(changed(b0.confirm(id + "-b", new int[] {3, 4, 5}, 7, T0, GRACE)));
        applied(hold(block(other, 0), other.showId() + "-c", "acc-c", other, 0));
        AccountAllowance a = new AccountAllowance(List.of(new AccountAllowance.HoldEntry(id + "-a1", 2, EXPIRES - 1),
                new AccountAllowance.HoldEntry(id + "-a2", 1, EXPIRES)), 0);
        AccountAllowance b = new AccountAllowance(List.of(), 3);
        AccountAllowance c = new AccountAllowance(List.of(new AccountAllowance.HoldEntry(other.showId() + "-c", 1, EXPIRES)), 0);
        List<String[]> asked = List.of(new String[] {id, "acc-a"}, new String[] {id, "acc-b"},
                new String[] {other.showId(), "acc-c"}, new String[] {id, "acc-c"}, new String[] {id, "acc-nobody"});
        List<AccountAllowance> expected = List.of(a, b, c, AccountAllowance.empty(), AccountAllowance.empty());

        PostgresInventoryRepository.AllowanceReadStats before = inventory.allowanceReadStats();
        int threads = 40;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 5; round++) {
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<Boolean>> reads = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int k = t % asked.size();
                    reads.add(pool.submit(() -> {
                        start.await();
                        return expected.get(k).equals(inventory.allowance(asked.get(k)[0], asked.get(k)[1]));
                    }));
                }
                for (Future<Boolean> read : reads) {
                    assertTrue(read.get(30, java.util.concurrent.TimeUnit.SECONDS), "every reader gets its own account's allowance");
                }
            }
        } finally {
            pool.shutdownNow();
        }
        PostgresInventoryRepository.AllowanceReadStats after = inventory.allowanceReadStats();
        long queries = after.queries() - before.queries();
        long accounts = after.accounts() - before.accounts();
        assertTrue(queries < accounts, "200 reads asked for 40 at a time share queries: " + queries + " queries for "
                + accounts + " distinct accounts in them");
    }

    // ---------------------------------------------------------------- group commit, audit per transition

    @Test
    void applyTogether_decidesEachTransitionOnItsOwn_aStaleOneNeverFailsItsNeighbours() throws SQLException {
        Show show = newShow();
        String id = show.showId();
        SeatBlock b0 = block(show, 0);
        SeatBlock b1 = block(show, 1);
        SeatBlock applied = applied(hold(b0, id + "-before", "acc-0", show, 4));
        SeatBlock fresh0 = hold(applied, id + "-fresh0", "acc-1", show, 0, 1);
        // block 1 seat 0 is held behind this copy's back: the copy's claim on it is stale
        applied(changed(b1.hold(id + "-behind", "acc-9", new int[] {0}, EXPIRES, T0, GRACE, new String[] {"B-1-1"})));
        SeatBlock stale1 = changed(b1.hold(id + "-stale", "acc-2", new int[] {0, 1}, EXPIRES, T0, GRACE,
                new String[] {"B-1-1", "B-1-2"}));
        SeatBlock fresh2 = hold(applied, id + "-fresh2", "acc-3", show, 6);

        long oneByOne = inventory.groupCommitStats().oneByOne();
        int[] results = inventory.applyTogether(List.of(fresh0, stale1, applied, fresh2));

        assertEquals(oneByOne + 1, inventory.groupCommitStats().oneByOne(), "a stale transition sends the batch one by one");
        assertEquals(List.of(2, -1, 0, 1), Arrays.stream(results).boxed().toList(),
                "seats moved per transition; -1 stale, 0 already applied");
        assertEquals("HELD", seat(show, "A-1-1").state());
        assertEquals(id + "-fresh0", seat(show, "A-1-2").holdId());
        assertEquals(id + "-fresh2", seat(show, "A-2-3").holdId());
        assertEquals(new SeatRow("HELD", id + "-behind", "acc-9", EXPIRES, null, 1), seat(show, "B-1-1"));
        assertEquals(new SeatRow("AVAILABLE", null, null, null, null, 0), seat(show, "B-1-2"),
                "the stale transition's other seat must not move");
        assertTrue(inventory.findHold(id + "-stale").isEmpty(), "a stale hold leaves no hold row");
        assertEquals(HoldStatus.ACTIVE, inventory.findHold(id + "-fresh2").orElseThrow().status());
        assertEquals(List.of(), audit(show, "B-1-2"));
    }

    @Test
    void apply_fromManyThreadsAtOnce_isGroupCommitted_andEveryCallerHearsItsOwnOutcome() throws Exception {
        Show show = TestShows.save(catalog, TestShows.stadium("inv-group-" + SHOWS.incrementAndGet(), 8, 1, 40));
        int blocks = show.layout().blocks().size();
        // one stale copy per block (a seat taken behind its back) beside one fresh claim per block
        List<SeatBlock> fresh = new ArrayList<>();
        List<SeatBlock> stale = new ArrayList<>();
        for (int b = 0; b < blocks; b++) {
            SeatBlock copy = staleCopy(show, b, 0);
            stale.add(hold(copy, show.showId() + "-stale" + b, "acc-2", show, 0, 1));
            fresh.add(hold(block(show, b), show.showId() + "-fresh" + b, "acc-1", show, 2, 3));
        }
        PostgresInventoryRepository.GroupCommitStats before = inventory.groupCommitStats();
        // what the meters hear: every batch, and each store in it from its arrival to the commit
        java.util.concurrent.atomic.AtomicInteger observedTransitions = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger observedStores = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger storesFasterThanTheirBatch = new java.util.concurrent.atomic.AtomicInteger();
        inventory.onBatch((transitions, nanos, storeNanos) -> {
            observedTransitions.addAndGet(transitions);
            observedStores.addAndGet(storeNanos.length);
            for (long store : storeNanos) {
                if (store < nanos) {
                    storesFasterThanTheirBatch.incrementAndGet();
                }
            }
        });
        List<SeatBlock> all = new ArrayList<>(fresh);
        all.addAll(stale);
        List<Boolean> stored = storeAllAtOnce(all);
        for (int i = 0; i < all.size(); i++) {
            assertEquals(i < fresh.size(), stored.get(i), "transition " + all.get(i).transition());
        }
        assertEquals(2L * blocks, count("SELECT count(*) FROM seats WHERE show_id = '" + show.showId()
                + "' AND hold_id LIKE '%-fresh%'"));
        assertEquals(0, count("SELECT count(*) FROM holds WHERE hold_id LIKE '" + show.showId() + "-stale%'"));
        PostgresInventoryRepository.GroupCommitStats after = inventory.groupCommitStats();
        assertEquals(all.size(), after.transitions() - before.transitions());
        // the meters hear of a batch just after its callers are answered
        for (long until = System.currentTimeMillis() + 5_000; observedTransitions.get() < all.size()
                && System.currentTimeMillis() < until; ) {
            Thread.sleep(10);
        }
        inventory.onBatch((transitions, nanos, storeNanos) -> { });
        assertEquals(all.size(), observedTransitions.get(), "every transition is in a batch the meters heard of");
        assertEquals(all.size(), observedStores.get(), "one store per transition here, each timed");
        assertEquals(0, storesFasterThanTheirBatch.get(), "a store's time includes its batch's commit");
    }

    /** A store carrying several transitions (claims the grid combined on one block) is applied all or none. */
    @Test
    void apply_ofAStoreCarryingSeveralTransitions_appliesThemAllOrNone() throws SQLException {
        Show show = newShow();
        String id = show.showId();
        SeatBlock b0 = block(show, 0);
        SeatBlock first = hold(b0, id + "-c1", "acc-1", show, 0, 1);
        SeatBlock both = hold(first, id + "-c2", "acc-2", show, 3).after(first);

        inventory.apply(both);

        assertEquals(id + "-c1", seat(show, seatId(show, 1)).holdId());
        assertEquals(id + "-c2", seat(show, seatId(show, 3)).holdId());
        assertEquals(HoldStatus.ACTIVE, inventory.findHold(id + "-c2").orElseThrow().status());
        assertEquals(2, count("SELECT count(*) FROM seat_transitions WHERE show_id = '" + id + "' AND block_id = 0"));

        // seat 5 taken behind this copy's back: the store's second transition is stale, so its first is not kept
        applied(changed(both.hold(id + "-behind", "acc-9", new int[] {5}, EXPIRES, T0, GRACE, new String[] {seatId(show, 5)})));
        SeatBlock fresh = hold(both, id + "-d1", "acc-3", show, 4);
        SeatBlock staleToo = hold(fresh, id + "-d2", "acc-4", show, 5).after(fresh);

        assertThrows(StaleInventoryException.class, () -> inventory.apply(staleToo));

        assertEquals(new SeatRow("AVAILABLE", null, null, null, null, 0), seat(show, seatId(show, 4)),
                "the store's fresh transition must not stand alone");
        assertTrue(inventory.findHold(id + "-d1").isEmpty());
        assertEquals(id + "-behind", seat(show, seatId(show, 5)).holdId());
    }

    private static String seatId(Show show, int index) {
        return show.layout().seat(0, index).seatId();
    }

    /** Block {@code b} as read now, after which seat {@code index} is taken behind its back (another hold, applied). */
    private static SeatBlock staleCopy(Show show, int b, int index) {
        SeatBlock copy = block(show, b);
        String seat = show.layout().seat(b, index).seatId();
        applied(changed(copy.hold(show.showId() + "-behind" + b, "acc-9", new int[] {index}, EXPIRES, T0, GRACE,
                new String[] {seat})));
        return copy;
    }

    /** Stores queued together go in one batch; a batch that would keep part of a store is undone, the rest stand. */
    @Test
    void apply_fromManyThreads_withStoresOfSeveralTransitions_keepsEachStoreWhole() throws Exception {
        Show show = TestShows.save(catalog, TestShows.stadium("inv-combined-" + SHOWS.incrementAndGet(), 8, 1, 40));
        int blocks = show.layout().blocks().size();
        List<SeatBlock> whole = new ArrayList<>();
        List<SeatBlock> split = new ArrayList<>();
        for (int b = 0; b < blocks; b++) {
            SeatBlock copy = staleCopy(show, b, 9);
            SeatBlock a = hold(copy, show.showId() + "-whole-a" + b, "acc-1", show, 0, 1);
            whole.add(hold(a, show.showId() + "-whole-b" + b, "acc-2", show, 2).after(a));
            SeatBlock c = hold(a, show.showId() + "-split-a" + b, "acc-3", show, 5);
            split.add(hold(c, show.showId() + "-split-b" + b, "acc-4", show, 9).after(c));
        }
        List<SeatBlock> all = new ArrayList<>(whole);
        all.addAll(split);
        List<Boolean> stored = storeAllAtOnce(all);
        for (int i = 0; i < all.size(); i++) {
            assertEquals(i < whole.size(), stored.get(i), "store " + all.get(i).transitions());
        }
        assertEquals(3L * blocks, count("SELECT count(*) FROM seats WHERE show_id = '" + show.showId()
                + "' AND hold_id LIKE '%-whole-%'"));
        assertEquals(0, count("SELECT count(*) FROM seats WHERE show_id = '" + show.showId()
                + "' AND hold_id LIKE '%-split-%'"), "no part of a stale store stands");
        assertEquals(0, count("SELECT count(*) FROM holds WHERE hold_id LIKE '" + show.showId() + "-split%'"));
    }

    @Test
    void applyTogether_ofEveryKind_leavesTheSameRowsAsApplyingEachAlone() throws SQLException {
        // the same history on two shows: one transition at a time on one, in batches on the other
        // (batches of fresh transitions take the set-based path of apply_seat_transitions)
        Show alone = TestShows.save(catalog, TestShows.stadium("inv-alone-" + SHOWS.incrementAndGet(), 6, 1, 6));
        Show batched = TestShows.save(catalog, TestShows.stadium("inv-batch-" + SHOWS.incrementAndGet(), 6, 1, 6));
        for (Show show : List.of(alone, batched)) {
            String id = show.showId();
            SeatBlock[] b = new SeatBlock[6];
            for (int i = 0; i < 6; i++) {
                b[i] = block(show, i);
            }
            String spanning = id + "-span";
            String[] spanSeats = {show.layout().seat(4, 5).seatId(), show.layout().seat(5, 0).seatId()};
            List<List<SeatBlock>> steps = new ArrayList<>();
            // 1: holds in four blocks, a block-off in a fifth, the first half of a spanning hold in the sixth
            steps.add(List.of(
                    b[0] = hold(b[0], id + "-h0", "acc-0", show, 0, 1),
                    b[1] = hold(b[1], id + "-h1", "acc-1", show, 2),
                    b[2] = hold(b[2], id + "-h2", "acc-2", show, 0, 1, 2, 3),
                    b[3] = hold(b[3], id + "-h3", "acc-3", show, 5),
                    b[5] = changed(b[5].hold(spanning, "acc-5", new int[] {0}, EXPIRES, T0, GRACE, spanSeats)),
                    b[4] = changed(b[4].block(new int[] {0, 1}, T0, "admin:ops", "camera"))));
            // 2: the spanning hold's other half, an extend, a confirm, a release, an unblock, an expiry
            steps.add(List.of(
                    b[4] = changed(b[4].hold(spanning, "acc-5", new int[] {5}, EXPIRES, T0, GRACE, spanSeats)),
                    b[0] = changed(b[0].extend(id + "-h0", EXPIRES + 300_000, T0 + 1_000, GRACE)),
                    b[1] = changed(b[1].confirm(id + "-h1", new int[] {2}, 77, T0 + 1_000, GRACE)),
                    b[2] = changed(b[2].release(id + "-h2", T0 + 1_000, "acc-2", "changed my mind")),
                    b[3] = changed(b[3].expire(EXPIRES + GRACE, GRACE))));
            // 3: a cancelled sale, a hold over the unblocked seats, a new hold over the released seats
            steps.add(List.of(
                    b[1] = changed(b[1].cancel(77, T0 + 2_000, "admin:ops", "refunded")),
                    b[4] = changed(b[4].unblock(new int[] {0, 1}, T0 + 2_000, "admin:ops", "camera gone")),
                    b[2] = hold(b[2], id + "-h4", "acc-4", show, 1, 2)));
            for (List<SeatBlock> step : steps) {
                if (show == alone) {
                    step.forEach(inventory::apply);
                } else {
                    long oneByOne = inventory.groupCommitStats().oneByOne();
                    int[] moved = inventory.applyTogether(step);
                    assertEquals(oneByOne, inventory.groupCommitStats().oneByOne(), "a batch of fresh transitions is set-based");
                    for (int i = 0; i < step.size(); i++) {
                        assertEquals(step.get(i).transition().seats().length, moved[i], "transition " + i);
                    }
                }
            }
        }
        for (String table : List.of("""
                SELECT seat_id, state, hold_id, holder, epoch_ms(held_until), booking_id, version
                FROM seats WHERE show_id = ? ORDER BY seat_id""", """
                SELECT hold_id, account_id, seat_ids::text, epoch_ms(expires_at), status, extended, total_cents
                FROM holds WHERE show_id = ? ORDER BY hold_id""", """
                SELECT block_id, kind, actor, reason, hold_id, booking_id, new_state, seat_ids::text,
                       idxs::text, old_states::text, old_holds::text, old_versions::text, epoch_ms(at)
                FROM seat_transitions WHERE show_id = ? ORDER BY block_id, transition_id""")) {
            assertEquals(rows(table, alone), rows(table, batched), table);
        }
        assertEquals(6, count("SELECT count(*) FROM holds WHERE show_id = '" + batched.showId() + "'"));
    }

    @Test
    void audit_isOneRowPerTransition_andEachSeatsHistoryStillReadsSeatBySeat() throws SQLException {
        Show show = newShow();
        String hold = show.showId() + "-h1";
        SeatBlock held = hold(block(show, 0), hold, "acc-1", show, 0, 1, 2);
        inventory.apply(held);
        inventory.apply(changed(held.release(hold, T0 + 1_000, "acc-1", "changed my mind")));

        assertEquals(2, count("SELECT count(*) FROM seat_transitions WHERE show_id = '" + show.showId() + "'"));
        List<org.boxoffice.domain.SeatEvent> history = inventory.history(show.showId(), "A-1-2");
        assertEquals(List.of("HOLD", "RELEASE"), history.stream().map(org.boxoffice.domain.SeatEvent::kind).toList());
        assertEquals(List.of(hold, hold), history.stream().map(org.boxoffice.domain.SeatEvent::holdId).toList());
        assertEquals(List.of(), inventory.history(show.showId(), "A-1-9"));
        assertTrue(history.get(0).eventId() < history.get(1).eventId());
    }

    // ---------------------------------------------------------------- helpers

    private static Show newShow() {
        return TestShows.save(catalog, TestShows.small("inv-" + SHOWS.incrementAndGet()));
    }

    private static SeatBlock block(Show show, int blockId) {
        return inventory.load(show.showId(), blockId).orElseThrow();
    }

    /** Holds {@code seats} of the block until {@link #EXPIRES}, decided at {@code T0}. */
    private static SeatBlock hold(SeatBlock block, String holdId, String account, Show show, int... seats) {
        String[] seatIds = Arrays.stream(seats)
                .mapToObj(i -> show.layout().seat(block.blockId(), i).seatId()).toArray(String[]::new);
        return changed(block.hold(holdId, account, seats, EXPIRES, T0, GRACE, seatIds));
    }

    private static SeatBlock applied(SeatBlock next) {
        inventory.apply(next);
        return next;
    }

    private static SeatBlock changed(BlockDecision decision) {
        return assertInstanceOf(BlockDecision.Changed.class, decision).next();
    }

    record SeatRow(String state, String holdId, String holder, Long heldUntil, Long bookingId, int version) {
    }

    record Audit(String kind, String holdId, Long bookingId, String oldState, String newState,
                 int oldVersion, int newVersion, String actor, String reason, long at) {
    }

    private static SeatRow seat(Show show, String seatId) throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement("""
                SELECT state, hold_id, holder, epoch_ms(held_until), booking_id, version
                FROM seats WHERE show_id = ? AND seat_id = ?""")) {
            ps.setString(1, show.showId());
            ps.setString(2, seatId);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "no seat " + seatId);
                return new SeatRow(rs.getString(1), rs.getString(2), rs.getString(3),
                        rs.getObject(4, Long.class), rs.getObject(5, Long.class), rs.getInt(6));
            }
        }
    }

    private static List<Audit> audit(Show show, String seatId) throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement("""
                SELECT kind, hold_id, booking_id, old_state, new_state, old_version, new_version, actor,
                       reason, epoch_ms(at)
                FROM seat_events WHERE show_id = ? AND seat_id = ? ORDER BY event_id""")) {
            ps.setString(1, show.showId());
            ps.setString(2, seatId);
            List<Audit> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new Audit(rs.getString(1), rs.getString(2), rs.getObject(3, Long.class),
                            rs.getString(4), rs.getString(5), rs.getInt(6), rs.getInt(7), rs.getString(8),
                            rs.getString(9), rs.getLong(10)));
                }
            }
            return rows;
        }
    }

    private static long count(String sql) throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The rows of {@code sql} for {@code show}, with the show's id replaced so that two shows compare. */
    private static List<String> rows(String sql, Show show) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, show.showId());
            try (ResultSet rs = ps.executeQuery()) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    StringBuilder row = new StringBuilder();
                    for (int i = 1; i <= columns; i++) {
                        row.append(rs.getString(i)).append(" | ");
                    }
                    out.add(row.toString().replace(show.showId(), "SHOW"));
                }
            }
        }
        return out;
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.executeUpdate();
        }
    }
}
