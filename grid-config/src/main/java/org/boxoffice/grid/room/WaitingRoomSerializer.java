package org.boxoffice.grid.room;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/** The whole room, positions as parallel arrays (for backups and partition migration). */
public final class WaitingRoomSerializer implements CompactSerializer<WaitingRoom> {

    @Override
    public WaitingRoom read(CompactReader in) {
        String[] accounts = in.readArrayOfString("accounts");
        long[] positions = in.readArrayOfInt64("positions");
        Map<String, Long> map = new HashMap<>(accounts.length * 2);
        for (int i = 0; i < accounts.length; i++) {
            map.put(accounts[i], positions[i]);
        }
        long[] admittedAt = in.readArrayOfInt64("admittedAt");
        long[] admittedCount = in.readArrayOfInt64("admittedCount");
        Deque<long[]> admissions = new ArrayDeque<>();
        for (int i = 0; i < admittedAt.length; i++) {
            admissions.add(new long[] {admittedAt[i], admittedCount[i]});
        }
        Deque<long[]> conversions = new ArrayDeque<>();
        long[] convertedAt = in.readArrayOfInt64("conversions");
        long[] convertedPositions = in.readArrayOfInt64("convertedPositions");
        for (int i = 0; i < convertedAt.length; i++) {
            conversions.add(new long[] {convertedAt[i], convertedPositions[i]});
        }
        WaitingRoom room = new WaitingRoom(in.readString("showId"), WaitingRoom.Mode.valueOf(in.readString("mode")),
                in.readInt64("opensAt"), in.readFloat64("rate"), in.readFloat64("seatsPerBuyer"), in.readInt64("passMillis"),
                new ArrayList<>(Arrays.asList(in.readArrayOfString("preQueue"))), in.readBoolean("shuffled"),
                in.readInt64("seed"), map, in.readInt64("nextPosition"), in.readInt64("admittedUpTo"),
                in.readFloat64("credit"), in.readInt64("lastTick"), admissions, conversions);
        room.challengeDifficulty = in.readInt32("challengeDifficulty");
        room.sealed = in.readBoolean("sealed");
        return room;
    }

    @Override
    public void write(CompactWriter out, WaitingRoom r) {
        String[] accounts = new String[r.positions.size()];
        long[] positions = new long[accounts.length];
        int i = 0;
        for (Map.Entry<String, Long> e : r.positions.entrySet()) {
            accounts[i] = e.getKey();
            positions[i++] = e.getValue();
        }
        out.writeString("showId", r.showId);
        out.writeString("mode", r.mode.name());
        out.writeInt64("opensAt", r.opensAt);
        out.writeFloat64("rate", r.ratePerSecond);
        out.writeFloat64("seatsPerBuyer", r.seatsPerBuyer);
        out.writeInt64("passMillis", r.passMillis);
        out.writeInt32("challengeDifficulty", r.challengeDifficulty);
        out.writeArrayOfString("preQueue", r.preQueue.toArray(String[]::new));
        out.writeBoolean("shuffled", r.shuffled);
        out.writeBoolean("sealed", r.sealed);
        out.writeInt64("seed", r.seed);
        out.writeArrayOfString("accounts", accounts);
        out.writeArrayOfInt64("positions", positions);
        out.writeInt64("nextPosition", r.nextPosition);
        out.writeInt64("admittedUpTo", r.admittedUpTo);
        out.writeFloat64("credit", r.credit);
        out.writeInt64("lastTick", r.lastTick);
        out.writeArrayOfInt64("admittedAt", r.admissions.stream().mapToLong(a -> a[0]).toArray());
        out.writeArrayOfInt64("admittedCount", r.admissions.stream().mapToLong(a -> a[1]).toArray());
        out.writeArrayOfInt64("conversions", r.conversions.stream().mapToLong(c -> c[0]).toArray());
        out.writeArrayOfInt64("convertedPositions", r.conversions.stream().mapToLong(c -> c[1]).toArray());
    }

    @Override
    public String getTypeName() {
        return "WaitingRoom";
    }

    @Override
    public Class<WaitingRoom> getCompactClass() {
        return WaitingRoom.class;
    }
}
