package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.grid.StoredResponse;

public final class StoredResponseSerializer implements CompactSerializer<StoredResponse> {
    @Override
    public StoredResponse read(CompactReader in) {
        return new StoredResponse(in.readString("requestHash"), in.readInt32("status"), in.readString("body"),
                in.readInt64("createdAt"));
    }

    @Override
    public void write(CompactWriter out, StoredResponse r) {
        out.writeString("requestHash", r.requestHash());
        out.writeInt32("status", r.status());
        out.writeString("body", r.body());
        out.writeInt64("createdAt", r.createdAt());
    }

    @Override
    public String getTypeName() {
        return "StoredResponse";
    }

    @Override
    public Class<StoredResponse> getCompactClass() {
        return StoredResponse.class;
    }
}
