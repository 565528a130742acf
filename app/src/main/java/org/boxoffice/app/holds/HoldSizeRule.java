package org.boxoffice.app.holds;

import org.boxoffice.domain.HoldPolicy;
import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.Rejection;

import java.util.Map;
import java.util.Optional;

/**
 * A hold takes 1 to the show's maximum seats ({@link HoldPolicy#checkSize}), named or best
 * available, or as many admissions to a general-admission area; the refusal says which it counted.
 */
final class HoldSizeRule implements HoldRule {

    @Override
    public Optional<Outcome.Refused<HoldView>> check(HoldAttempt attempt) {
        HoldPolicy policy = attempt.show().policy();
        Optional<Rejection> tooMany = policy.checkSize(attempt.seatCount());
        if (tooMany.isEmpty()) {
            return Optional.empty();
        }
        String counted = attempt.request() instanceof HoldRequest.Admissions ? " admissions" : " seats";
        return Optional.of(new Outcome.Refused<>(tooMany.get(), "a hold takes 1 to " + policy.maxSeatsPerHold() + counted,
                Map.of("maxSeatsPerHold", policy.maxSeatsPerHold())));
    }
}
