package org.boxoffice.app.holds;

import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.HoldPolicy;
import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.SaleWindow;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.grid.Admissions;
import org.boxoffice.grid.ShowSnapshot;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The hold rules on their own: their one order, what each refuses, and what they hand the claim. */
class HoldRulesTest {

    private static final long NOW = 1_000_000;
    private static final byte TAKEN = (byte) SeatState.Status.HELD.ordinal();

    private static final ShowLayout LAYOUT = new ShowLayout("s1", "EUR",
            List.of(new ShowLayout.Section("A", 0, 9_900), new ShowLayout.Section("B", 1, 4_900)),
            List.of(new ShowLayout.Block(0, "A", List.of("1"), new int[] {6}),
                    new ShowLayout.Block(1, "B", List.of("1"), new int[] {6})));

    private final AtomicInteger snapshotReads = new AtomicInteger();
    private byte[] statuses = new byte[LAYOUT.totalSeats()];
    private Show show = show(new SaleWindow(NOW - 1, NOW + 1), 4);
    /** What FLOOR's sold-out mark says is left (its capacity: the mark says nothing). */
    private int floorLeft = 100;

    private static Show show(SaleWindow sale, int maxSeatsPerHold) {
        return new Show("s1", "e1", "v1", NOW + 86_400_000, sale, new HoldPolicy(maxSeatsPerHold, 8, 600_000, 5_000),
                1, 24, LAYOUT);
    }

    private HoldRules rules() {
        return HoldRules.standard(id -> id.equals(show.showId()) ? Optional.of(show) : Optional.empty(),
                s -> {
                    snapshotReads.incrementAndGet();
                    return new ShowSnapshot(s.showId(), 1, NOW, statuses);
                }, (showId, area) -> area.equals("FLOOR") ? Optional.of(new AdmissionArea(showId, "FLOOR", 100, 4_500, 4))
                        : Optional.empty(),
                (s, area, quantity, now) -> quantity > floorLeft ? Optional.of(new Admissions.Claim.SoldOut(floorLeft)) : Optional.empty(),
                () -> NOW);
    }

    private static HoldRequest seats(String... ids) {
        return new HoldRequest.Seats(List.of(ids));
    }

    private Outcome.Refused<HoldView> refusal(HoldAttempt attempt) {
        return attempt.refusal().orElseThrow(() -> new AssertionError("the rules let the attempt pass"));
    }

    @Test
    void rules_runInOneOrder_showSaleSizeSectionAreaSeatsSeatMapAdmissionsLeft() {
        assertEquals(List.of("ShowExistsRule", "SaleOpenRule", "HoldSizeRule", "SectionExistsRule", "AreaExistsRule", "SeatsExistRule",
                "SeatsFreeRule", "AdmissionsLeftRule"), rules().names());
    }

    @Test
    void admissions_needAnAreaTheShowHas_andTheSameSizeRuleAsSeats() {
        HoldAttempt unknown = rules().evaluate("s1", new HoldRequest.Admissions("PIT", 2));
        HoldAttempt tooMany = rules().evaluate("s1", new HoldRequest.Admissions("FLOOR", 5));
        HoldAttempt fine = rules().evaluate("s1", new HoldRequest.Admissions("FLOOR", 4));

        assertEquals(Rejection.UNKNOWN_AREA, refusal(unknown).reason());
        assertEquals(Rejection.TOO_MANY_SEATS, refusal(tooMany).reason());
        assertEquals("a hold takes 1 to 4 admissions", refusal(tooMany).message(), "admissions are counted as admissions");
        assertTrue(fine.refusal().isEmpty());
        assertEquals("FLOOR", fine.area().name());
        assertEquals(0, snapshotReads.get(), "a hold by count never reads the seat map");
    }

    @Test
    void hold_isRefused_whenTheShowDoesNotExist_beforeAnythingElseIsAsked() {
        HoldAttempt attempt = rules().evaluate("nope", seats("A-1-1", "Z-9-9", "A-1-2", "A-1-3", "A-1-4", "A-1-5"));

        assertEquals(Rejection.UNKNOWN_SHOW, refusal(attempt).reason());
        assertEquals("show nope not found", refusal(attempt).message());
        assertEquals(0, snapshotReads.get());
        assertFalse(attempt.refusedAtTheGate());
    }

