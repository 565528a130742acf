package org.boxoffice.grid.room;

/** A change or read asked of one waiting room; deterministic in its fields. */
public sealed interface RoomCommand {

    /** @param challengeDifficulty key derivations a joining fan's device runs on average (0: no challenge) */
    record Configure(String showId, WaitingRoom.Mode mode, long opensAt, double ratePerSecond, double seatsPerBuyer,
                     long passMillis, int challengeDifficulty) implements RoomCommand {
    }

    record Join(String accountId, long now, long seedIfOpening) implements RoomCommand {
    }

    record Tick(long now, int availableSeats, long seedIfOpening) implements RoomCommand {
    }

    /** The admitted buyer at {@code position} (their pass names it) made a hold; a buyer converts once. */
    record Converted(long position, long now) implements RoomCommand {
    }

    /** Applies the sealed pre-queue's shuffle, once the referee holds its positions; {@code seed} is the seal's. */
    record Shuffle(long seed) implements RoomCommand {
    }


    /** Reads only; {@code accountId} may be null for the room's counters alone. */
    record Read(String accountId) implements RoomCommand {
    }
}
