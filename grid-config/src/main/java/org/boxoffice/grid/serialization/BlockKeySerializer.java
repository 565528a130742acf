package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.grid.BlockKey;

public final class BlockKeySerializer implements CompactSerializer<BlockKey> {
    @Override
    public BlockKey read(CompactReader in) {
        return new BlockKey(in.readString("showId"), in.readInt32("blockId"), in.readInt32("group"));
    }

    @Override
    public void write(CompactWriter out, BlockKey key) {
        out.writeString("showId", key.showId());
        out.writeInt32("blockId", key.blockId());
        out.writeInt32("group", key.group());
    }

    @Override
    public String getTypeName() {
        return "BlockKey";
    }

    @Override
    public Class<BlockKey> getCompactClass() {
        return BlockKey.class;
    }
}