    @Test
    void hold_isRefused_whenTheSaleIsClosed_evenIfItIsAlsoTooLarge() {
        show = show(new SaleWindow(NOW + 1, NOW + 2), 4);

        HoldAttempt attempt = rules().evaluate("s1", seats("A-1-1", "A-1-2", "A-1-3", "A-1-4", "A-1-5"));

        assertEquals(Rejection.SALE_NOT_OPEN, refusal(attempt).reason());
        assertEquals(java.util.Set.of("saleOpensAt", "saleClosesAt"), refusal(attempt).details().keySet());
    }

    @Test
    void hold_isRefused_whenTooLarge_beforeItsSeatsAreLookedUp() {
        HoldAttempt attempt = rules().evaluate("s1", seats("Z-1-1", "Z-1-2", "Z-1-3", "Z-1-4", "Z-1-5"));

        assertEquals(Rejection.TOO_MANY_SEATS, refusal(attempt).reason());
        assertEquals("a hold takes 1 to 4 seats", refusal(attempt).message());
        assertEquals(Map.of("maxSeatsPerHold", 4), refusal(attempt).details());
        Outcome.Refused<HoldView> none = refusal(rules().evaluate("s1", new HoldRequest.BestAvailable(0, null)));
        assertEquals(Rejection.TOO_MANY_SEATS, none.reason());
        assertEquals("a hold takes 1 to 4 seats", none.message());
    }

    @Test
    void hold_isRefused_listingEveryUnknownSeat_beforeTheSeatMapIsRead() {
        statuses[0] = TAKEN;

        HoldAttempt attempt = rules().evaluate("s1", seats("A-1-1", "A-1-9", "C-1-1"));

        assertEquals(Rejection.UNKNOWN_SEAT, refusal(attempt).reason());
        assertEquals("this show has no seat A-1-9, C-1-1", refusal(attempt).message());
        assertEquals(Map.of("unknown", List.of("A-1-9", "C-1-1")), refusal(attempt).details());
        assertEquals(0, snapshotReads.get());
    }

    @Test
    void hold_isRefusedAtTheGate_whenTheSeatMapShowsASeatTaken_withAlternativesFromTheSameMap() {
        statuses[1] = TAKEN;

        HoldAttempt attempt = rules().evaluate("s1", seats("A-1-1", "A-1-2"));

        Outcome.Refused<HoldView> refused = refusal(attempt);
        assertEquals(Rejection.SEATS_UNAVAILABLE, refused.reason());
        assertEquals("some of these seats were just taken: A-1-2", refused.message());
        assertEquals(List.of("A-1-2"), refused.details().get("unavailable"));
        assertFalse(((List<?>) refused.details().get("alternatives")).isEmpty());
        assertTrue(attempt.refusedAtTheGate());
        assertEquals(1, snapshotReads.get(), "the seat map is read once");
    }

