package org.boxoffice.grid;

import org.boxoffice.domain.SeatBlock;
import org.junit.jupiter.api.Test;

import java.util.AbstractMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class ChangedBlocksProcessorTest {

    private static final long NONE = ChangedBlocksProcessor.NONE;

    private static Object answer(long[] known, int blockId, SeatBlock value) {
        return new ChangedBlocksProcessor(known).process(new AbstractMap.SimpleEntry<>(BlockKey.of("s", blockId, 1), value));
    }

    private static SeatBlock block(int blockId, long revision) {
        return new SeatBlock("s", blockId, revision, new byte[2], new int[2], new long[2], java.util.List.of(), null);
    }

    @Test
    void aBlockAtTheRevisionTheReaderHolds_isNotSent_evenAtRevisionZero() {
        assertNull(answer(new long[] {4}, 0, block(0, 4)));
        assertNull(answer(new long[] {0}, 0, block(0, 0)));
    }

    @Test
    void aBlockTheReaderDoesNotHold_orHoldsAtAnotherRevision_isSent() {
        SeatBlock untouched = block(1, 0);
        assertSame(untouched, answer(new long[] {NONE, NONE}, 1, untouched), "an untouched block is revision 0, not 'none'");
        SeatBlock moved = block(1, 9);
        assertSame(moved, answer(new long[] {NONE, 8}, 1, moved));
        assertSame(moved, answer(new long[] {NONE}, 1, moved), "a block beyond what the reader knows is sent");
    }

    @Test
    void aBlockTheGridNoLongerHas_isGoneIfTheReaderHeldIt_elseNothing() {
        assertEquals(ChangedBlocksProcessor.GONE, answer(new long[] {3}, 0, null));
        assertEquals(ChangedBlocksProcessor.GONE, answer(new long[] {0}, 0, null));
        assertNull(answer(new long[] {NONE}, 0, null));
    }
}
