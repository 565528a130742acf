package org.boxoffice.grid;

import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.SeatState;
import org.junit.jupiter.api.Test;

import java.util.AbstractMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

class BlockCommandProcessorTest {

    private static final BlockKey KEY = BlockKey.of("s1", 0, 4);
    private static final String[] IDS = {"A-1-1"};

    private static Map.Entry<BlockKey, SeatBlock> entry(SeatBlock block) {
        return new AbstractMap.SimpleEntry<>(KEY, block);
    }

    private static BlockOutcome run(Map.Entry<BlockKey, SeatBlock> e, BlockCommand c) {
        return new BlockCommandProcessor(c).process(e);
    }

    @Test
    void hold_replacesTheValue_withANewOne_andLeavesTheOldUntouched() {
        SeatBlock original = SeatBlock.fresh("s1", 0, 5);
        Map.Entry<BlockKey, SeatBlock> e = entry(original);

        BlockOutcome outcome = run(e, new BlockCommand.Hold("h1", "alice", new int[] {2, 3}, 100, 10, 0, IDS));

        assertEquals(BlockOutcome.Result.CHANGED, outcome.result());
        assertArrayEquals(new int[] {2, 3}, outcome.seats());
        assertNotSame(original, e.getValue());
        assertEquals(SeatState.Status.AVAILABLE, original.status(2));
        assertEquals(SeatState.Status.HELD, e.getValue().status(2));
    }

    @Test
    void combinedClaims_areDecidedInOrder_aLaterClaimOnSeatsAnEarlierTookIsRefused_andTheValueCarriesEveryChange() {
        SeatBlock original = SeatBlock.fresh("s1", 0, 8);
        Map.Entry<BlockKey, SeatBlock> e = entry(original);

        java.util.List<BlockOutcome> outcomes = new BlockClaimsProcessor(java.util.List.of(
                new BlockCommand.Hold("h1", "alice", new int[] {1, 2}, 100, 10, 0, IDS),
                new BlockCommand.Hold("h2", "bob", new int[] {2, 3}, 100, 10, 0, IDS),
                new BlockCommand.Hold("h3", "carol", new int[] {5}, 100, 10, 0, IDS))).process(e);

        assertEquals(java.util.List.of(BlockOutcome.Result.CHANGED, BlockOutcome.Result.REJECTED, BlockOutcome.Result.CHANGED),
                outcomes.stream().map(BlockOutcome::result).toList());
        assertArrayEquals(new int[] {2}, outcomes.get(1).seats(), "refused for the seat the first claim took");
        assertEquals(Rejection.SEATS_UNAVAILABLE, outcomes.get(1).reason());
        SeatBlock value = e.getValue();
        assertEquals(java.util.List.of("h1", "h3"), value.transitions().stream().map(t -> t.holdId()).toList());
        assertArrayEquals(new int[] {0, 1, 1, 0, 0, 1, 0, 0}, value.versionArray());
        assertEquals(SeatState.Status.AVAILABLE, value.status(3));
        assertEquals(SeatState.Status.AVAILABLE, original.status(1), "the stored value is never changed in place");
    }

    @Test
    void combinedClaims_thatAllFail_leaveTheEntryAsItWas() {
        SeatBlock original = SeatBlock.fresh("s1", 0, 4);
        Map.Entry<BlockKey, SeatBlock> e = entry(original);
        run(e, new BlockCommand.Hold("h0", "zoe", new int[] {0, 1}, 100, 10, 0, IDS));
        SeatBlock held = e.getValue();

        java.util.List<BlockOutcome> outcomes = new BlockClaimsProcessor(java.util.List.of(
                new BlockCommand.Hold("h1", "alice", new int[] {1}, 100, 10, 0, IDS),
                new BlockCommand.Hold("h2", "bob", new int[] {0}, 100, 10, 0, IDS))).process(e);

        assertEquals(java.util.List.of(BlockOutcome.Result.REJECTED, BlockOutcome.Result.REJECTED),
                outcomes.stream().map(BlockOutcome::result).toList());
        assertSame(held, e.getValue());
        assertEquals(java.util.List.of(BlockOutcome.Result.MISSING, BlockOutcome.Result.MISSING),
                new BlockClaimsProcessor(java.util.List.of(new BlockCommand.Hold("h1", "a", new int[] {1}, 1, 1, 0, IDS),
                        new BlockCommand.Hold("h2", "b", new int[] {2}, 1, 1, 0, IDS))).process(entry(null)).stream()
                        .map(BlockOutcome::result).toList());
    }

