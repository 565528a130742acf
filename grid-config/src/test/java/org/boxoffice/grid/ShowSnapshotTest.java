package org.boxoffice.grid;

import org.boxoffice.domain.SeatState;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ShowSnapshotTest {

    private static final byte FREE = (byte) SeatState.Status.AVAILABLE.ordinal();
    private static final byte HELD = (byte) SeatState.Status.HELD.ordinal();
    private static final byte SOLD = (byte) SeatState.Status.SOLD.ordinal();

    @Test
    void available_countsTheFreeSeats_andFollowsEveryEdit() {
        ShowSnapshot snapshot = new ShowSnapshot("s", 1, 0, new byte[] {FREE, HELD, FREE, SOLD, FREE});
        assertEquals(3, snapshot.available());

        snapshot.set(0, SeatState.Status.HELD);
        snapshot.set(0, SeatState.Status.HELD); // no change, no count
        snapshot.set(1, SeatState.Status.SOLD); // taken to taken
        assertEquals(2, snapshot.available());

        snapshot.set(3, SeatState.Status.AVAILABLE);
        snapshot.set(2, SeatState.Status.BLOCKED);
        assertEquals(2, snapshot.available());
        assertEquals(snapshot.counts()[SeatState.Status.AVAILABLE.ordinal()], snapshot.available());
    }
}
