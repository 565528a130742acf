package org.boxoffice.app.holds;

import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.SaleWindow;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/** Seats are held only while the show's sale is open ({@link SaleWindow#isOpen}); the refusal says when it is. */
final class SaleOpenRule implements HoldRule {

    @Override
    public Optional<Outcome.Refused<HoldView>> check(HoldAttempt attempt) {
        SaleWindow sale = attempt.show().sale();
        if (sale.isOpen(attempt.now())) {
            return Optional.empty();
        }
        return Optional.of(new Outcome.Refused<>(Rejection.SALE_NOT_OPEN, "seats of this show are not on sale now",
                Map.of("saleOpensAt", Instant.ofEpochMilli(sale.opensAt()),
                        "saleClosesAt", Instant.ofEpochMilli(sale.closesAt()))));
    }
}
