package org.boxoffice.grid;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import org.boxoffice.domain.AccountAllowance;
import org.boxoffice.domain.AdmissionStripe;
import org.boxoffice.domain.BlockDecision;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.grid.catalog.EventListing;
import org.boxoffice.grid.serialization.GridSerializers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every registered serializer survives a round trip through the member's serialization service. */
class GridSerializersTest {

    private static HazelcastInstance hz;
    private static SerializationService ss;

    @BeforeAll
    static void start() {
        hz = TestGrid.start(1, new InMemoryInventoryRepository()).get(0);
        ss = ((SerializationServiceSupport) hz).getSerializationService();
    }

    @AfterAll
    static void stop() {
        hz.shutdown();
    }

    private static <T> T roundTrip(T value) {
        return ss.toObject(ss.toData(value));
    }

    @Test
    void admissionStripes_theirKeysAndEveryStripeCommand_roundTrip() {
        AdmissionStripe fresh = AdmissionStripe.fresh("s", "FLOOR", 2, 10);
        AdmissionStripe taken = fresh.take("h1", "alice", 3, 5, 900, 10, 0).next();
        AdmissionStripe lapsedAndTaken = taken.take("h2", "bob", 2, 2, 2_000, 1_000, 0).next();

        assertEquals(new StripeKey("s", "FLOOR", 2), roundTrip(new StripeKey("s", "FLOOR", 2)));
        assertEquals(fresh, roundTrip(fresh));
        assertEquals(taken, roundTrip(taken));
        assertEquals(List.of("h1"), roundTrip(lapsedAndTaken).change().ended());
        assertEquals(lapsedAndTaken, roundTrip(lapsedAndTaken));
        for (StripeCommand c : List.<StripeCommand>of(new StripeCommand.Take("h", "a", 2, 4, 2, 900, 10, 5),
                new StripeCommand.Release("h", 11), new StripeCommand.Expire(12, 5), new StripeCommand.Confirm("h", 13, 5),
                new StripeCommand.Extend("h", 2_000, 14, 5), new StripeCommand.GiveBack("h", 3, 15))) {
            assertEquals(new StripeProcessor(c), roundTrip(new StripeProcessor(c)));
        }
    }

    @Test
    void combinedTakes_andTheStripeCarryingThemAll_roundTrip() {
        AdmissionStripe first = AdmissionStripe.fresh("s", "FLOOR", 2, 10).take("h1", "alice", 3, 5, 900, 10, 0).next();
        AdmissionStripe both = first.combinedWith(first.take("h2", "bob", 2, 2, 950, 12, 0).next());
        StripeTakesProcessor takes = new StripeTakesProcessor(List.of(new StripeCommand.Take("h1", "a", 2, 4, 2, 900, 10, 5),
                new StripeCommand.Take("h2", "b", 1, 1, 1, 950, 11, 5)));

        assertEquals(both, roundTrip(both));
        assertEquals(takes, roundTrip(takes));
    }

    @Test
    void stripeExpiryProcessor_roundTrips() {
        assertEquals(new StripeExpiryProcessor(), roundTrip(new StripeExpiryProcessor()));
    }

    @Test
    void soldOutMarks_roundTrip() {
        assertEquals(new SoldOutMark(42, 3, 9_000), roundTrip(new SoldOutMark(42, 3, 9_000)));
        assertEquals(SoldOutMark.cleared(7), roundTrip(SoldOutMark.cleared(7)));
    }

    @Test
    void stripeCounts_andTheProcessorThatCountsThem_roundTrip() {
        assertEquals(new StripeCount(3, 10, 7, Long.MAX_VALUE), roundTrip(new StripeCount(3, 10, 7, Long.MAX_VALUE)));
        assertEquals(new StripeCountProcessor(12, 5), roundTrip(new StripeCountProcessor(12, 5)));
    }

    @Test
    void keys_roundTrip() {
        assertEquals(BlockKey.of("s", 3, 2), roundTrip(BlockKey.of("s", 3, 2)));
        assertEquals(new AllowanceKey("s", "alice"), roundTrip(new AllowanceKey("s", "alice")));
    }

