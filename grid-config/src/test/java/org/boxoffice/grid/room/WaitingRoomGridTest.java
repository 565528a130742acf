package org.boxoffice.grid.room;

import com.hazelcast.core.HazelcastInstance;
import org.boxoffice.grid.InMemoryInventoryRepository;
import org.boxoffice.grid.TestGrid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The waiting room on real members (one JVM, loopback) with a clock the test moves. */
class WaitingRoomGridTest {

    private static final long T0 = 1_800_000_000_000L;
    private static final long HOUR = 3_600_000L;
    private final AtomicLong clock = new AtomicLong(T0);
    private final AtomicInteger available = new AtomicInteger(1_000_000);
    private final List<HazelcastInstance> members = new ArrayList<>();
    private final List<WaitingRooms> rooms = new ArrayList<>();

    private List<WaitingRooms> start(int n) {
        members.addAll(TestGrid.start(n, new InMemoryInventoryRepository()));
        for (HazelcastInstance m : members) {
            rooms.add(new WaitingRooms(m, clock::get, show -> available.get(), HOUR));
        }
        return rooms;
    }

    @AfterEach
    void stop() {
        rooms.forEach(WaitingRooms::close);
        members.forEach(m -> m.getLifecycleService().terminate());
    }

    private void tickAll() {
        rooms.forEach(WaitingRooms::tickOwnedRooms);
    }

