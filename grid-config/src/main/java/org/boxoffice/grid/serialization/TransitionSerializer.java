package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.Transition;

public final class TransitionSerializer implements CompactSerializer<Transition> {

    private static final SeatState.Status[] STATUSES = SeatState.Status.values();

    @Override
    public Transition read(CompactReader in) {
        byte[] old = in.readArrayOfInt8("oldStatuses");
        SeatState.Status[] oldStatuses = new SeatState.Status[old.length];
        for (int i = 0; i < old.length; i++) {
            oldStatuses[i] = STATUSES[old[i]];
        }
        return new Transition(Transition.Kind.valueOf(in.readString("kind")), in.readInt64("at"),
                in.readString("actor"), in.readString("reason"), in.readArrayOfInt32("seats"),
                in.readArrayOfInt32("expectedVersions"), oldStatuses, in.readArrayOfString("oldHoldIds"),
                STATUSES[in.readInt8("newStatus")], in.readString("holdId"), in.readString("accountId"),
                in.readInt64("expiresAt"), in.readInt64("bookingId"), in.readArrayOfString("holdSeatIds"));
    }

    @Override
    public void write(CompactWriter out, Transition t) {
        byte[] old = new byte[t.oldStatuses().length];
        for (int i = 0; i < old.length; i++) {
            old[i] = (byte) t.oldStatuses()[i].ordinal();
        }
        out.writeString("kind", t.kind().name());
        out.writeInt64("at", t.at());
        out.writeString("actor", t.actor());
        out.writeString("reason", t.reason());
        out.writeArrayOfInt32("seats", t.seats());
        out.writeArrayOfInt32("expectedVersions", t.expectedVersions());
        out.writeArrayOfInt8("oldStatuses", old);
        out.writeArrayOfString("oldHoldIds", t.oldHoldIds());
        out.writeInt8("newStatus", (byte) t.newStatus().ordinal());
        out.writeString("holdId", t.holdId());
        out.writeString("accountId", t.accountId());
        out.writeInt64("expiresAt", t.expiresAt());
        out.writeInt64("bookingId", t.bookingId());
        out.writeArrayOfString("holdSeatIds", t.holdSeatIds());
    }

    @Override
    public String getTypeName() {
        return "Transition";
    }

    @Override
    public Class<Transition> getCompactClass() {
        return Transition.class;
    }
}
