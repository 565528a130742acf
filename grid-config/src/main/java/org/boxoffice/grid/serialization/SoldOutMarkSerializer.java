package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.grid.SoldOutMark;

public final class SoldOutMarkSerializer implements CompactSerializer<SoldOutMark> {
    @Override
    public SoldOutMark read(CompactReader in) {
        return new SoldOutMark(in.readInt64("epoch"), in.readInt32("left"), in.readInt64("until"));
    }

    @Override
    public void write(CompactWriter out, SoldOutMark mark) {
        out.writeInt64("epoch", mark.epoch());
        out.writeInt32("left", mark.left());
        out.writeInt64("until", mark.until());
    }

    @Override
    public String getTypeName() {
        return "SoldOutMark";
    }

    @Override
    public Class<SoldOutMark> getCompactClass() {
        return SoldOutMark.class;
    }
}
