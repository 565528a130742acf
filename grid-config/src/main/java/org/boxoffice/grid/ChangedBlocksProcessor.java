package org.boxoffice.grid;

import com.hazelcast.core.ReadOnly;
import com.hazelcast.map.EntryProcessor;
import org.boxoffice.domain.SeatBlock;

import java.util.Map;

/**
 * A read of a show's blocks that ships only what the reader does not have: run on the owner of each
 * block, it answers the block's value when its revision differs from the one the reader holds
 * ({@code known[blockId]}; {@link #NONE} for none: an untouched block's revision is 0), {@link #GONE} when the reader holds a value the grid no longer
 * has, and nothing when the reader is up to date. A seat map's periodic full read of an unchanged
 * show so costs the owners no serialization of a block and the reader no copy. Read-only: no write,
 * no backup; a block not in memory is loaded from the referee first, as a plain read would.
 *
 * @param known per block id, the revision of the value the reader holds ({@link #NONE}: it holds none)
 */
public record ChangedBlocksProcessor(long[] known) implements EntryProcessor<BlockKey, SeatBlock, Object>, ReadOnly {

    /** In {@code known}: the reader holds no value of this block. */
    public static final long NONE = -1;

    /** The answer for a block the reader holds a value of and the grid no longer has. */
    public static final Long GONE = -1L;

    @Override
    public Object process(Map.Entry<BlockKey, SeatBlock> entry) {
        int blockId = entry.getKey().blockId();
        long held = blockId >= 0 && blockId < known.length ? known[blockId] : NONE;
        SeatBlock value = entry.getValue();
        if (value == null) {
            return held == NONE ? null : GONE;
        }
        return held != NONE && value.revision() == held ? null : value;
    }
}