    @Test
    void hundredThousandConcurrentJoins_getUniqueGaplessPositions_andRejoinsKeepTheirPlace() throws Exception {
        WaitingRooms room = start(1).get(0);
        room.configure("hot", WaitingRoom.Mode.ON, T0 - 1, 100, 2, 600_000);
        Map<String, Long> positions = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(32);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 32; t++) {
            int thread = t;
            futures.add(pool.submit(() -> {
                for (int i = thread; i < 100_000; i += 32) {
                    positions.put("fan-" + i, room.join("hot", "fan-" + i).orElseThrow().position());
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get(5, TimeUnit.MINUTES);
        }
        pool.shutdown();

        BitSet seen = new BitSet();
        positions.values().forEach(p -> {
            assertTrue(p >= 1 && p <= 100_000, "position " + p);
            assertTrue(!seen.get(p.intValue()), "position " + p + " handed out twice");
            seen.set(p.intValue());
        });
        assertEquals(100_000, seen.cardinality());
        for (int i = 0; i < 100_000; i += 997) {
            assertEquals(positions.get("fan-" + i), room.join("hot", "fan-" + i).orElseThrow().position());
        }
        assertEquals(100_000, room.lookup("hot", null).orElseThrow().length());
    }

    @Test
    void preQueue_isShuffledOnceAtTheOpening_thenLaterArrivalsQueueInOrder() {
        WaitingRooms room = start(1).get(0);
        room.configure("opening", WaitingRoom.Mode.ON, T0 + 60_000, 100, 2, 600_000);
        for (int i = 0; i < 500; i++) {
            RoomView v = room.join("opening", "early-" + i).orElseThrow();
            assertEquals(0, v.position());
            assertTrue(v.inPreQueue());
        }
        assertTrue(room.join("opening", "early-7").orElseThrow().inPreQueue(), "joining again keeps one place");

        clock.set(T0 + 60_000);
        tickAll();
        Set<Long> early = new HashSet<>();
        int inArrivalOrder = 0;
        for (int i = 0; i < 500; i++) {
            long p = room.lookup("opening", "early-" + i).orElseThrow().position();
            early.add(p);
            if (p == i + 1) {
                inArrivalOrder++;
            }
        }
        assertEquals(500, early.size());
        assertEquals(1L, early.stream().mapToLong(Long::longValue).min().orElseThrow());
        assertEquals(500L, early.stream().mapToLong(Long::longValue).max().orElseThrow());
        assertTrue(inArrivalOrder < 25, "shuffled, not kept in arrival order: " + inArrivalOrder);
        assertNotEquals(0, room.lookup("opening", null).orElseThrow().seed(), "the seed is recorded");
        for (int i = 0; i < 50; i++) {
            assertEquals(501 + i, room.join("opening", "late-" + i).orElseThrow().position(), "FIFO after the opening");
        }
    }

    @Test
    void admission_followsTheRate_neverExceedsTheSeats_andResumesWhenSeatsReturn() {
        WaitingRooms room = start(1).get(0);
        room.configure("paced", WaitingRoom.Mode.ON, T0 - 1, 10, 2, 60_000);
        for (int i = 0; i < 200; i++) {
            room.join("paced", "fan-" + i);
        }
        tickAll();
        for (int step = 1; step <= 20; step++) {
            clock.addAndGet(250);
            tickAll();
            long admitted = room.lookup("paced", null).orElseThrow().admittedUpTo();
            assertTrue(admitted <= 10.0 * step * 250 / 1000 + 1e-9, "rate exceeded at step " + step + ": " + admitted);
        }
        assertEquals(50, room.lookup("paced", null).orElseThrow().admittedUpTo(), "5 s at 10/s");

        available.set(120);  // 60 buyers' worth of seats, 50 already admitted and not converted
        for (int i = 0; i < 40; i++) {
            clock.addAndGet(250);
            tickAll();
        }
        assertEquals(60, room.lookup("paced", null).orElseThrow().admittedUpTo(), "capped by the seats left");

        available.set(0);
        clock.addAndGet(61_000); // passes lapse: nothing outstanding, but no seats either
        tickAll();
        assertEquals(60, room.lookup("paced", null).orElseThrow().admittedUpTo(), "no seats, no admission");

        available.set(40); // holds expired: seats came back
        for (int i = 0; i < 40; i++) {
            clock.addAndGet(250);
            tickAll();
        }
        assertEquals(80, room.lookup("paced", null).orElseThrow().admittedUpTo(), "admission resumed for 40/2 buyers");
    }

    @Test
    void anAdmittedBuyerHoldingAgainAndAgain_convertsOnce_andAdmitsNobodyElse() {
        List<WaitingRooms> two = start(2);
        two.get(0).configure("small", WaitingRoom.Mode.ON, T0 - 1, 100, 2, 60_000);
        for (int i = 0; i < 10; i++) {
            two.get(0).join("small", "fan-" + i);
        }
        available.set(8);  // four buyers' worth of seats
        for (int i = 0; i < 8; i++) {
            clock.addAndGet(250);
            tickAll();
        }
        assertEquals(4, two.get(0).lookup("small", null).orElseThrow().admittedUpTo());

        // the first admitted buyer holds and releases eight times, on both members: the seats come back each
        // time, so what is free is four buyers' worth, of which three are promised to the other passes
        for (int cycle = 0; cycle < 8; cycle++) {
            two.get(cycle % 2).converted("small", 1);
            clock.addAndGet(250);
            tickAll();
        }
        assertEquals(5, two.get(0).lookup("small", null).orElseThrow().admittedUpTo(),
                "one buyer's eight holds are one conversion: one more fan, not the line");

        two.get(1).converted("small", 2);
        two.get(0).converted("small", 2);
        for (int i = 0; i < 8; i++) {
            clock.addAndGet(250);
            tickAll();
        }
        assertEquals(6, two.get(0).lookup("small", null).orElseThrow().admittedUpTo(), "a second buyer, a second conversion");
    }

    @Test
    void losingAMemberMidQueue_losesNobodysPlace() {
        List<WaitingRooms> three = start(3);
        three.get(0).configure("resilient", WaitingRoom.Mode.ON, T0 - 1, 10, 2, 600_000);
        Map<String, Long> before = new HashMap<>();
        for (int i = 0; i < 2_000; i++) {
            before.put("fan-" + i, three.get(i % 3).join("resilient", "fan-" + i).orElseThrow().position());
        }
        HazelcastInstance owner = members.stream()
                .filter(m -> m.getPartitionService().getPartition("resilient").getOwner().localMember())
                .findFirst().orElseThrow();
        int ownerIndex = members.indexOf(owner);
        rooms.get(ownerIndex).close();
        owner.getLifecycleService().terminate();
        WaitingRooms survivor = rooms.get((ownerIndex + 1) % 3);

        before.forEach((account, position) ->
                assertEquals(position, survivor.join("resilient", account).orElseThrow().position(), account));
        assertEquals(2_001, survivor.join("resilient", "newcomer").orElseThrow().position(), "gapless after the loss");
    }
    /** Holds a partition's thread until the test lets go: a partition that is moving, or whose owner was lost. */
    static final class HoldPartition implements com.hazelcast.map.EntryProcessor<String, String, String> {
        static final java.util.concurrent.CountDownLatch RELEASE = new java.util.concurrent.CountDownLatch(1);

        @Override
        public String process(Map.Entry<String, String> entry) {
            try {
                RELEASE.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        }

        @Override
        public com.hazelcast.map.EntryProcessor<String, String, String> getBackupProcessor() {
            return null;
        }
    }

    /** Two members and a room of {@code show}: the member owning its partition, both members' rooms, the other's first view. */
    private record RoomOnTwo(HazelcastInstance owner, WaitingRooms writer, WaitingRooms reader, RoomView before) {
    }

    /** Starts two members, turns on a room for {@code show} opening in ten hours, and reads it on the member that does not own it. */
    private RoomOnTwo roomOnTwo(String show) {
        List<WaitingRooms> two = start(2);
        two.get(0).configure(show, WaitingRoom.Mode.ON, T0 + HOUR * 10, 100, 2, 600_000);
        HazelcastInstance owner = members.stream()
                .filter(m -> m.getPartitionService().getPartition(show).getOwner().localMember())
                .findFirst().orElseThrow();
        WaitingRooms reader = two.get(1 - members.indexOf(owner));
        return new RoomOnTwo(owner, two.get(members.indexOf(owner)), reader, reader.summary(show).orElseThrow());
    }

    @Test
    void aViewATickOld_isAnsweredAtOnce_andTheReadRenewsItForTheRequestsAfter() throws Exception {
        RoomOnTwo room = roomOnTwo("renewed");
        WaitingRooms reader = room.reader();
        RoomView before = room.before();
        room.writer().configure("renewed", WaitingRoom.Mode.ON, T0 + HOUR * 20, 100, 2, 600_000);

        clock.addAndGet(HOUR + 1); // the reader's view is a tick old
        // no request waits for the read, however fast it answers: this one takes the last view
        assertEquals(before, reader.summary("renewed").orElseThrow());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (reader.summary("renewed").orElseThrow().opensAt() != T0 + HOUR * 20) {
            assertTrue(System.nanoTime() < deadline, "the read never renewed the reader's view");
            Thread.sleep(10);
        }
    }

    @Test
    void aRoomWhosePartitionIsHeldUp_isAnsweredFromTheLastView() throws Exception {
        RoomOnTwo room = roomOnTwo("busy");
        HazelcastInstance owner = room.owner();
        WaitingRooms reader = room.reader();
        RoomView before = room.before();

        // a key of another map on the room's partition; the processor runs on that partition's thread
        int partition = owner.getPartitionService().getPartition("busy").getPartitionId();
        String sameThread = java.util.stream.IntStream.range(0, 100_000).mapToObj(i -> "k" + i)
                .filter(k -> owner.getPartitionService().getPartition(k).getPartitionId() == partition)
                .findFirst().orElseThrow();
        var held = owner.<String, String>getMap("hold-partition").submitToKey(sameThread, new HoldPartition());
        try {
            Thread.sleep(200);
            clock.addAndGet(HOUR + 1); // the reader's view is a tick old: it asks for a new one
            ExecutorService pool = Executors.newFixedThreadPool(16);
            List<Future<RoomView>> answers = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                answers.add(pool.submit(() -> reader.summary("busy").orElseThrow()));
            }
            for (Future<RoomView> answer : answers) {
                assertEquals(before, answer.get(2, TimeUnit.SECONDS), "the last view, while the partition is held up");
            }
            pool.shutdown();
            assertTrue(!held.toCompletableFuture().isDone(), "the partition was held up all along");
        } finally {
            HoldPartition.RELEASE.countDown();
        }
        held.toCompletableFuture().get(10, TimeUnit.SECONDS);
        Thread.sleep(1_000); // the read queued behind the hold-up answers

        // a view too old is not answered from: the request waits for a read
        room.writer().configure("busy", WaitingRoom.Mode.ON, T0 + HOUR * 20, 100, 2, 600_000);
        clock.addAndGet(HOUR + WaitingRooms.STALE_WHILE_READING_MILLIS + 1);
        assertEquals(T0 + HOUR * 20, reader.summary("busy").orElseThrow().opensAt(), "a view too old is not used");
    }
}
