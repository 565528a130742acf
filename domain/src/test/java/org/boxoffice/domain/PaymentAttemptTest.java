package org.boxoffice.domain;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PaymentAttemptTest {

    private static PaymentAttempt attempt(PaymentAttempt.Status status, PaymentAttempt.Settlement settlement) {
        return new PaymentAttempt("H1-P1", "H1", 1, "bx-H1-1", "s", "a", 100, "EUR", "card", "a@x.test", status, null,
                settlement, 0, PaymentAttempt.RefundState.NONE, null, 0, 0);
    }

    @Test
    void eachAttemptOfAHold_hasItsOwnIdempotencyKey() {
        assertEquals("bx-H1-1", PaymentAttempt.idempotencyKey("H1", 1));
        assertNotEquals(PaymentAttempt.idempotencyKey("H1", 1), PaymentAttempt.idempotencyKey("H1", 2));
        assertNotEquals(PaymentAttempt.idempotencyKey("H1", 1), PaymentAttempt.idempotencyKey("H2", 1));
    }

    @Test
    void onlyAnUndecidedAttempt_acceptsAReport_soTheFirstDecisiveOneWins() {
        for (PaymentAttempt.Report report : PaymentAttempt.Report.values()) {
            assertTrue(attempt(PaymentAttempt.Status.PENDING, PaymentAttempt.Settlement.NONE).accepts(report));
            assertTrue(attempt(PaymentAttempt.Status.UNKNOWN, PaymentAttempt.Settlement.NONE).accepts(report));
            assertFalse(attempt(PaymentAttempt.Status.CAPTURED, PaymentAttempt.Settlement.NONE).accepts(report));
            assertFalse(attempt(PaymentAttempt.Status.DECLINED, PaymentAttempt.Settlement.NONE).accepts(report));
        }
        assertEquals(PaymentAttempt.Status.CAPTURED, PaymentAttempt.statusAfter(PaymentAttempt.Report.CAPTURED));
        assertEquals(PaymentAttempt.Status.DECLINED, PaymentAttempt.statusAfter(PaymentAttempt.Report.DECLINED));
    }

    @Test
    void moneyMayBeMoving_whileUndecidedOrCapturedButUnsettled() {
        assertTrue(attempt(PaymentAttempt.Status.PENDING, PaymentAttempt.Settlement.NONE).inFlight());
        assertTrue(attempt(PaymentAttempt.Status.CAPTURED, PaymentAttempt.Settlement.SETTLING).inFlight());
        assertFalse(attempt(PaymentAttempt.Status.CAPTURED, PaymentAttempt.Settlement.BOOKED).inFlight());
        assertFalse(attempt(PaymentAttempt.Status.DECLINED, PaymentAttempt.Settlement.NONE).inFlight());
        assertTrue(attempt(PaymentAttempt.Status.UNKNOWN, PaymentAttempt.Settlement.NONE).inFlight(),
                "after a timeout the charge may still be captured: no second charge until it is decided");
        assertTrue(attempt(PaymentAttempt.Status.CAPTURED, PaymentAttempt.Settlement.BOOKED).live(),
                "a booked attempt keeps its hold: no new attempt after it");
        assertFalse(attempt(PaymentAttempt.Status.CAPTURED, PaymentAttempt.Settlement.REJECTED).live());
        assertFalse(attempt(PaymentAttempt.Status.DECLINED, PaymentAttempt.Settlement.NONE).live());
    }

    @Test
    void aBooking_isCancellableUntilTheShowsCancelHours() {
        Show show = new Show("s", "e", "v", 100 * 3_600_000L, new SaleWindow(0, 100 * 3_600_000L),
                new HoldPolicy(4, 4, 60_000, 0), 1, 48, null);
        assertTrue(Booking.cancellable(show, 52 * 3_600_000L - 1));
        assertFalse(Booking.cancellable(show, 52 * 3_600_000L));
        Booking b = new Booking(1, "H1", "H1-P1", "s", "a", List.of("A-1-1"), 100, "EUR", Booking.Status.CONFIRMED,
                false, 0);
        assertTrue(b.admits());
        assertFalse(new Booking(1, "H1", "H1-P1", "s", "a", List.of("A-1-1"), 100, "EUR", Booking.Status.CONFIRMED,
                true, 0).admits());
        assertFalse(new Booking(1, "H1", "H1-P1", "s", "a", List.of("A-1-1"), 100, "EUR", Booking.Status.REFUNDED,
                true, 0).admits());
    }
}
