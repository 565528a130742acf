package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.grid.StripeKey;

public final class StripeKeySerializer implements CompactSerializer<StripeKey> {
    @Override
    public StripeKey read(CompactReader in) {
        return new StripeKey(in.readString("showId"), in.readString("area"), in.readInt32("stripe"));
    }

    @Override
    public void write(CompactWriter out, StripeKey key) {
        out.writeString("showId", key.showId());
        out.writeString("area", key.area());
        out.writeInt32("stripe", key.stripe());
    }

    @Override
    public String getTypeName() {
        return "StripeKey";
    }

    @Override
    public Class<StripeKey> getCompactClass() {
        return StripeKey.class;
    }
}
