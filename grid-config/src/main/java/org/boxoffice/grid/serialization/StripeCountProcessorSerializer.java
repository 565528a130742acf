package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.grid.StripeCountProcessor;

public final class StripeCountProcessorSerializer implements CompactSerializer<StripeCountProcessor> {
    @Override
    public StripeCountProcessor read(CompactReader in) {
        return new StripeCountProcessor(in.readInt64("now"), in.readInt64("grace"));
    }

    @Override
    public void write(CompactWriter out, StripeCountProcessor p) {
        out.writeInt64("now", p.now());
        out.writeInt64("grace", p.graceMillis());
    }

    @Override
    public String getTypeName() {
        return "StripeCountProcessor";
    }

    @Override
    public Class<StripeCountProcessor> getCompactClass() {
        return StripeCountProcessor.class;
    }
}
