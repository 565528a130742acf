package org.boxoffice.bench.load;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SeatChooserTest {

    private final ShowPlan plan = ShowPlan.of(ShowPlan.regularSections(20_000));
    private final SeatChooser chooser = new SeatChooser(plan);

    @Test
    void pick_returnsFreeAdjacentSeatsInOneRow() {
        SeatMap map = new SeatMap(plan.seatCount());
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 2_000; i++) {
            int[] seats = chooser.pick(map, plan.section("A"), 1 + i % 4, random);
            assertNotNull(seats);
            ShowPlan.Row row = ShowPlan.rowAt(plan.sectionAt(seats[0]), seats[0]);
            for (int k = 0; k < seats.length; k++) {
                assertEquals(seats[0] + k, seats[k]);
                assertTrue(map.free(seats[k]), "picked a taken seat");
                assertTrue(seats[k] < row.offset() + row.seats(), "group crosses a row end");
                map.set(seats[k], SeatMap.HELD);
            }
        }
    }

    @Test
    void pick_movesToTheNextBestSection_whenThePreferredOneIsFull() {
        SeatMap map = new SeatMap(plan.seatCount());
        ShowPlan.Section a = plan.section("A");
        for (int i = a.firstIndex(); i < a.firstIndex() + a.seatCount(); i++) {
            map.set(i, SeatMap.SOLD);
        }
        int[] seats = chooser.pick(map, a, 2, new SplittableRandom(2));
        assertEquals("B", plan.sectionAt(seats[0]).name());
    }

    @Test
    void pick_isNull_whenNoRowHasEnoughAdjacentFreeSeats() {
        SeatMap map = new SeatMap(plan.seatCount());
        for (int i = 0; i < plan.seatCount(); i++) {
            if (i % 3 != 0) {
                map.set(i, SeatMap.HELD);
            }
        }
        assertNull(chooser.pick(map, plan.section("C"), 2, new SplittableRandom(3)));
        assertNotNull(chooser.pick(map, plan.section("C"), 1, new SplittableRandom(3)));
        assertEquals(1, chooser.longestFreeRun(map));
    }

    @Test
    void fans_preferTheFrontSections_andSmallGroups() {
        SplittableRandom random = new SplittableRandom(4);
        int[] bySection = new int[plan.sections().size()];
        int[] byQuantity = new int[5];
        for (int i = 0; i < 10_000; i++) {
            bySection[chooser.preferredSection(random).rank()]++;
            byQuantity[SeatChooser.quantity(random)]++;
        }
        assertTrue(bySection[0] > 4_000 && bySection[0] < 5_000, "section A share " + bySection[0]);
        assertTrue(bySection[0] > bySection[1] && bySection[1] > bySection[7]);
        assertEquals(0, byQuantity[0]);
        assertTrue(byQuantity[2] > byQuantity[4] && byQuantity[4] > byQuantity[1]);
    }
}
