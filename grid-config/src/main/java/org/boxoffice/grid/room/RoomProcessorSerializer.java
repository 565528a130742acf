package org.boxoffice.grid.room;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;

/** One schema for every {@link RoomCommand}: a kind plus the union of their fields. */
public final class RoomProcessorSerializer implements CompactSerializer<RoomProcessor> {
    @Override
    public RoomProcessor read(CompactReader in) {
        String account = in.readString("accountId");
        long now = in.readInt64("now");
        long seed = in.readInt64("seed");
        RoomCommand c = switch (in.readString("kind")) {
            case "CONFIGURE" -> new RoomCommand.Configure(in.readString("showId"), WaitingRoom.Mode.valueOf(in.readString("mode")),
                    in.readInt64("opensAt"), in.readFloat64("rate"), in.readFloat64("seatsPerBuyer"), in.readInt64("passMillis"),
                    in.readInt32("challengeDifficulty"));
            case "JOIN" -> new RoomCommand.Join(account, now, seed);
            case "TICK" -> new RoomCommand.Tick(now, in.readInt32("available"), seed);
            case "CONVERTED" -> new RoomCommand.Converted(in.readInt64("position"), now);
            case "SHUFFLE" -> new RoomCommand.Shuffle(seed);
            case "READ" -> new RoomCommand.Read(account);
            default -> throw new IllegalArgumentException("unknown room command");
        };
        return new RoomProcessor(c);
    }

    @Override
    public void write(CompactWriter out, RoomProcessor p) {
        String kind;
        String showId = null;
        String mode = null;
        String account = null;
        long now = 0;
        long seed = 0;
        long opensAt = 0;
        double rate = 0;
        double seatsPerBuyer = 0;
        long passMillis = 0;
        int available = 0;
        int difficulty = 0;
        long position = 0;
        switch (p.command()) {
            case RoomCommand.Configure c -> {
                kind = "CONFIGURE"; showId = c.showId(); mode = c.mode().name(); opensAt = c.opensAt();
                rate = c.ratePerSecond(); seatsPerBuyer = c.seatsPerBuyer(); passMillis = c.passMillis();
                difficulty = c.challengeDifficulty();
            }
            case RoomCommand.Join j -> {
                kind = "JOIN"; account = j.accountId(); now = j.now(); seed = j.seedIfOpening();
            }
            case RoomCommand.Tick t -> {
                kind = "TICK"; now = t.now(); available = t.availableSeats(); seed = t.seedIfOpening();
            }
            case RoomCommand.Converted c -> {
                kind = "CONVERTED"; position = c.position(); now = c.now();
            }
            case RoomCommand.Shuffle sh -> {
                kind = "SHUFFLE"; seed = sh.seed();
            }
            case RoomCommand.Read r -> {
                kind = "READ"; account = r.accountId();
            }
        }
        out.writeString("kind", kind);
        out.writeString("showId", showId);
        out.writeString("mode", mode);
        out.writeString("accountId", account);
        out.writeInt64("now", now);
        out.writeInt64("seed", seed);
        out.writeInt64("opensAt", opensAt);
        out.writeFloat64("rate", rate);
        out.writeFloat64("seatsPerBuyer", seatsPerBuyer);
        out.writeInt64("passMillis", passMillis);
        out.writeInt32("available", available);
        out.writeInt32("challengeDifficulty", difficulty);
        out.writeInt64("position", position);
    }

    @Override
    public String getTypeName() {
        return "RoomProcessor";
    }

    @Override
    public Class<RoomProcessor> getCompactClass() {
        return RoomProcessor.class;
    }
}
