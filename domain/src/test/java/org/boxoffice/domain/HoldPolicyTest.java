package org.boxoffice.domain;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How long each kind of hold lasts, and when a hold has lapsed: decided here, and only here. */
class HoldPolicyTest {

    private static final HoldPolicy POLICY = new HoldPolicy(6, 8, 600_000, 5_000);

    @Test
    void aBuyersHold_lastsTheShowsHoldDuration() {
        assertEquals(1_600_000, POLICY.expiresAt(1_000_000));
    }

    @Test
    void aHoldExtendedForPayment_lastsTheWindowPastTheExpiryItHad() {
        assertEquals(1_900_000, POLICY.extendedForPayment(1_600_000, 300_000));
    }

    @Test
    void aLatePaymentsReclaim_holdsTheSeatsForTheReclaimWindow() {
        assertEquals(1_060_000, POLICY.reclaimExpiresAt(1_000_000, 60_000));
    }

    @Test
    void aWaitlistOffer_lastsItsWindow_butNotPastTheEndOfSales() {
        assertEquals(1_900_000, POLICY.offerExpiresAt(1_000_000, 900_000, 2_000_000));
        assertEquals(1_500_000, POLICY.offerExpiresAt(1_000_000, 900_000, 1_500_000));
    }

    @Test
    void aHold_lapsesAtItsExpiryPlusGrace_thatMomentIncluded() {
        assertFalse(POLICY.lapsed(1_000_000, 1_004_999));
        assertTrue(POLICY.lapsed(1_000_000, 1_005_000));
        assertTrue(POLICY.lapsed(1_000_000, 1_005_001));
        assertEquals(1_005_000, HoldPolicy.lapsesAt(1_000_000, 5_000));
        assertTrue(HoldPolicy.lapsed(1_000_000, 0, 1_000_000));
    }

    @Test
    void anActiveHold_showsAsHeldUntilItLapses_thenAsExpired() {
        HoldRecord hold = new HoldRecord("H1", "s1", "a1", java.util.List.of("A-1-1"), 1_000_000, HoldStatus.ACTIVE,
                0, 100, "EUR");

        assertEquals(HoldState.HELD, hold.statusAt(1_004_999, 5_000));
        assertEquals(HoldState.EXPIRED, hold.statusAt(1_005_000, 5_000));
        assertEquals(HoldState.RELEASED, HoldStatus.RELEASED.shownAt(1_000_000, 5_000, 0));
        assertEquals(HoldState.CONFIRMED, HoldStatus.CONFIRMED.shownAt(1_000_000, 5_000, 2_000_000));
        assertEquals(HoldState.EXPIRED, HoldStatus.EXPIRED.shownAt(1_000_000, 5_000, 0));
    }

    @Test
    void aHold_takesOneToTheMaximumSeats() {
        assertEquals(Optional.of(Rejection.TOO_MANY_SEATS), POLICY.checkSize(0));
        assertEquals(Optional.empty(), POLICY.checkSize(6));
        assertEquals(Optional.of(Rejection.TOO_MANY_SEATS), POLICY.checkSize(7));
    }
}
