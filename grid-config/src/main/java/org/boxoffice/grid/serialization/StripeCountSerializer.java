package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.grid.StripeCount;

public final class StripeCountSerializer implements CompactSerializer<StripeCount> {
    @Override
    public StripeCount read(CompactReader in) {
        return new StripeCount(in.readInt32("free"), in.readInt32("capacity"), in.readInt64("version"),
                in.readInt64("firstLapse"));
    }

    @Override
    public void write(CompactWriter out, StripeCount count) {
        out.writeInt32("free", count.free());
        out.writeInt32("capacity", count.capacity());
        out.writeInt64("version", count.version());
        out.writeInt64("firstLapse", count.firstLapse());
    }

    @Override
    public String getTypeName() {
        return "StripeCount";
    }

    @Override
    public Class<StripeCount> getCompactClass() {
        return StripeCount.class;
    }
}
