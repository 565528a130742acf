package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.domain.Rejection;
import org.boxoffice.grid.BlockOutcome;

public final class BlockOutcomeSerializer implements CompactSerializer<BlockOutcome> {
    @Override
    public BlockOutcome read(CompactReader in) {
        String reason = in.readString("reason");
        return new BlockOutcome(BlockOutcome.Result.valueOf(in.readString("result")),
                reason == null ? null : Rejection.valueOf(reason), in.readArrayOfInt32("seats"), in.readInt64("revision"));
    }

    @Override
    public void write(CompactWriter out, BlockOutcome o) {
        out.writeString("result", o.result().name());
        out.writeString("reason", o.reason() == null ? null : o.reason().name());
        out.writeArrayOfInt32("seats", o.seats());
        out.writeInt64("revision", o.revision());
    }

    @Override
    public String getTypeName() {
        return "BlockOutcome";
    }

    @Override
    public Class<BlockOutcome> getCompactClass() {
        return BlockOutcome.class;
    }
}
