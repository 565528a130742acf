package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.grid.BlockCommand;
import org.boxoffice.grid.BlockCommandProcessor;

/**
 * One schema for every {@link BlockCommand}: a {@code kind} plus the union of their fields
 * (unused ones written as zero or empty), so a new command is a new case here, not a new type.
 */
public final class BlockCommandProcessorSerializer implements CompactSerializer<BlockCommandProcessor> {

    private static final int[] NO_SEATS = new int[0];
    private static final String[] NO_IDS = new String[0];

    @Override
    public BlockCommandProcessor read(CompactReader in) {
        String kind = in.readString("kind");
        String holdId = in.readString("holdId");
        String actor = in.readString("actor");
        String reason = in.readString("reason");
        int[] seats = in.readArrayOfInt32("seats");
        long now = in.readInt64("now");
        long grace = in.readInt64("grace");
        long expiresAt = in.readInt64("expiresAt");
        long bookingId = in.readInt64("bookingId");
        BlockCommand command = switch (kind) {
            case "HOLD" -> new BlockCommand.Hold(holdId, actor, seats, expiresAt, now, grace,
                    in.readArrayOfString("holdSeatIds"));
            case "RELEASE" -> new BlockCommand.Release(holdId, now, actor, reason);
            case "EXPIRE" -> new BlockCommand.Expire(now, grace);
            case "EXTEND" -> new BlockCommand.Extend(holdId, expiresAt, now, grace);
            case "CONFIRM" -> new BlockCommand.Confirm(holdId, seats, bookingId, now, grace);
            case "CANCEL" -> new BlockCommand.Cancel(bookingId, now, actor, reason);
            case "BLOCK" -> new BlockCommand.Block(seats, now, actor, reason);
            case "UNBLOCK" -> new BlockCommand.Unblock(seats, now, actor, reason);
            default -> throw new IllegalArgumentException("unknown block command " + kind);
        };
        return new BlockCommandProcessor(command);
    }

    @Override
    public void write(CompactWriter out, BlockCommandProcessor processor) {
        String kind;
        String holdId = null;
        String actor = null;
        String reason = null;
        int[] seats = NO_SEATS;
        long now;
        long grace = 0;
        long expiresAt = 0;
        long bookingId = 0;
        String[] holdSeatIds = NO_IDS;
        switch (processor.command()) {
            case BlockCommand.Hold c -> {
                kind = "HOLD"; holdId = c.holdId(); actor = c.accountId(); seats = c.seats();
                expiresAt = c.expiresAt(); now = c.now(); grace = c.graceMillis(); holdSeatIds = c.holdSeatIds();
            }
            case BlockCommand.Release c -> {
                kind = "RELEASE"; holdId = c.holdId(); now = c.now(); actor = c.actor(); reason = c.reason();
            }
            case BlockCommand.Expire c -> {
                kind = "EXPIRE"; now = c.now(); grace = c.graceMillis();
            }
            case BlockCommand.Extend c -> {
                kind = "EXTEND"; holdId = c.holdId(); expiresAt = c.newExpiresAt(); now = c.now(); grace = c.graceMillis();
            }
            case BlockCommand.Confirm c -> {
                kind = "CONFIRM"; holdId = c.holdId(); seats = c.seats(); bookingId = c.bookingId();
                now = c.now(); grace = c.graceMillis();
            }
            case BlockCommand.Cancel c -> {
                kind = "CANCEL"; bookingId = c.bookingId(); now = c.now(); actor = c.actor(); reason = c.reason();
            }
            case BlockCommand.Block c -> {
                kind = "BLOCK"; seats = c.seats(); now = c.now(); actor = c.actor(); reason = c.reason();
            }
            case BlockCommand.Unblock c -> {
                kind = "UNBLOCK"; seats = c.seats(); now = c.now(); actor = c.actor(); reason = c.reason();
            }
        }
        out.writeString("kind", kind);
        out.writeString("holdId", holdId);
        out.writeString("actor", actor);
        out.writeString("reason", reason);
        out.writeArrayOfInt32("seats", seats);
        out.writeInt64("now", now);
        out.writeInt64("grace", grace);
        out.writeInt64("expiresAt", expiresAt);
        out.writeInt64("bookingId", bookingId);
        out.writeArrayOfString("holdSeatIds", holdSeatIds);
    }

    @Override
    public String getTypeName() {
        return "BlockCommandProcessor";
    }

    @Override
    public Class<BlockCommandProcessor> getCompactClass() {
        return BlockCommandProcessor.class;
    }
}
