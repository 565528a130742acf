package org.boxoffice.bench.check;

import org.boxoffice.bench.check.RunChecker.HoldRow;
import org.boxoffice.bench.check.RunChecker.SeatRow;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RunCheckerTest {

    private static final long NOW = 1_000_000;
    private static final long LATER = NOW + 60_000;

    private final Map<String, SeatRow> seats = new HashMap<>();
    private final Map<String, HoldRow> holds = new HashMap<>();

    private void seat(String id, String state, String hold) {
        seats.put(id, new SeatRow(id, state, hold));
    }

    private void holdRow(String id, String status, String... seatIds) {
        holds.put(id, new HoldRow(id, status, List.of(seatIds), LATER));
    }

    private static AckedHold acked(String id, String... seatIds) {
        return new AckedHold(id, "buyer-" + id, List.of(seatIds), LATER);
    }

    @Test
    void agreeingRows_haveNoViolations() {
        seat("A-1-1", "HELD", "H1");
        seat("A-1-2", "HELD", "H1");
        seat("A-1-3", "AVAILABLE", null);
        holdRow("H1", "ACTIVE", "A-1-1", "A-1-2");
        holdRow("H2", "RELEASED", "A-1-3");
        RunChecker.Report r = RunChecker.check(
                List.of(acked("H1", "A-1-1", "A-1-2"), acked("H2", "A-1-3")), Set.of("H2"), seats, holds, NOW, 0);
        assertEquals(0, r.violations());
        assertEquals(1, r.live());
        assertEquals(0, r.unacknowledgedHeldSeats());
    }

    @Test
    void aSeatInTwoLiveAcknowledgedHolds_isHeldTwice() {
        seat("A-1-1", "HELD", "H2");
        holdRow("H1", "ACTIVE", "A-1-1");
        holdRow("H2", "ACTIVE", "A-1-1");
        RunChecker.Report r = RunChecker.check(
                List.of(acked("H1", "A-1-1"), acked("H2", "A-1-1")), Set.of(), seats, holds, NOW, 0);
        assertEquals(1, r.heldTwice().count());
        // H1 was told it holds the seat, but the row says H2: lost as well
        assertEquals(1, r.lostHolds().count());
        assertEquals(1, r.activeRowsOverlap().count());
    }

    @Test
    void anAcknowledgedHoldWithoutAHoldRow_isMissingFromTheReferee() {
        seat("A-1-1", "HELD", "H1");
        RunChecker.Report r = RunChecker.check(List.of(acked("H1", "A-1-1")), Set.of(), seats, holds, NOW, 0);
        assertEquals(1, r.missingFromReferee().count());
        assertEquals(List.of("H1"), r.missingFromReferee().examples());
    }

    @Test
    void anAcknowledgedHoldWhoseSeatIsAvailable_isLost() {
        seat("A-1-1", "AVAILABLE", null);
        holdRow("H1", "ACTIVE", "A-1-1");
        RunChecker.Report r = RunChecker.check(List.of(acked("H1", "A-1-1")), Set.of(), seats, holds, NOW, 0);
        assertEquals(1, r.lostHolds().count());
    }

    @Test
    void aReleasedHoldStillHoldingItsSeat_isAViolation_butItsSeatMayBeHeldAgain() {
        seat("A-1-1", "HELD", "H1");
        seat("A-1-2", "HELD", "H3");
        holdRow("H1", "RELEASED", "A-1-1");
        holdRow("H2", "RELEASED", "A-1-2");
        holdRow("H3", "ACTIVE", "A-1-2");
        RunChecker.Report r = RunChecker.check(
                List.of(acked("H1", "A-1-1"), acked("H2", "A-1-2"), acked("H3", "A-1-2")), Set.of("H1", "H2"),
                seats, holds, NOW, 0);
        assertEquals(1, r.releasedStillHeld().count());
        assertEquals(0, r.heldTwice().count());
        assertEquals(0, r.lostHolds().count());
    }

    @Test
    void aHoldLapses_exactlyWhenTheServiceSaysSo_atItsExpiryPlusGrace() {
        // the seat went back on sale at expiry + grace, as HoldPolicy.lapsed has it, and was taken again
        seat("A-1-1", "HELD", "H2");
        long grace = 1_000;
        holds.put("H1", new HoldRow("H1", "ACTIVE", List.of("A-1-1"), NOW - grace));
        holds.put("H2", new HoldRow("H2", "ACTIVE", List.of("A-1-1"), LATER));
        AckedHold first = new AckedHold("H1", "buyer-1", List.of("A-1-1"), NOW - grace);
        RunChecker.Report r = RunChecker.check(List.of(first, acked("H2", "A-1-1")), Set.of(), seats, holds, NOW, grace);
        assertEquals(0, r.violations(), "a hold at exactly expiry + grace has lapsed: its seat may be held again");
        assertEquals(1, r.live());
    }

    @Test
    void expiredHolds_areNotExpectedToHoldTheirSeats() {
        seat("A-1-1", "HELD", "H2");
        holds.put("H1", new HoldRow("H1", "EXPIRED", List.of("A-1-1"), NOW - 10_000));
        holdRow("H2", "ACTIVE", "A-1-1");
        AckedHold expired = new AckedHold("H1", "buyer-1", List.of("A-1-1"), NOW - 10_000);
        RunChecker.Report r = RunChecker.check(List.of(expired, acked("H2", "A-1-1")), Set.of(),
                seats, holds, NOW, 5_000);
        assertEquals(0, r.violations());
    }

    @Test
    void seatsHeldByHoldsNobodyWasToldAbout_areCountedButNotViolations() {
        seat("A-1-1", "HELD", "H9");
        holdRow("H9", "ACTIVE", "A-1-1");
        RunChecker.Report r = RunChecker.check(List.of(), Set.of(), seats, holds, NOW, 0);
        assertEquals(0, r.violations());
        assertEquals(1, r.unacknowledgedHeldSeats());
    }

    @Test
    void aPaidHoldWhoseSeatsAreSoldFromIt_isNotLost_butAnUnpaidOneIs() {
        seat("A-1-1", "SOLD", "H1");
        seat("A-1-2", "SOLD", "H2");
        holdRow("H1", "CONFIRMED", "A-1-1");
        holdRow("H2", "ACTIVE", "A-1-2");
        RunChecker.Report r = RunChecker.check(List.of(acked("H1", "A-1-1"), acked("H2", "A-1-2")),
                Set.of(), Set.of("H1"), seats, holds, NOW, 0);
        assertEquals(1, r.lostHolds().count());
        assertEquals(List.of("H2 A-1-2 is SOLD by H2"), r.lostHolds().examples());
    }
}