    @Test
    void seatBlock_roundTrips_withHoldsSalesAndItsTransition() {
        SeatBlock b = ((BlockDecision.Changed) SeatBlock.fresh("s", 1, 6)
                .hold("h1", "alice", new int[] {1, 2}, 500, 10, 0, new String[] {"A-1-2", "A-1-3"})).next();
        b = ((BlockDecision.Changed) b.hold("h2", "bob", new int[] {4}, 600, 10, 0, new String[] {"A-1-5"})).next();
        b = ((BlockDecision.Changed) b.confirm("h2", new int[] {4}, 99, 20, 0)).next();

        SeatBlock back = roundTrip(b);

        assertEquals(b.showId(), back.showId());
        assertEquals(b.blockId(), back.blockId());
        assertEquals(b.revision(), back.revision());
        assertArrayEquals(b.statusBytes(), back.statusBytes());
        assertArrayEquals(b.versionArray(), back.versionArray());
        assertArrayEquals(b.refArray(), back.refArray());
        assertEquals(b.holds(), back.holds());
        assertEquals(b.transition(), back.transition());
        assertEquals(null, roundTrip(SeatBlock.fresh("s", 0, 2)).transition());
    }

    @Test
    void combinedClaims_andTheValueCarryingAllTheirTransitions_roundTrip() {
        BlockClaimsProcessor claims = new BlockClaimsProcessor(List.of(
                new BlockCommand.Hold("h1", "alice", new int[] {1, 2}, 500, 10, 0, new String[] {"A-1-2", "A-1-3"}),
                new BlockCommand.Hold("h2", "bob", new int[] {4}, 600, 10, 0, new String[] {"A-1-5"})));
        Map.Entry<BlockKey, SeatBlock> entry = new java.util.AbstractMap.SimpleEntry<>(BlockKey.of("s", 1, 1),
                SeatBlock.fresh("s", 1, 6));
        claims.process(entry);

        BlockClaimsProcessor claimsBack = roundTrip(claims);
        SeatBlock back = roundTrip(entry.getValue());

        assertEquals(claims.claims().stream().map(c -> c.holdId() + java.util.Arrays.toString(c.seats())).toList(),
                claimsBack.claims().stream().map(c -> c.holdId() + java.util.Arrays.toString(c.seats())).toList());
        assertEquals(2, back.transitions().size());
        assertEquals(entry.getValue().transitions(), back.transitions());
        assertArrayEquals(entry.getValue().statusBytes(), back.statusBytes());
    }

    @Test
    void everyBlockCommand_roundTrips() {
        List<BlockCommand> commands = List.of(
                new BlockCommand.Hold("h", "a", new int[] {1}, 5, 6, 7, new String[] {"A-1-1"}),
                new BlockCommand.Release("h", 1, "a", "r"),
                new BlockCommand.Expire(1, 2),
                new BlockCommand.Extend("h", 9, 1, 2),
                new BlockCommand.Confirm("h", new int[] {1, 2}, 77, 1, 2),
                new BlockCommand.Cancel(77, 1, "a", "r"),
                new BlockCommand.Block(new int[] {3}, 1, "admin", "r"),
                new BlockCommand.Unblock(new int[] {3}, 1, "admin", "r"));
        for (BlockCommand c : commands) {
            BlockCommand back = roundTrip(new BlockCommandProcessor(c)).command();
            assertEquals(c.getClass(), back.getClass());
            assertEquals(c.toString().replaceAll("\\[I@\\w+|\\[Ljava.lang.String;@\\w+", "[]"),
                    back.toString().replaceAll("\\[I@\\w+|\\[Ljava.lang.String;@\\w+", "[]"));
            SeatBlock start = ((BlockDecision.Changed) SeatBlock.fresh("s", 0, 4)
                    .hold("h", "a", new int[] {1, 2}, 5, 0, 0, new String[0])).next();
            assertEquals(describe(c.decide(start)), describe(back.decide(start)), c.toString());
        }
    }

    private static String describe(BlockDecision d) {
        return switch (d) {
            case BlockDecision.Changed c -> "changed " + c.next().transition();
            case BlockDecision.Unchanged u -> "unchanged";
            case BlockDecision.Rejected r -> "rejected " + r.reason() + java.util.Arrays.toString(r.seats());
        };
    }

