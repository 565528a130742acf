package org.boxoffice.grid.room;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;

public final class RoomViewSerializer implements CompactSerializer<RoomView> {
    @Override
    public RoomView read(CompactReader in) {
        return new RoomView(in.readString("showId"), WaitingRoom.Mode.valueOf(in.readString("mode")), in.readInt64("opensAt"),
                in.readFloat64("rate"), in.readFloat64("seatsPerBuyer"), in.readInt64("passMillis"), in.readBoolean("shuffled"),
                in.readInt64("seed"), in.readInt64("length"), in.readInt32("preQueueSize"), in.readInt64("admittedUpTo"),
                in.readInt64("validPasses"), in.readInt64("position"), in.readBoolean("inPreQueue"),
                in.readInt64("admittedAt"), in.readInt32("challengeDifficulty"));
    }

    @Override
    public void write(CompactWriter out, RoomView v) {
        out.writeString("showId", v.showId());
        out.writeString("mode", v.mode().name());
        out.writeInt64("opensAt", v.opensAt());
        out.writeFloat64("rate", v.ratePerSecond());
        out.writeFloat64("seatsPerBuyer", v.seatsPerBuyer());
        out.writeInt64("passMillis", v.passMillis());
        out.writeBoolean("shuffled", v.shuffled());
        out.writeInt64("seed", v.seed());
        out.writeInt64("length", v.length());
        out.writeInt32("preQueueSize", v.preQueueSize());
        out.writeInt64("admittedUpTo", v.admittedUpTo());
        out.writeInt64("validPasses", v.validPasses());
        out.writeInt64("position", v.position());
        out.writeBoolean("inPreQueue", v.inPreQueue());
        out.writeInt64("admittedAt", v.admittedAt());
        out.writeInt32("challengeDifficulty", v.challengeDifficulty());
    }

    @Override
    public String getTypeName() {
        return "RoomView";
    }

    @Override
    public Class<RoomView> getCompactClass() {
        return RoomView.class;
    }
}
