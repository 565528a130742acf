package org.boxoffice.grid.waitlist;

import com.hazelcast.nio.serialization.FieldKind;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.domain.WaitlistEntry;

/** Deterministic: equal entries serialize to equal bytes, which is how the queue finds an item to remove. */
public final class WaitlistEntrySerializer implements CompactSerializer<WaitlistEntry> {

    @Override
    public WaitlistEntry read(CompactReader in) {
        // an entry written by a member from before the waitlist by count has no area: it waits for seats
        String area = in.getFieldKind("area") == FieldKind.STRING ? in.readString("area") : null;
        return new WaitlistEntry(in.readInt64("entryId"), in.readString("showId"), in.readString("accountId"),
                in.readInt32("quantity"), in.readString("section"), in.readInt64("joinedAt"), in.readString("recipient"),
                area);
    }

    @Override
    public void write(CompactWriter out, WaitlistEntry e) {
        out.writeInt64("entryId", e.entryId());
        out.writeString("showId", e.showId());
        out.writeString("accountId", e.accountId());
        out.writeInt32("quantity", e.quantity());
        out.writeString("section", e.section());
        out.writeInt64("joinedAt", e.joinedAt());
        out.writeString("recipient", e.recipient());
        out.writeString("area", e.area());
    }

    @Override
    public String getTypeName() {
        return "WaitlistEntry";
    }

    @Override
    public Class<WaitlistEntry> getCompactClass() {
        return WaitlistEntry.class;
    }
}
