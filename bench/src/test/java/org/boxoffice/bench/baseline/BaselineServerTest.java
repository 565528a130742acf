package org.boxoffice.bench.baseline;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BaselineServerTest {

    @Test
    void nearestGroups_offersNonOverlappingFreeRuns_nearestTheRequestedSeatsFirst() {
        List<BaselineServer.Place> places = new ArrayList<>();
        // row 1: seats 1-3 taken, 4-9 free; row 2: 1-2 free, 3 taken, 4-5 free
        for (int n = 1; n <= 9; n++) {
            places.add(new BaselineServer.Place("A-1-" + n, 1, n, n >= 4));
        }
        for (int n = 1; n <= 5; n++) {
            places.add(new BaselineServer.Place("A-2-" + n, 2, n, n != 3));
        }
        List<List<String>> groups = BaselineServer.nearestGroups(places, 2, 1, 2);
        assertEquals(List.of(List.of("A-1-4", "A-1-5"), List.of("A-1-6", "A-1-7"), List.of("A-1-8", "A-1-9")), groups);
        assertEquals(List.of(List.of("A-2-1", "A-2-2"), List.of("A-2-4", "A-2-5")),
                BaselineServer.nearestGroups(places.subList(9, 14), 2, 2, 1));
        assertEquals(List.of(), BaselineServer.nearestGroups(places.subList(0, 3), 1, 1, 1));
    }
}
