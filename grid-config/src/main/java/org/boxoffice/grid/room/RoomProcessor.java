package org.boxoffice.grid.room;

import com.hazelcast.map.EntryProcessor;

import java.util.Map;

/**
 * Applies a {@link RoomCommand} to a waiting room on its partition and returns the room as the
 * command's account sees it. Commands other than {@code Configure} on a show without a room
 * return null and create nothing.
 */
public record RoomProcessor(RoomCommand command) implements EntryProcessor<String, WaitingRoom, RoomView> {

    @Override
    public RoomView process(Map.Entry<String, WaitingRoom> entry) {
        WaitingRoom room = entry.getValue();
        if (command instanceof RoomCommand.Configure c) {
            if (room == null) {
                room = new WaitingRoom(c.showId(), c.mode(), c.opensAt(), c.ratePerSecond(), c.seatsPerBuyer(), c.passMillis());
            }
            room.configure(c.mode(), c.opensAt(), c.ratePerSecond(), c.seatsPerBuyer(), c.passMillis(), c.challengeDifficulty());
            entry.setValue(room);
            return room.view(null);
        }
        if (room == null) {
            return null;
        }
        return switch (command) {
            case RoomCommand.Join j -> {
                room.join(j.accountId(), j.now(), j.seedIfOpening());
                entry.setValue(room);
                yield room.view(j.accountId());
            }
            case RoomCommand.Tick t -> {
                room.tick(t.now(), t.availableSeats(), t.seedIfOpening());
                entry.setValue(room); // even with nobody admitted the rate credit moved; replicas must agree on it
                yield room.view(null);
            }
            case RoomCommand.Converted c -> {
                if (room.converted(c.position(), c.now())) {
                    entry.setValue(room);
                }
                yield room.view(null);
            }
            case RoomCommand.Shuffle sh -> {
                if (room.applyShuffle(sh.seed())) {
                    entry.setValue(room);
                }
                yield room.view(null);
            }
            case RoomCommand.Read r -> room.view(r.accountId());
            case RoomCommand.Configure c -> throw new IllegalStateException("handled above");
        };
    }
}
