package org.boxoffice.domain;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SeatPickerTest {

    private final ShowLayout layout = ShowLayoutTest.layout();

    private SeatPicker pickerWithTaken(String... taken) {
        Set<Integer> t = new HashSet<>();
        for (String id : taken) {
            ShowLayout.SeatRef ref = layout.locate(id).orElseThrow();
            t.add(layout.offset(ref.blockId()) + ref.index());
        }
        return new SeatPicker(layout, g -> !t.contains(g));
    }

    @Test
    void bestAvailable_prefersTheBestSectionAndTheFrontRow() {
        assertEquals(List.of("A-1-1", "A-1-2"), pickerWithTaken().bestAvailable(2, null).orElseThrow().seatIds());
        assertEquals(List.of("B-1-1", "B-1-2"), pickerWithTaken().bestAvailable(2, "B").orElseThrow().seatIds());
    }

    @Test
    void bestAvailable_avoidsLeavingASingleOrphanSeat() {
        // row A-1 has seats 1..4; with seat 1 taken, any pair of {2,3,4} leaves one seat alone,
        // so the picker moves one row back where a pair fits without stranding anyone.
        SeatPicker.Candidate c = pickerWithTaken("A-1-1").bestAvailable(2, "A").orElseThrow();
        assertFalse(c.leavesOrphan());
        assertEquals(List.of("A-2-1", "A-2-2"), c.seatIds());

        // three rows back is too far: then the front row wins despite the orphan.
        SeatPicker.Candidate front = pickerWithTaken("A-1-1", "A-2-2", "A-2-4", "A-3-2", "A-3-4")
                .bestAvailable(2, "A").orElseThrow();
        assertEquals(List.of("A-1-2", "A-1-3"), front.seatIds());
    }

    @Test
    void bestAvailable_isEmpty_whenNoRowHasEnoughAdjacentSeats() {
        assertTrue(pickerWithTaken().bestAvailable(7, null).isEmpty());
        assertTrue(pickerWithTaken("B-1-2", "B-2-2").bestAvailable(2, "B").isEmpty());
    }

    @Test
    void alternatives_areFreeRunsInTheSameSection_nearestFirst_withoutOverlap() {
        SeatPicker p = pickerWithTaken("A-2-2", "A-2-3");

        List<List<String>> alts = p.alternatives(List.of("A-2-2", "A-2-3"), 3);

        assertEquals(3, alts.size());
        Set<String> seen = new HashSet<>();
        for (List<String> alt : alts) {
            assertEquals(2, alt.size());
            assertTrue(alt.stream().allMatch(id -> id.startsWith("A-")));
            assertTrue(alt.stream().noneMatch(id -> id.equals("A-2-2") || id.equals("A-2-3")));
            alt.forEach(id -> assertTrue(seen.add(id), "overlap " + id));
        }
        assertEquals(List.of("A-2-4", "A-2-5"), alts.get(0));
    }

    @org.junit.jupiter.api.Test
    void byDistance_visitsRowsInTheOrderOfAStableSortByDistance() {
        java.util.Random random = new java.util.Random(7);
        for (int trial = 0; trial < 2_000; trial++) {
            int n = 1 + random.nextInt(60);
            double row = random.nextInt(4) == 0 ? random.nextInt(n + 10) : random.nextInt(4 * n) / 4.0;
            Integer[] expected = new Integer[n];
            for (int i = 0; i < n; i++) {
                expected[i] = i;
            }
            java.util.Arrays.sort(expected, java.util.Comparator.comparingDouble(i -> Math.abs(i - row)));
            org.junit.jupiter.api.Assertions.assertArrayEquals(
                    java.util.Arrays.stream(expected).mapToInt(Integer::intValue).toArray(),
                    SeatPicker.byDistance(n, row), "n=" + n + " row=" + row);
        }
    }
}
