package org.boxoffice.bench.check;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AreaCheckerTest {

    private static AckedHold acked(String id, int quantity) {
        return new AckedHold(id, "buyer-" + id, List.of(), Long.MAX_VALUE, quantity);
    }

    private static AreaChecker.HoldRow row(String id, int quantity, int kept, long createdAt) {
        return new AreaChecker.HoldRow(id, "ACTIVE", quantity, kept, createdAt);
    }

    @Test
    void check_isClean_whenEveryAcknowledgedHoldKeepsItsAdmissions_andTheCounterAgrees() {
        AreaState state = new AreaState(10, 7, List.of(row("H1", 3, 3, 100), row("H2", 4, 4, 200)));
        AreaChecker.Report r = AreaChecker.check(List.of(acked("H1", 3), acked("H2", 4)), state, List.of());
        assertEquals(0, r.violations());
        assertEquals(3, r.leftAtEnd());
        assertEquals(7, r.acknowledgedAdmissions());
        assertEquals(0, r.unacknowledgedAdmissions());
    }

    @Test
    void check_findsAnAreaSoldBeyondItsCapacity() {
        AreaState state = new AreaState(5, 7, List.of(row("H1", 3, 3, 100), row("H2", 4, 4, 200)));
        AreaChecker.Report r = AreaChecker.check(List.of(acked("H1", 3), acked("H2", 4)), state, List.of());
        // the counter, the holds and the acknowledgements each went beyond the capacity
        assertEquals(3, r.overCapacity().count());
        assertEquals(0, r.notBacked().count());
    }

    @Test
    void check_findsAcknowledgedAdmissionsNoHoldKeeps() {
        AreaState state = new AreaState(10, 3, List.of(row("H1", 3, 3, 100), new AreaChecker.HoldRow("H2", "RELEASED", 4, 0, 200),
                row("H3", 2, 0, 300)));
        AreaChecker.Report r = AreaChecker.check(List.of(acked("H1", 3), acked("H2", 4), acked("H3", 2), acked("H4", 1)),
                state, List.of());
        // H2 not live, H3 keeps none of its 2, H4 has no row
        assertEquals(3, r.notBacked().count());
        assertEquals(0, r.counterApart().count());
    }

    @Test
    void check_findsACounterThatTookAdmissionsNoHoldKeeps() {
        AreaState state = new AreaState(10, 5, List.of(row("H1", 3, 3, 100)));
        AreaChecker.Report r = AreaChecker.check(List.of(acked("H1", 3)), state, List.of());
        assertEquals(1, r.counterApart().count());
        assertEquals(1, r.violations());
    }

    @Test
    void check_countsAdmissionsOfHoldsNobodyWasToldAbout_asNoViolation() {
        AreaState state = new AreaState(10, 5, List.of(row("H1", 3, 3, 100), row("H2", 2, 2, 150)));
        AreaChecker.Report r = AreaChecker.check(List.of(acked("H1", 3)), state, List.of());
        assertEquals(0, r.violations());
        assertEquals(2, r.unacknowledgedAdmissions());
    }

    @Test
    void soldOutWhileLeft_countsTheAnswersGivenWhileTheAskedNumberRemained() {
        // capacity 10: 4 taken by a hold created at 100, 4 more at 200, the last 2 at 300
        List<AreaChecker.HoldRow> holds = List.of(row("H2", 4, 4, 200), row("H1", 4, 4, 100), row("H3", 2, 2, 300));
        List<SoldOutAnswer> answers = List.of(
                new SoldOutAnswer(150, 4, 6),   // 6 left, 4 asked: wrong
                new SoldOutAnswer(250, 3, 2),   // 2 left, 3 asked: right
                new SoldOutAnswer(250, 2, 2),   // 2 left, 2 asked: wrong
                new SoldOutAnswer(300, 1, 0),   // the hold created at that very millisecond counts as taken: right
                new SoldOutAnswer(50, 10, 10)); // before any hold: wrong
        assertEquals(3, AreaChecker.soldOutWhileLeft(10, holds, answers));
    }

    @Test
    void soldOutWhileLeft_countsAdmissionsAClaimGaveBack_asLeft() {
        // a claim took 3 and gave them back (all or nothing): nobody bought them
        List<AreaChecker.HoldRow> holds = List.of(row("H1", 7, 7, 100), new AreaChecker.HoldRow("H2", "RELEASED", 3, 0, 110));
        assertEquals(1, AreaChecker.soldOutWhileLeft(10, holds, List.of(new SoldOutAnswer(120, 3, 0))));
        assertEquals(0, AreaChecker.soldOutWhileLeft(10, holds, List.of(new SoldOutAnswer(120, 4, 3))));
    }
}
