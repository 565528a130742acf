package org.boxoffice.app.holds;

import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.Show;
import org.boxoffice.grid.Admissions;

import java.util.Optional;

/**
 * The fast gate for general admission: more admissions than the area is known to have left are
 * refused here ({@code 409 SOLD_OUT}, with what is left), from one read of the area's sold-out mark
 * ({@link Admissions#knownSoldOut}): no allowance reserved and given back, no stripe read. Unlike
 * the seat map this is never stale in the buyer's disfavour: a give-back ends the mark before it is
 * acknowledged. In an on-sale of a floor most attempts end here once it is sold out, so its refusal
 * is answered at once ({@link #answeredAtTheGate}); an area the mark says nothing of goes on to the claim.
 */
final class AdmissionsLeftRule implements HoldRule {

    /** What a claim of {@code quantity} admissions of an area would hear now, if that is already known. */
    @FunctionalInterface
    interface KnownSoldOut {
        Optional<Admissions.Claim.SoldOut> of(Show show, AdmissionArea area, int quantity, long now);
    }

    private final KnownSoldOut known;

    AdmissionsLeftRule(KnownSoldOut known) {
        this.known = known;
    }

    @Override
    public Optional<Outcome.Refused<HoldView>> check(HoldAttempt attempt) {
        if (!(attempt.request() instanceof HoldRequest.Admissions asked)) {
            return Optional.empty();
        }
        Optional<Admissions.Claim.SoldOut> soldOut = known.of(attempt.show(), attempt.area(), asked.quantity(), attempt.now());
        return soldOut.isEmpty() ? Optional.empty()
                : Optional.of(HoldManager.soldOut(attempt.area(), asked.quantity(), soldOut.get().left()));
    }

    @Override
    public boolean answeredAtTheGate() {
        return true;
    }
}
