package org.boxoffice.domain;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShowLayoutTest {

    static ShowLayout layout() {
        return new ShowLayout("s1", "EUR",
                List.of(new ShowLayout.Section("A", 0, 9_900), new ShowLayout.Section("B", 1, 4_900)),
                List.of(new ShowLayout.Block(0, "A", List.of("1", "2"), new int[] {4, 5}),
                        new ShowLayout.Block(1, "A", List.of("3"), new int[] {6}),
                        new ShowLayout.Block(2, "B", List.of("1", "2"), new int[] {3, 3})));
    }

    @Test
    void locate_mapsSeatIdsToBlockAndIndex_andBack() {
        ShowLayout l = layout();

        assertEquals(Optional.of(new ShowLayout.SeatRef(0, 5)), l.locate("A-2-2"));
        assertEquals(Optional.of(new ShowLayout.SeatRef(1, 0)), l.locate("A-3-1"));
        assertEquals("B-2-3", l.seat(2, 5).seatId());
        assertEquals(21, l.totalSeats());
        for (int g = 0; g < l.totalSeats(); g++) {
            ShowLayout.Seat seat = l.seat(g);
            assertEquals(g, seat.globalIndex());
            assertEquals(Optional.of(new ShowLayout.SeatRef(seat.blockId(), seat.index())), l.locate(seat.seatId()));
        }
        assertEquals(2, l.seat(1, 0).rowOrdinal());
        assertEquals(4_900, l.seat(2, 0).priceCents());
    }

    @Test
    void locate_rejectsSeatsThatDoNotExist() {
        ShowLayout l = layout();

        for (String bad : new String[] {"A-1-5", "A-1-0", "C-1-1", "A-9-1", "A-1-x", "A-1-01", "", "A1", "-1-1"}) {
            assertTrue(l.locate(bad).isEmpty(), bad);
        }
        assertTrue(l.locate(null).isEmpty());
    }

    @Test
    void layout_refusesDuplicateRowsAndUnknownSections() {
        assertThrows(IllegalArgumentException.class, () -> new ShowLayout("s", "EUR",
                List.of(new ShowLayout.Section("A", 0, 1)),
                List.of(new ShowLayout.Block(0, "A", List.of("1", "1"), new int[] {1, 1}))));
        assertThrows(IllegalArgumentException.class, () -> new ShowLayout("s", "EUR",
                List.of(new ShowLayout.Section("A", 0, 1)),
                List.of(new ShowLayout.Block(0, "Z", List.of("1"), new int[] {1}))));
    }
}
