package org.boxoffice.grid.waitlist;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;

public final class SeatsReturnedTaskSerializer implements CompactSerializer<SeatsReturnedTask> {
    @Override
    public SeatsReturnedTask read(CompactReader in) {
        return new SeatsReturnedTask(in.readString("showId"));
    }

    @Override
    public void write(CompactWriter out, SeatsReturnedTask t) {
        out.writeString("showId", t.showId());
    }

    @Override
    public String getTypeName() {
        return "SeatsReturnedTask";
    }

    @Override
    public Class<SeatsReturnedTask> getCompactClass() {
        return SeatsReturnedTask.class;
    }
}