    @Test
    void aRefusalAtTheGate_isWrittenAsTheSameBytes_asTheSameRefusalAnsweredAfterTheClaim() {
        statuses[1] = TAKEN;
        Outcome.Refused<HoldView> refused = refusal(rules().evaluate("s1", seats("A-1-1", "A-1-2")));

        assertEquals(org.boxoffice.app.http.Json.write(org.boxoffice.app.http.Refusals.body(refused.reason(),
                        refused.message(), refused.details())),
                new String(HoldsService.gateAnswer(refused), java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void admissions_areRefusedAtTheGate_whenTheAreaIsKnownToHaveFewerLeft_sayingHowManyAreLeft() {
        floorLeft = 2;

        HoldAttempt three = rules().evaluate("s1", new HoldRequest.Admissions("FLOOR", 3));
        HoldAttempt two = rules().evaluate("s1", new HoldRequest.Admissions("FLOOR", 2));

        assertEquals(Rejection.SOLD_OUT, refusal(three).reason());
        assertEquals(Map.of("left", 2), refusal(three).details());
        assertTrue(three.refusedAtTheGate());
        assertTrue(two.refusal().isEmpty(), "as many as are left go on to the claim");
    }

    @Test
    void aSoldOutRefusalAtTheGate_isWrittenAsTheSameBytes_asTheSameRefusalAnsweredAfterTheClaim() {
        floorLeft = 0;
        Outcome.Refused<HoldView> refused = refusal(rules().evaluate("s1", new HoldRequest.Admissions("FLOOR", 1)));

        assertEquals(org.boxoffice.app.http.Json.write(org.boxoffice.app.http.Refusals.body(refused.reason(),
                        refused.message(), refused.details())),
                new String(HoldsService.gateAnswer(refused), java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void freeSeats_passEveryRule_withTheShowAndTheirPlacesFound_readingTheSeatMapOnce() {
        HoldAttempt attempt = rules().evaluate("s1", seats("B-1-2", "A-1-6"));

        assertTrue(attempt.refusal().isEmpty());
        assertEquals(show, attempt.show());
        assertEquals(List.of(new ShowLayout.SeatRef(1, 1), new ShowLayout.SeatRef(0, 5)), attempt.places());
        assertEquals(NOW, attempt.now());
        assertEquals(1, snapshotReads.get());
    }

    @Test
    void bestAvailable_isRefused_forASectionTheShowDoesNotHave_andNeverReadsTheSeatMapHere() {
        HoldAttempt unknown = rules().evaluate("s1", new HoldRequest.BestAvailable(2, "C"));
        HoldAttempt any = rules().evaluate("s1", new HoldRequest.BestAvailable(2, null));

        assertEquals(Rejection.UNKNOWN_SECTION, refusal(unknown).reason());
        assertEquals("this show has no section C", refusal(unknown).message());
        assertTrue(any.refusal().isEmpty());
        assertNull(any.places());
        assertEquals(0, snapshotReads.get(), "best available reads the map when it picks, at the claim");
    }

    @Test
    void theShowsTerms_areTheFirstFiveRules_inTheSameOrder_andNeverReadTheSeatMap() {
        HoldRules terms = HoldRules.showsTerms(id -> id.equals(show.showId()) ? Optional.of(show) : Optional.empty(),
                (showId, area) -> area.equals("FLOOR") ? Optional.of(new AdmissionArea(showId, "FLOOR", 100, 4_500, 4))
                        : Optional.empty(), () -> NOW);
        statuses[0] = TAKEN;
        floorLeft = 0;

        assertEquals(rules().names().subList(0, 5), terms.names());
        assertEquals(Rejection.TOO_MANY_SEATS, refusal(terms.evaluate("s1", new HoldRequest.Admissions("PIT", 5))).reason(),
                "the size is judged before the area, as for a hold");
        HoldAttempt admissions = terms.evaluate("s1", new HoldRequest.Admissions("FLOOR", 2));
        assertTrue(admissions.refusal().isEmpty(), "what is left is not the terms' to judge");
        assertEquals("FLOOR", admissions.area().name());
        assertTrue(terms.evaluate("s1", new HoldRequest.BestAvailable(4, "A")).refusal().isEmpty());
        assertEquals(0, snapshotReads.get());
    }

    @Test
    void theFirstRefusalDecides_andTheRulesAfterItAreNotAsked() {
        AtomicInteger asked = new AtomicInteger();
        HoldRule refuses = a -> Optional.of(new Outcome.Refused<>(Rejection.NOT_ALLOWED, "no"));
        HoldRule counts = a -> {
            asked.incrementAndGet();
            return Optional.empty();
        };

        HoldAttempt attempt = new HoldRules(List.of(counts, refuses, counts), () -> NOW).evaluate("s1", seats("A-1-1"));

        assertEquals(Rejection.NOT_ALLOWED, refusal(attempt).reason());
        assertEquals(1, asked.get());
        assertFalse(attempt.refusedAtTheGate());
    }
}
