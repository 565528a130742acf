package org.boxoffice.grid.limits;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;

public final class TakeTokenProcessorSerializer implements CompactSerializer<TakeTokenProcessor> {
    @Override
    public TakeTokenProcessor read(CompactReader in) {
        return new TakeTokenProcessor(in.readInt32("perMinute"), in.readInt64("now"));
    }

    @Override
    public void write(CompactWriter out, TakeTokenProcessor p) {
        out.writeInt32("perMinute", p.perMinute());
        out.writeInt64("now", p.now());
    }

    @Override
    public String getTypeName() {
        return "TakeTokenProcessor";
    }

    @Override
    public Class<TakeTokenProcessor> getCompactClass() {
        return TakeTokenProcessor.class;
    }
}
