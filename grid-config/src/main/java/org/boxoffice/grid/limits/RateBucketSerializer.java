package org.boxoffice.grid.limits;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;

public final class RateBucketSerializer implements CompactSerializer<RateBucket> {
    @Override
    public RateBucket read(CompactReader in) {
        return new RateBucket(in.readFloat64("tokens"), in.readInt64("updatedAt"));
    }

    @Override
    public void write(CompactWriter out, RateBucket b) {
        out.writeFloat64("tokens", b.tokens());
        out.writeInt64("updatedAt", b.updatedAt());
    }

    @Override
    public String getTypeName() {
        return "RateBucket";
    }

    @Override
    public Class<RateBucket> getCompactClass() {
        return RateBucket.class;
    }
}
