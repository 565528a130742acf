package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.FieldKind;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.domain.AccountAllowance;
import org.boxoffice.grid.AllowanceCommand;
import org.boxoffice.grid.AllowanceProcessor;

/** One schema for every {@link AllowanceCommand}: a kind plus the union of their fields, and the account's known seats. */
public final class AllowanceProcessorSerializer implements CompactSerializer<AllowanceProcessor> {
    @Override
    public AllowanceProcessor read(CompactReader in) {
        String holdId = in.readString("holdId");
        int seats = in.readInt32("seats");
        long expiresAt = in.readInt64("expiresAt");
        AllowanceCommand c = switch (in.readString("kind")) {
            case "RESERVE" -> new AllowanceCommand.Reserve(holdId, seats, expiresAt, in.readInt64("now"),
                    in.readInt64("grace"), in.readInt32("max"));
            case "RELEASE" -> new AllowanceCommand.Release(holdId);
            case "CONFIRM" -> new AllowanceCommand.Confirm(holdId);
            case "EXTEND" -> new AllowanceCommand.Extend(holdId, expiresAt);
            case "CANCEL_SALE" -> new AllowanceCommand.CancelSale(seats);
            default -> throw new IllegalArgumentException("unknown allowance command");
        };
        // a member of the previous release sends neither "known" nor "answersUnknown", and reads
        // UNKNOWN as "reserved"; "known" is also in what this release sends on for such a caller
        AccountAllowance known = in.getFieldKind("known") == FieldKind.COMPACT ? in.readCompact("known") : null;
        boolean answersUnknown = in.getFieldKind("answersUnknown") == FieldKind.BOOLEAN && in.readBoolean("answersUnknown");
        return answersUnknown || known != null ? new AllowanceProcessor(c, known) : AllowanceProcessor.fromPreviousRelease(c);
    }

    @Override
    public void write(CompactWriter out, AllowanceProcessor p) {
        String kind;
        String holdId = null;
        int seats = 0;
        long expiresAt = 0;
        long now = 0;
        long grace = 0;
        int max = 0;
        switch (p.command()) {
            case AllowanceCommand.Reserve c -> {
                kind = "RESERVE"; holdId = c.holdId(); seats = c.seats(); expiresAt = c.expiresAt();
                now = c.now(); grace = c.graceMillis(); max = c.max();
            }
            case AllowanceCommand.Release c -> {
                kind = "RELEASE"; holdId = c.holdId();
            }
            case AllowanceCommand.Confirm c -> {
                kind = "CONFIRM"; holdId = c.holdId();
            }
            case AllowanceCommand.Extend c -> {
                kind = "EXTEND"; holdId = c.holdId(); expiresAt = c.expiresAt();
            }
            case AllowanceCommand.CancelSale c -> {
                kind = "CANCEL_SALE"; seats = c.seats();
            }
        }
        out.writeString("kind", kind);
        out.writeString("holdId", holdId);
        out.writeInt32("seats", seats);
        out.writeInt64("expiresAt", expiresAt);
        out.writeInt64("now", now);
        out.writeInt64("grace", grace);
        out.writeInt32("max", max);
        out.writeCompact("known", p.known());
        out.writeBoolean("answersUnknown", !p.fromPreviousRelease());
    }

    @Override
    public String getTypeName() {
        return "AllowanceProcessor";
    }

    @Override
    public Class<AllowanceProcessor> getCompactClass() {
        return AllowanceProcessor.class;
    }
}
