package org.boxoffice.grid.room;

import java.util.List;

/**
 * What the waiting rooms write to the durable referee, so a room the grid loses (more members
 * gone at once than it keeps backups) is rebuilt with every acknowledged place: the room's
 * settings, each join before the fan is told its place, the shuffled pre-queue before any fan
 * sees its position, and each admission as the ticker makes it. {@link WaitingRooms} rebuilds a
 * room it does not find from {@link #load} (see {@code WaitingRoom.restore}).
 */
public interface RoomLedger {

    /** Writes nothing: rooms live only in the grid (grid tests of other parts). */
    RoomLedger NONE = new RoomLedger() {
        @Override
        public void configured(RoomView room) {
        }

        @Override
        public void joined(String showId, String accountId, long position) {
        }

        @Override
        public void shuffled(String showId, long seed, List<String> inOrder) {
        }

        @Override
        public void admitted(String showId, long upTo, long at) {
        }

        @Override
        public WaitingRoom load(String showId) {
            return null;
        }
    };

    /** The room's settings as configured. */
    void configured(RoomView room);

    /** {@code accountId} holds {@code position} (0: it waits in the pre-queue). Idempotent. */
    void joined(String showId, String accountId, long position);

    /** The sealed pre-queue's positions: {@code inOrder.get(i)} holds position i + 1. Idempotent. */
    void shuffled(String showId, long seed, List<String> inOrder);

    /** Every position up to {@code upTo} is admitted, the latest of them at {@code at}. Idempotent. */
    void admitted(String showId, long upTo, long at);

    /** The room as the ledger has it, rebuilt; null if the show never had one. */
    WaitingRoom load(String showId);
}
