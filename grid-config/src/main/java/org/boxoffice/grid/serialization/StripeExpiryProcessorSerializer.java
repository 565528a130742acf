package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.grid.StripeExpiryProcessor;

/** No fields: the processor asks the same of every stripe. */
public final class StripeExpiryProcessorSerializer implements CompactSerializer<StripeExpiryProcessor> {
    @Override
    public StripeExpiryProcessor read(CompactReader in) {
        return new StripeExpiryProcessor();
    }

    @Override
    public void write(CompactWriter out, StripeExpiryProcessor p) {
    }

    @Override
    public String getTypeName() {
        return "StripeExpiryProcessor";
    }

    @Override
    public Class<StripeExpiryProcessor> getCompactClass() {
        return StripeExpiryProcessor.class;
    }
}