    @Test
    void outcomesAllowancesAndTheRest_roundTrip() {
        BlockOutcome o = new BlockOutcome(BlockOutcome.Result.REJECTED, Rejection.SEATS_UNAVAILABLE, new int[] {4}, 9);
        BlockOutcome ob = roundTrip(o);
        assertEquals(o.result(), ob.result());
        assertEquals(o.reason(), ob.reason());
        assertArrayEquals(o.seats(), ob.seats());

        AccountAllowance a = new AccountAllowance(List.of(new AccountAllowance.HoldEntry("h", 2, 50)), 3);
        assertEquals(a, roundTrip(a));
        for (AllowanceCommand c : List.of(new AllowanceCommand.Reserve("h", 2, 3, 4, 5, 6),
                new AllowanceCommand.Release("h"), new AllowanceCommand.Confirm("h"),
                new AllowanceCommand.Extend("h", 9), new AllowanceCommand.CancelSale(2))) {
            assertEquals(new AllowanceProcessor(c, null), roundTrip(new AllowanceProcessor(c, null)));
            assertEquals(new AllowanceProcessor(c, a), roundTrip(new AllowanceProcessor(c, a)));
            AllowanceProcessor previous = roundTrip(AllowanceProcessor.fromPreviousRelease(c));
            assertTrue(previous.fromPreviousRelease(), "sent on for a caller of the previous release");
            assertEquals(AllowanceProcessor.fromPreviousRelease(c), previous);
        }
        assertEquals(new LapsedHoldsPredicate(5, 6), roundTrip(new LapsedHoldsPredicate(5, 6)));
        assertEquals(new StoredResponse("x", 201, "{}", 5), roundTrip(new StoredResponse("x", 201, "{}", 5)));
        EventListing e = new EventListing("e", "t", "a", "c", "d", "v", "vn", "city", 1, 2);
        assertEquals(e, roundTrip(e));
    }

    @Test
    void anAllowanceProcessorAsThePreviousReleaseWritesIt_isReadAsOneThatCannotTakeUnknown() {
        // the previous release's schema: the command's fields, no "known", no "answersUnknown"
        com.hazelcast.nio.serialization.genericrecord.GenericRecord old =
                com.hazelcast.nio.serialization.genericrecord.GenericRecordBuilder.compact("AllowanceProcessor")
                        .setString("kind", "RESERVE").setString("holdId", "h").setInt32("seats", 2)
                        .setInt64("expiresAt", 3).setInt64("now", 4).setInt64("grace", 5).setInt32("max", 6).build();
        AllowanceProcessor p = ss.toObject(ss.toData(old));
        assertEquals(new AllowanceCommand.Reserve("h", 2, 3, 4, 5, 6), p.command());
        assertTrue(p.fromPreviousRelease());
    }

    @Test
    void waitingRoom_roundTrips_withItsQueueAndCounters() {
        org.boxoffice.grid.room.WaitingRoom room = new org.boxoffice.grid.room.WaitingRoom("s",
                org.boxoffice.grid.room.WaitingRoom.Mode.AUTO, 1_000, 5, 2, 60_000);
        java.util.Map.Entry<String, org.boxoffice.grid.room.WaitingRoom> e = new java.util.AbstractMap.SimpleEntry<>("s", room);
        new org.boxoffice.grid.room.RoomProcessor(new org.boxoffice.grid.room.RoomCommand.Join("early", 10, 1)).process(e);
        new org.boxoffice.grid.room.RoomProcessor(new org.boxoffice.grid.room.RoomCommand.Join("b", 2_000, 99)).process(e);
        new org.boxoffice.grid.room.RoomProcessor(new org.boxoffice.grid.room.RoomCommand.Tick(3_000, 100, 7)).process(e);

        org.boxoffice.grid.room.WaitingRoom back = roundTrip(room);

        assertEquals(room.view("early"), back.view("early"));
        assertEquals(room.view("b"), back.view("b"));
        assertEquals(room.view(null), roundTrip(room.view(null)));
        assertTrue(back.shuffleDue(), "sealed, its shuffle not applied yet: " + back.view(null));
        new org.boxoffice.grid.room.RoomProcessor(new org.boxoffice.grid.room.RoomCommand.Shuffle(back.seed())).process(
                new java.util.AbstractMap.SimpleEntry<>("s", back));
        assertEquals(1, back.view("early").position(), "the pre-queue's one fan is first");
        assertEquals(2, back.view("b").position(), "the first fan after the opening comes after the pre-queue");
        for (org.boxoffice.grid.room.RoomCommand c : List.of(
                new org.boxoffice.grid.room.RoomCommand.Configure("s", org.boxoffice.grid.room.WaitingRoom.Mode.ON, 1, 2.5, 3, 4, 5),
                new org.boxoffice.grid.room.RoomCommand.Join("a", 1, 2), new org.boxoffice.grid.room.RoomCommand.Tick(1, 2, 3),
                new org.boxoffice.grid.room.RoomCommand.Converted(7, 5), new org.boxoffice.grid.room.RoomCommand.Shuffle(6),
                new org.boxoffice.grid.room.RoomCommand.Read("a"), new org.boxoffice.grid.room.RoomCommand.Read(null))) {
            assertEquals(c, roundTrip(new org.boxoffice.grid.room.RoomProcessor(c)).command());
        }
    }

    @Test
    void registry_hasOneSerializerPerType() {
        Set<String> names = GridSerializers.all().stream().map(s -> s.getTypeName()).collect(Collectors.toSet());
        assertEquals(GridSerializers.all().size(), names.size());
    }
}
