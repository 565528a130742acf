package org.boxoffice.domain;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WaitlistMatcherTest {

    /** Section A: one row of 8 seats; section B: one row of 4. */
    private static final ShowLayout LAYOUT = new ShowLayout("s", "EUR",
            List.of(new ShowLayout.Section("A", 0, 5_000), new ShowLayout.Section("B", 1, 3_000)),
            List.of(new ShowLayout.Block(0, "A", List.of("1"), new int[] {8}),
                    new ShowLayout.Block(1, "B", List.of("1"), new int[] {4})));

    private static WaitlistEntry entry(long id, int quantity, String section) {
        return new WaitlistEntry(id, "s", "fan-" + id, quantity, section, id, "fan-" + id + "@example.test");
    }

    /** Only the listed seats are free. */
    private static Set<Integer> free(String... seatIds) {
        Set<Integer> free = new HashSet<>();
        for (String id : seatIds) {
            ShowLayout.SeatRef ref = LAYOUT.locate(id).orElseThrow();
            free.add(LAYOUT.offset(ref.blockId()) + ref.index());
        }
        return free;
    }

    /** Runs the matcher until it stops, taking the matched seats each time, as the offer process does. */
    private static List<WaitlistMatcher.Match> drain(WaitlistMatcher matcher, List<WaitlistEntry> line, Set<Integer> free) {
        List<WaitlistEntry> waiting = new ArrayList<>(line);
        List<WaitlistMatcher.Match> out = new ArrayList<>();
        for (Optional<WaitlistMatcher.Match> m = matcher.next(waiting, LAYOUT, free::contains); m.isPresent();
             m = matcher.next(waiting, LAYOUT, free::contains)) {
            out.add(m.get());
            waiting.remove(m.get().entry());
            m.get().seatIds().forEach(id -> free.removeAll(free(id)));
        }
        return out;
    }

    @Test
    void strictOrder_servesTheHeadFirst_andEveryoneInTurn() {
        List<WaitlistEntry> line = List.of(entry(1, 2, null), entry(2, 2, null), entry(3, 2, null));

        List<WaitlistMatcher.Match> matches = drain(new WaitlistMatcher(0), line, free("A-1-1", "A-1-2", "A-1-3", "A-1-4"));

        assertEquals(2, matches.size());
        assertEquals(1, matches.get(0).entry().entryId());
        assertEquals(2, matches.get(1).entry().entryId());
        assertEquals(4, matches.stream().flatMap(m -> m.seatIds().stream()).distinct().count(), "no seat twice");
    }

    @Test
    void strictOrder_aHeadThatDoesNotFit_waits_andSoDoesEveryoneBehindIt() {
        List<WaitlistEntry> line = List.of(entry(1, 4, null), entry(2, 2, null), entry(3, 1, null));

        assertEquals(List.of(), drain(new WaitlistMatcher(0), line, free("A-1-1", "A-1-2")));
    }

    @Test
    void strictOrder_theHeadIsServedOnceEnoughAdjacentSeatsReturn() {
        List<WaitlistEntry> line = List.of(entry(1, 4, null), entry(2, 2, null));

        List<WaitlistMatcher.Match> matches = drain(new WaitlistMatcher(0), line, free("A-1-1", "A-1-2", "A-1-3", "A-1-4"));

        assertEquals(1, matches.size());
        assertEquals(1, matches.get(0).entry().entryId());
        assertEquals(List.of("A-1-1", "A-1-2", "A-1-3", "A-1-4"), matches.get(0).seatIds());
    }

    @Test
    void strictOrder_fourScatteredSeatsDoNotFitARequestForFourAdjacent() {
        List<WaitlistEntry> line = List.of(entry(1, 4, null));

        assertEquals(List.of(), drain(new WaitlistMatcher(0), line, free("A-1-1", "A-1-3", "A-1-5", "A-1-7")));
    }

    @Test
    void lookahead_letsASmallerRequestWithinReachUseSeatsTheHeadCannot() {
        List<WaitlistEntry> line = List.of(entry(1, 4, null), entry(2, 2, null), entry(3, 1, null));

        List<WaitlistMatcher.Match> matches = drain(new WaitlistMatcher(1), line, free("A-1-1", "A-1-2"));

        assertEquals(1, matches.size());
        assertEquals(2, matches.get(0).entry().entryId(), "the second in line, within a look-ahead of 1");
    }

    @Test
    void lookahead_isBounded_entriesFurtherBackAreNotConsidered() {
        List<WaitlistEntry> line = List.of(entry(1, 4, null), entry(2, 3, null), entry(3, 1, null));

        assertEquals(List.of(), drain(new WaitlistMatcher(1), line, free("A-1-1")));
        assertEquals(3, drain(new WaitlistMatcher(2), line, free("A-1-1")).get(0).entry().entryId());
    }

    @Test
    void lookahead_stillPrefersTheHeadWhenItFits() {
        List<WaitlistEntry> line = List.of(entry(1, 2, null), entry(2, 1, null));

        assertEquals(1, drain(new WaitlistMatcher(5), line, free("A-1-1", "A-1-2")).get(0).entry().entryId());
    }

    @Test
    void aNamedSection_isOnlyServedFromThatSection() {
        List<WaitlistEntry> line = List.of(entry(1, 2, "B"));

        assertEquals(List.of(), drain(new WaitlistMatcher(0), line, free("A-1-1", "A-1-2")));
        List<WaitlistMatcher.Match> matches = drain(new WaitlistMatcher(0), line, free("A-1-1", "B-1-3", "B-1-4"));
        assertEquals(List.of("B-1-3", "B-1-4"), matches.get(0).seatIds());
    }

    @Test
    void aNegativeLookahead_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> new WaitlistMatcher(-1));
        assertTrue(new WaitlistMatcher(0).next(List.of(), LAYOUT, i -> true).isEmpty());
    }

    private static WaitlistEntry admissions(long id, int quantity) {
        return new WaitlistEntry(id, "s", "fan-" + id, quantity, null, id, "fan-" + id + "@example.test", "FLOOR");
    }

    @Test
    void byCount_strictOrder_aHeadAskingForMoreThanIsFree_waits_andSoDoesEveryoneBehindIt() {
        List<WaitlistEntry> line = List.of(admissions(1, 3), admissions(2, 1));

        assertEquals(Optional.empty(), new WaitlistMatcher(0).next(line, 2));
        assertEquals(1, new WaitlistMatcher(0).next(line, 3).orElseThrow().entry().entryId());
        assertEquals(List.of(), new WaitlistMatcher(0).next(line, 3).orElseThrow().seatIds(), "a count, no seats");
    }

    @Test
    void byCount_aLookahead_servesASmallerRequestBehindAHeadThatDoesNotFit() {
        List<WaitlistEntry> line = List.of(admissions(1, 3), admissions(2, 1));

        assertEquals(2, new WaitlistMatcher(1).next(line, 2).orElseThrow().entry().entryId());
    }

    @Test
    void anEntry_waitsForSeatsOfASection_orForAdmissionsToAnArea_notBoth() {
        assertThrows(IllegalArgumentException.class,
                () -> new WaitlistEntry(1, "s", "fan", 1, "A", 1, "fan@example.test", "FLOOR"));
        assertTrue(admissions(1, 2).byCount());
    }
}
