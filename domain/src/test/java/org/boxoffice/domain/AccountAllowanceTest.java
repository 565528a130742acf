package org.boxoffice.domain;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

class AccountAllowanceTest {

    private static final long NOW = 10_000;

    private static AccountAllowance reserved(AccountAllowance.Decision d) {
        return assertInstanceOf(AccountAllowance.Decision.Reserved.class, d).next();
    }

    @Test
    void reserve_isRejected_whenHoldsAndSalesWouldExceedTheLimit() {
        AccountAllowance a = reserved(AccountAllowance.empty().reserve("h1", 4, NOW + 100, NOW, 0, 6)).confirm("h1");
        AccountAllowance b = reserved(a.reserve("h2", 2, NOW + 100, NOW, 0, 6));

        AccountAllowance.Decision.Rejected r = assertInstanceOf(AccountAllowance.Decision.Rejected.class,
                b.reserve("h3", 1, NOW + 100, NOW, 0, 6));
        assertEquals(Rejection.ACCOUNT_LIMIT, r.reason());
        assertEquals(0, r.remaining());
        assertEquals(6, b.seatsInUse(NOW, 0));
    }

    @Test
    void lapsedHolds_stopCounting() {
        AccountAllowance a = reserved(AccountAllowance.empty().reserve("h1", 6, NOW + 100, NOW, 50, 6));

        assertInstanceOf(AccountAllowance.Decision.Rejected.class, a.reserve("h2", 1, NOW + 200, NOW + 149, 50, 6));
        assertInstanceOf(AccountAllowance.Decision.Reserved.class, a.reserve("h2", 1, NOW + 200, NOW + 150, 50, 6));
    }

    @Test
    void reserve_isIdempotentPerHold_andReleaseAndCancelGiveSeatsBack() {
        AccountAllowance a = reserved(AccountAllowance.empty().reserve("h1", 3, NOW + 100, NOW, 0, 3));

        assertEquals(3, reserved(a.reserve("h1", 3, NOW + 100, NOW, 0, 3)).seatsInUse(NOW, 0));
        assertEquals(0, a.release("h1").seatsInUse(NOW, 0));
        assertEquals(1, a.confirm("h1").cancelSale(2).seatsInUse(NOW, 0));
        assertEquals(NOW + 500, a.extend("h1", NOW + 500).holds().get(0).expiresAt());
    }
}
