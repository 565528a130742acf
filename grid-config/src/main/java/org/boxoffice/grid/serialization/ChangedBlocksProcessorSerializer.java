package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.grid.ChangedBlocksProcessor;

public final class ChangedBlocksProcessorSerializer implements CompactSerializer<ChangedBlocksProcessor> {
    @Override
    public ChangedBlocksProcessor read(CompactReader in) {
        return new ChangedBlocksProcessor(in.readArrayOfInt64("known"));
    }

    @Override
    public void write(CompactWriter out, ChangedBlocksProcessor p) {
        out.writeArrayOfInt64("known", p.known());
    }

    @Override
    public String getTypeName() {
        return "ChangedBlocksProcessor";
    }

    @Override
    public Class<ChangedBlocksProcessor> getCompactClass() {
        return ChangedBlocksProcessor.class;
    }
}
