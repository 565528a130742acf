package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.FieldKind;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.domain.AdmissionStripe;

import java.util.ArrayList;
import java.util.List;

/** A stripe with its parts (parallel arrays) and its last change (absent: {@code changeKind} null) with the takes stored with it. */
public final class AdmissionStripeSerializer implements CompactSerializer<AdmissionStripe> {
    @Override
    public AdmissionStripe read(CompactReader in) {
        String[] ids = in.readArrayOfString("partHolds");
        String[] accounts = in.readArrayOfString("partAccounts");
        int[] quantities = in.readArrayOfInt32("partQuantities");
        long[] expiries = in.readArrayOfInt64("partExpiries");
        List<AdmissionStripe.Part> parts = new ArrayList<>(ids.length);
        for (int i = 0; i < ids.length; i++) {
            parts.add(new AdmissionStripe.Part(ids[i], accounts[i], quantities[i], expiries[i]));
        }
        String kind = in.readString("changeKind");
        AdmissionStripe.Change change = kind == null ? null : new AdmissionStripe.Change(AdmissionStripe.Kind.valueOf(kind),
                in.readString("changeHold"), in.readString("changeAccount"), in.readInt32("changeQuantity"),
                in.readInt32("changeHoldQuantity"), in.readInt64("changeExpiresAt"), in.readInt64("changeAt"),
                List.of(in.readArrayOfString("changeEnded")), more(in));
        return new AdmissionStripe(in.readString("showId"), in.readString("area"), in.readInt32("stripe"),
                in.readInt32("capacity"), in.readInt32("sold"), parts, in.readInt64("version"), change);
    }

    @Override
    public void write(CompactWriter out, AdmissionStripe s) {
        int n = s.parts().size();
        String[] ids = new String[n];
        String[] accounts = new String[n];
        int[] quantities = new int[n];
        long[] expiries = new long[n];
        for (int i = 0; i < n; i++) {
            AdmissionStripe.Part p = s.parts().get(i);
            ids[i] = p.holdId();
            accounts[i] = p.accountId();
            quantities[i] = p.quantity();
            expiries[i] = p.expiresAt();
        }
        out.writeString("showId", s.showId());
        out.writeString("area", s.area());
        out.writeInt32("stripe", s.stripe());
        out.writeInt32("capacity", s.capacity());
        out.writeInt32("sold", s.sold());
        out.writeInt64("version", s.version());
        out.writeArrayOfString("partHolds", ids);
        out.writeArrayOfString("partAccounts", accounts);
        out.writeArrayOfInt32("partQuantities", quantities);
        out.writeArrayOfInt64("partExpiries", expiries);
        AdmissionStripe.Change c = s.change();
        out.writeString("changeKind", c == null ? null : c.kind().name());
        out.writeString("changeHold", c == null ? null : c.holdId());
        out.writeString("changeAccount", c == null ? null : c.accountId());
        out.writeInt32("changeQuantity", c == null ? 0 : c.quantity());
        out.writeInt32("changeHoldQuantity", c == null ? 0 : c.holdQuantity());
        out.writeInt64("changeExpiresAt", c == null ? 0 : c.expiresAt());
        out.writeInt64("changeAt", c == null ? 0 : c.at());
        out.writeArrayOfString("changeEnded", c == null ? new String[0] : c.ended().toArray(String[]::new));
        List<AdmissionStripe.Take> more = c == null ? List.of() : c.more();
        int m = more.size();
        String[] moreHolds = new String[m];
        String[] moreAccounts = new String[m];
        int[] moreQuantities = new int[m];
        int[] moreHoldQuantities = new int[m];
        long[] moreExpiries = new long[m];
        long[] moreAts = new long[m];
        for (int i = 0; i < m; i++) {
            AdmissionStripe.Take t = more.get(i);
            moreHolds[i] = t.holdId();
            moreAccounts[i] = t.accountId();
            moreQuantities[i] = t.quantity();
            moreHoldQuantities[i] = t.holdQuantity();
            moreExpiries[i] = t.expiresAt();
            moreAts[i] = t.at();
        }
        out.writeArrayOfString("moreHolds", moreHolds);
        out.writeArrayOfString("moreAccounts", moreAccounts);
        out.writeArrayOfInt32("moreQuantities", moreQuantities);
        out.writeArrayOfInt32("moreHoldQuantities", moreHoldQuantities);
        out.writeArrayOfInt64("moreExpiries", moreExpiries);
        out.writeArrayOfInt64("moreAts", moreAts);
    }

    /** The takes stored with the change; a member of an older version writes none. */
    private static List<AdmissionStripe.Take> more(CompactReader in) {
        if (in.getFieldKind("moreHolds") != FieldKind.ARRAY_OF_STRING) {
            return List.of();
        }
        String[] holds = in.readArrayOfString("moreHolds");
        String[] accounts = in.readArrayOfString("moreAccounts");
        int[] quantities = in.readArrayOfInt32("moreQuantities");
        int[] holdQuantities = in.readArrayOfInt32("moreHoldQuantities");
        long[] expiries = in.readArrayOfInt64("moreExpiries");
        long[] ats = in.readArrayOfInt64("moreAts");
        List<AdmissionStripe.Take> more = new ArrayList<>(holds.length);
        for (int i = 0; i < holds.length; i++) {
            more.add(new AdmissionStripe.Take(holds[i], accounts[i], quantities[i], holdQuantities[i], expiries[i], ats[i]));
        }
        return more;
    }

    @Override
    public String getTypeName() {
        return "AdmissionStripe";
    }

    @Override
    public Class<AdmissionStripe> getCompactClass() {
        return AdmissionStripe.class;
    }
}
