package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.grid.AllowanceKey;

public final class AllowanceKeySerializer implements CompactSerializer<AllowanceKey> {
    @Override
    public AllowanceKey read(CompactReader in) {
        return new AllowanceKey(in.readString("showId"), in.readString("accountId"));
    }

    @Override
    public void write(CompactWriter out, AllowanceKey key) {
        out.writeString("showId", key.showId());
        out.writeString("accountId", key.accountId());
    }

    @Override
    public String getTypeName() {
        return "AllowanceKey";
    }

    @Override
    public Class<AllowanceKey> getCompactClass() {
        return AllowanceKey.class;
    }
}
