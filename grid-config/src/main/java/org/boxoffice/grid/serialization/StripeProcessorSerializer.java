package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.FieldKind;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.grid.StripeCommand;
import org.boxoffice.grid.StripeProcessor;

/** One schema for every {@link StripeCommand}: a kind plus the union of their fields. */
public final class StripeProcessorSerializer implements CompactSerializer<StripeProcessor> {
    @Override
    public StripeProcessor read(CompactReader in) {
        String holdId = in.readString("holdId");
        long now = in.readInt64("now");
        long grace = in.readInt64("grace");
        StripeCommand c = switch (in.readString("kind")) {
            case "TAKE" -> new StripeCommand.Take(holdId, in.readString("accountId"), in.readInt32("wanted"),
                    in.readInt32("holdQuantity"), atLeast(in), in.readInt64("expiresAt"), now, grace);
            case "RELEASE" -> new StripeCommand.Release(holdId, now);
            case "EXPIRE" -> new StripeCommand.Expire(now, grace);
            case "CONFIRM" -> new StripeCommand.Confirm(holdId, now, grace);
            case "EXTEND" -> new StripeCommand.Extend(holdId, in.readInt64("expiresAt"), now, grace);
            case "RETURN" -> new StripeCommand.GiveBack(holdId, in.readInt32("wanted"), now);
            default -> throw new IllegalArgumentException("unknown stripe command");
        };
        return new StripeProcessor(c);
    }

    @Override
    public void write(CompactWriter out, StripeProcessor p) {
        String kind;
        String holdId = null;
        String accountId = null;
        int wanted = 0;
        int holdQuantity = 0;
        int atLeast = 0;
        long expiresAt = 0;
        long now;
        long grace = 0;
        switch (p.command()) {
            case StripeCommand.Take c -> {
                kind = "TAKE"; holdId = c.holdId(); accountId = c.accountId(); wanted = c.wanted();
                holdQuantity = c.holdQuantity(); atLeast = c.atLeast(); expiresAt = c.expiresAt(); now = c.now(); grace = c.graceMillis();
            }
            case StripeCommand.Release c -> {
                kind = "RELEASE"; holdId = c.holdId(); now = c.now();
            }
            case StripeCommand.Expire c -> {
                kind = "EXPIRE"; now = c.now(); grace = c.graceMillis();
            }
            case StripeCommand.Confirm c -> {
                kind = "CONFIRM"; holdId = c.holdId(); now = c.now(); grace = c.graceMillis();
            }
            case StripeCommand.Extend c -> {
                kind = "EXTEND"; holdId = c.holdId(); expiresAt = c.expiresAt(); now = c.now(); grace = c.graceMillis();
            }
            case StripeCommand.GiveBack c -> {
                kind = "RETURN"; holdId = c.holdId(); wanted = c.quantity(); now = c.now();
            }
        }
        out.writeString("kind", kind);
        out.writeString("holdId", holdId);
        out.writeString("accountId", accountId);
        out.writeInt32("wanted", wanted);
        out.writeInt32("holdQuantity", holdQuantity);
        out.writeInt32("atLeast", atLeast);
        out.writeInt64("expiresAt", expiresAt);
        out.writeInt64("now", now);
        out.writeInt64("grace", grace);
    }

    /** A member of an older version sends no {@code atLeast}: it took whatever a stripe had. */
    private static int atLeast(CompactReader in) {
        return in.getFieldKind("atLeast") == FieldKind.INT32 ? in.readInt32("atLeast") : 1;
    }

    @Override
    public String getTypeName() {
        return "StripeProcessor";
    }

    @Override
    public Class<StripeProcessor> getCompactClass() {
        return StripeProcessor.class;
    }
}
