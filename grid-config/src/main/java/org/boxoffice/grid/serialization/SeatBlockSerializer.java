package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.FieldKind;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.Transition;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Per-seat arrays as primitive arrays; the active holds as three parallel arrays. */
public final class SeatBlockSerializer implements CompactSerializer<SeatBlock> {

    @Override
    public SeatBlock read(CompactReader in) {
        String[] holdIds = in.readArrayOfString("holdIds");
        String[] accounts = in.readArrayOfString("holdAccounts");
        long[] expiries = in.readArrayOfInt64("holdExpiries");
        List<SeatBlock.HoldSlot> holds = new ArrayList<>(holdIds.length);
        for (int i = 0; i < holdIds.length; i++) {
            holds.add(new SeatBlock.HoldSlot(holdIds[i], accounts[i], expiries[i]));
        }
        // absent from values written before claims were combined
        Transition[] earlier = in.getFieldKind("earlier") == FieldKind.ARRAY_OF_COMPACT
                ? in.readArrayOfCompact("earlier", Transition.class) : null;
        return new SeatBlock(in.readString("showId"), in.readInt32("blockId"), in.readInt64("revision"),
                in.readArrayOfInt8("statuses"), in.readArrayOfInt32("versions"), in.readArrayOfInt64("refs"),
                holds, earlier == null ? List.of() : Arrays.asList(earlier), in.readCompact("transition"));
    }

    @Override
    public void write(CompactWriter out, SeatBlock b) {
        List<SeatBlock.HoldSlot> holds = b.holds();
        String[] holdIds = new String[holds.size()];
        String[] accounts = new String[holds.size()];
        long[] expiries = new long[holds.size()];
        for (int i = 0; i < holds.size(); i++) {
            holdIds[i] = holds.get(i).holdId();
            accounts[i] = holds.get(i).accountId();
            expiries[i] = holds.get(i).expiresAt();
        }
        out.writeString("showId", b.showId());
        out.writeInt32("blockId", b.blockId());
        out.writeInt64("revision", b.revision());
        out.writeArrayOfInt8("statuses", b.statusBytes());
        out.writeArrayOfInt32("versions", b.versionArray());
        out.writeArrayOfInt64("refs", b.refArray());
        out.writeArrayOfString("holdIds", holdIds);
        out.writeArrayOfString("holdAccounts", accounts);
        out.writeArrayOfInt64("holdExpiries", expiries);
        List<Transition> all = b.transitions();
        out.writeArrayOfCompact("earlier", all.isEmpty() ? new Transition[0]
                : all.subList(0, all.size() - 1).toArray(Transition[]::new));
        out.writeCompact("transition", b.transition());
    }

    @Override
    public String getTypeName() {
        return "SeatBlock";
    }

    @Override
    public Class<SeatBlock> getCompactClass() {
        return SeatBlock.class;
    }

    /** Keeps the nested type's class reachable for readers of this file. */
    static Class<Transition> nested() {
        return Transition.class;
    }
}
