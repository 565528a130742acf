package org.boxoffice.grid.waitlist;

import com.hazelcast.collection.IQueue;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import org.boxoffice.domain.BlockDecision;
import org.boxoffice.domain.AdmissionStripe;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.WaitlistEntry;
import org.boxoffice.domain.WaitlistEntry.State;
import org.boxoffice.grid.Allowances;
import org.boxoffice.grid.Seats;
import org.boxoffice.grid.BlockCommand;
import org.boxoffice.grid.BlockKey;
import org.boxoffice.grid.StripeKey;
import org.boxoffice.grid.member.GridMember;
import org.boxoffice.grid.GridSettings;
import org.boxoffice.grid.InMemoryInventoryRepository;
import org.boxoffice.grid.Inventory;
import org.boxoffice.grid.ShowSnapshots;
import org.boxoffice.grid.TestGrid;
import org.boxoffice.mapstore.GridStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Waitlist queues and offers on real members (one JVM, loopback) with in-memory referees. */
class WaitlistGridTest {

    private final InMemoryInventoryRepository inventoryRepo = new InMemoryInventoryRepository();
    private final InMemoryWaitlistRepository waitlistRepo = new InMemoryWaitlistRepository();
    private final List<HazelcastInstance> members = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        members.forEach(m -> m.getLifecycleService().terminate());
    }

    /** A cluster of {@code n} members whose waitlist queues are stored in {@link #waitlistRepo}. */
    private List<HazelcastInstance> start(int n) {
        String cluster = "wl-" + UUID.randomUUID();
        int port = 17801 + (int) (Math.random() * 2000);
        List<String> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add("127.0.0.1:" + (port + i));
        }
        List<HazelcastInstance> started = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            started.add(GridMember.start(GridSettings.loopback(cluster, port + i, all),
                    GridStores.of(inventoryRepo, TestGrid.EMPTY_CATALOG, waitlistRepo)));
        }
        members.addAll(started);
        return started;
    }

    private static WaitlistEntry entry(long id, String show, String account, int quantity) {
        return new WaitlistEntry(id, show, account, quantity, null, 1_000 + id, account + "@example.test");
    }

    @Test
    void aShowsLine_livesOnTheShowIdsPartition_andEveryEntryIsStoredBeforeTheQueueHoldsIt() {
        List<HazelcastInstance> grid = start(2);
        Waitlists waitlists = new Waitlists(grid.get(1));
        IQueue<WaitlistEntry> queue = waitlists.queue("line-1");
        assertEquals(grid.get(0).getPartitionService().getPartition("line-1").getPartitionId(),
                grid.get(0).getPartitionService().getPartition(queue.getPartitionKey()).getPartitionId());

        List<WaitlistEntry> joined = List.of(entry(1, "line-1", "ann", 2), entry(2, "line-1", "ben", 1),
                entry(3, "line-1", "cat", 4));
        joined.forEach(e -> assertTrue(waitlists.join(e)));

        assertEquals(joined, waitlistRepo.line("line-1"));
        List<Long> items = waitlistRepo.queuedItems("line-1");
        assertEquals(items.stream().sorted().toList(), items, "item ids ascend in arrival order");
        assertEquals(joined, new Waitlists(grid.get(0)).line("line-1"));
        assertFalse(waitlists.join(entry(4, "line-1", "ben", 3)), "one live entry per account: the store refuses");
        assertEquals(3, queue.size(), "a refused entry never reaches the queue");
        assertEquals(2, waitlistRepo.standing("line-1", "ben").orElseThrow().position());
    }

    @Test
    void aRestartedGrid_reloadsTheLineInOrder_andCanRemoveEntriesItOnlyHasInItsStore() {
        Waitlists first = new Waitlists(start(1).get(0));
        List<WaitlistEntry> joined = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            joined.add(entry(i, "line-2", "fan" + i, 1));
            assertTrue(first.join(joined.get(i - 1)));
        }
        first.remove("line-2", List.of(joined.get(0)));
        members.forEach(m -> m.getLifecycleService().terminate());
        members.clear();

        Waitlists second = new Waitlists(start(1).get(0));

        // IQueue.remove(Object) compares only values the queue holds in memory; after a reload it
        // holds just the keys, which is why Waitlists removes with removeAll (it loads them)
        assertFalse(second.queue("line-2").remove(joined.get(2)));
        assertEquals(joined.subList(1, 5), second.line("line-2"));
        second.remove("line-2", List.of(joined.get(2)));
        assertEquals(List.of(joined.get(1), joined.get(3), joined.get(4)), second.line("line-2"));
        assertEquals(State.REMOVED, waitlistRepo.standing("line-2", "fan3").orElseThrow().state());
        assertTrue(second.join(entry(9, "line-2", "late", 1)));
        assertEquals(4, waitlistRepo.standing("line-2", "late").orElseThrow().position(), "joins after a restart queue behind");
    }

    @Test
    void seatsReleasedOnAnyMember_areOfferedToTheHeadOfTheLine_byTheLinesOwner() throws Exception {
        List<HazelcastInstance> grid = start(2);
        Show show = TestGrid.show("offers-1", 2, 4, 2, inventoryRepo);
        List<WaitlistOffers> offers = new ArrayList<>();
        for (HazelcastInstance m : grid) {
            Inventory inventory = new Inventory(m);
            ShowSnapshots snapshots = new ShowSnapshots(inventory, System::currentTimeMillis, 60_000);
            closeables.add(snapshots);
            WaitlistOffers o = new WaitlistOffers(m, new Seats(inventory, new Allowances(m, inventoryRepo), snapshots), null, snapshots, inventoryRepo, waitlistRepo,
                    id -> id.equals(show.showId()) ? Optional.of(show) : Optional.empty(), System::currentTimeMillis,
                    new WaitlistOffers.Settings(600_000, 0, 3_600_000));
            offers.add(o);
            closeables.add(o);
        }
        Inventory inventory = new Inventory(grid.get(0));
        long now = System.currentTimeMillis();
        for (int block = 0; block < 2; block++) {
            TreeMap<Integer, int[]> seats = new TreeMap<>();
            seats.put(block, new int[] {0, 1, 2, 3});
            assertInstanceOf(Inventory.ClaimResult.Held.class, inventory.hold(show, "filler-" + block, "filler", seats,
                    now + 600_000, now, new String[0]));
        }
        Waitlists waitlists = new Waitlists(grid.get(0));
        assertTrue(waitlists.join(entry(1, show.showId(), "wanda", 2)));
        assertTrue(waitlists.join(entry(2, show.showId(), "walt", 3)));
        assertEquals(0, offers.get(0).match(show.showId()) + offers.get(1).match(show.showId()), "sold out: nothing to offer");

        // release from a member that may not own the block nor the line: the signal finds the line's owner
        new Inventory(grid.get(1)).execute(show, 1, new BlockCommand.Release("filler-1", now, "filler", "changed mind"));

        long deadline = System.currentTimeMillis() + 10_000;
        while (waitlistRepo.standing(show.showId(), "wanda").orElseThrow().state() != State.OFFERED
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        var wanda = waitlistRepo.standing(show.showId(), "wanda").orElseThrow();
        assertEquals(State.OFFERED, wanda.state());
        assertEquals(2, wanda.seatIds().size());
        SeatBlock block = inventory.blocks(show).get(Inventory.key(show, 1));
        for (String seatId : wanda.seatIds()) {
            SeatState held = block.state(show.layout().locate(seatId).orElseThrow().index());
            assertInstanceOf(SeatState.Held.class, held);
            assertEquals(wanda.holdId(), ((SeatState.Held) held).holdId());
            assertEquals("wanda", ((SeatState.Held) held).accountId());
        }
        // the offer is recorded before the queue lets go of its entry: wait for the queue too
        List<WaitlistEntry> expected = List.of(entry(2, show.showId(), "walt", 3));
        deadline = System.currentTimeMillis() + 10_000;
        while (!expected.equals(waitlists.line(show.showId())) && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(expected, waitlists.line(show.showId()),
                "wanda left the line with her offer; walt's three do not fit the two seats left");
        assertEquals(State.WAITING, waitlistRepo.standing(show.showId(), "walt").orElseThrow().state());
    }

    @Test
    void onlyTransitionsThatPutSeatsBackOnSale_signal() {
        SeatsReturnedPredicate returned = new SeatsReturnedPredicate();
        SeatBlock fresh = SeatBlock.fresh("s", 0, 4);
        SeatBlock held = next(fresh.hold("h", "a", new int[] {0, 1}, 10_000, 1, 0, new String[] {"A-1-1", "A-1-2"}));
        SeatBlock sold = next(held.confirm("h", new int[] {0, 1}, 7, 2, 0));
        SeatBlock blocked = next(fresh.block(new int[] {3}, 1, "admin", "camera"));

        assertFalse(returned.apply(entry(fresh)), "a loaded block");
        assertFalse(returned.apply(entry(held)));
        assertFalse(returned.apply(entry(sold)));
        assertFalse(returned.apply(entry(blocked)));
        assertFalse(returned.apply(entry(next(held.extend("h", 20_000, 2, 0)))));
        assertTrue(returned.apply(entry(next(held.release("h", 2, "a", "r")))));
        assertTrue(returned.apply(entry(next(held.expire(20_000, 0)))));
        assertTrue(returned.apply(entry(next(sold.cancel(7, 3, "a", "r")))));
        assertTrue(returned.apply(entry(next(blocked.unblock(new int[] {3}, 2, "admin", "r")))));
    }

    @Test
    void onlyStripeChangesThatPutAdmissionsBackOnSale_signal() {
        AdmissionsReturnedPredicate returned = new AdmissionsReturnedPredicate();
        AdmissionStripe fresh = AdmissionStripe.fresh("s", "FLOOR", 0, 4);
        AdmissionStripe held = fresh.take("h", "a", 2, 2, 10_000, 1, 0).next();
        AdmissionStripe sold = held.confirm("h", 2, 0);
        AdmissionStripe lapsedThenTaken = held.take("h2", "b", 3, 3, 30_000, 20_000, 0).next();

        assertFalse(returned.apply(stripe(fresh)), "a loaded stripe");
        assertFalse(returned.apply(stripe(held)));
        assertFalse(returned.apply(stripe(sold)));
        assertFalse(returned.apply(stripe(held.extend("h", 20_000, 2, 0))));
        assertTrue(returned.apply(stripe(held.release("h", 2))));
        assertTrue(returned.apply(stripe(held.expire(20_000, 0))));
        assertTrue(returned.apply(stripe(sold.giveBack("h", 2, 3))));
        assertTrue(returned.apply(stripe(lapsedThenTaken)), "a take that ended a lapsed hold's part on its way");
    }

    private static java.util.Map.Entry<StripeKey, AdmissionStripe> stripe(AdmissionStripe s) {
        return new AbstractMap.SimpleEntry<>(new StripeKey(s.showId(), s.area(), s.stripe()), s);
    }

    @Test
    void waitlistSerializers_roundTrip() {
        SerializationService ss = ((SerializationServiceSupport) start(1).get(0)).getSerializationService();
        WaitlistEntry anySection = entry(5, "s", "a", 3);
        WaitlistEntry inB = new WaitlistEntry(6, "s", "b", 1, "B", 77, "b@example.test");

        assertEquals(anySection, ss.toObject(ss.toData(anySection)));
        assertEquals(inB, ss.toObject(ss.toData(inB)));
        Data once = ss.toData(inB);
        Data again = ss.toData(new WaitlistEntry(6, "s", "b", 1, "B", 77, "b@example.test"));
        assertEquals(once, again, "equal entries serialize equally (the queue removes by comparing bytes)");
        WaitlistEntry onTheFloor = new WaitlistEntry(7, "s", "c", 2, null, 78, "c@example.test", "FLOOR");
        assertEquals(onTheFloor, ss.toObject(ss.toData(onTheFloor)));
        assertEquals(new SeatsReturnedPredicate(), ss.toObject(ss.toData(new SeatsReturnedPredicate())));
        assertEquals(new AdmissionsReturnedPredicate(), ss.toObject(ss.toData(new AdmissionsReturnedPredicate())));
        assertEquals("s", ((SeatsReturnedTask) ss.toObject(ss.toData(new SeatsReturnedTask("s")))).showId());
    }

    private static SeatBlock next(BlockDecision d) {
        return ((BlockDecision.Changed) d).next();
    }

    private static java.util.Map.Entry<BlockKey, SeatBlock> entry(SeatBlock b) {
        return new AbstractMap.SimpleEntry<>(BlockKey.of(b.showId(), b.blockId(), 1), b);
    }
}