    @Test
    void rejectedHold_leavesTheEntryAsItWas() {
        Map.Entry<BlockKey, SeatBlock> e = entry(SeatBlock.fresh("s1", 0, 5));
        run(e, new BlockCommand.Hold("h1", "alice", new int[] {2}, 100, 10, 0, IDS));
        SeatBlock afterFirst = e.getValue();

        BlockOutcome outcome = run(e, new BlockCommand.Hold("h2", "bob", new int[] {1, 2}, 100, 10, 0, IDS));

        assertEquals(BlockOutcome.Result.REJECTED, outcome.result());
        assertEquals(Rejection.SEATS_UNAVAILABLE, outcome.reason());
        assertArrayEquals(new int[] {2}, outcome.seats());
        assertSame(afterFirst, e.getValue());
    }

    @Test
    void missingBlock_isReportedNotCreated() {
        Map.Entry<BlockKey, SeatBlock> e = entry(null);

        assertEquals(BlockOutcome.Result.MISSING, run(e, new BlockCommand.Expire(10, 0)).result());
        assertEquals(null, e.getValue());
    }

    @Test
    void everyCommandKind_reachesItsTransition() {
        Map.Entry<BlockKey, SeatBlock> e = entry(SeatBlock.fresh("s1", 0, 5));
        run(e, new BlockCommand.Hold("h1", "alice", new int[] {0, 1}, 100, 10, 0, IDS));
        assertEquals(BlockOutcome.Result.CHANGED, run(e, new BlockCommand.Extend("h1", 500, 20, 0)).result());
        assertEquals(BlockOutcome.Result.CHANGED, run(e, new BlockCommand.Confirm("h1", new int[] {0, 1}, 7, 30, 0)).result());
        assertEquals(new SeatState.Sold(7), e.getValue().state(0));
        assertEquals(BlockOutcome.Result.CHANGED, run(e, new BlockCommand.Cancel(7, 40, "alice", "changed plans")).result());
        assertEquals(BlockOutcome.Result.CHANGED, run(e, new BlockCommand.Block(new int[] {4}, 50, "admin", "camera")).result());
        assertEquals(BlockOutcome.Result.CHANGED, run(e, new BlockCommand.Unblock(new int[] {4}, 60, "admin", "moved")).result());
        run(e, new BlockCommand.Hold("h2", "bob", new int[] {3}, 100, 70, 0, IDS));
        assertEquals(BlockOutcome.Result.CHANGED, run(e, new BlockCommand.Release("h2", 80, "bob", "released")).result());
        run(e, new BlockCommand.Hold("h3", "bob", new int[] {3}, 100, 90, 0, IDS));
        assertEquals(BlockOutcome.Result.UNCHANGED, run(e, new BlockCommand.Expire(99, 0)).result());
        assertEquals(BlockOutcome.Result.CHANGED, run(e, new BlockCommand.Expire(100, 0)).result());
        assertEquals(SeatState.Status.AVAILABLE, e.getValue().status(3));
    }

    @Test
    void blocksOfOneShow_spreadOverItsGroups_andKeepTheShowInThePartitionKey() {
        assertEquals("s1#1", BlockKey.of("s1", 5, 4).getPartitionKey());
        assertEquals("s1#0", BlockKey.of("s1", 5, 1).getPartitionKey());
    }
}
