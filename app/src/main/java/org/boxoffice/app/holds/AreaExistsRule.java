package org.boxoffice.app.holds;

import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.Rejection;

import java.util.Optional;
import java.util.function.BiFunction;

/** Admissions need a general-admission area the show has; the rule records it for the claim. */
final class AreaExistsRule implements HoldRule {

    private final BiFunction<String, String, Optional<AdmissionArea>> areas;

    /** @param areas finds a show's area by show id and name (this member's copy) */
    AreaExistsRule(BiFunction<String, String, Optional<AdmissionArea>> areas) {
        this.areas = areas;
    }

    @Override
    public Optional<Outcome.Refused<HoldView>> check(HoldAttempt attempt) {
        if (!(attempt.request() instanceof HoldRequest.Admissions asked)) {
            return Optional.empty();
        }
        Optional<AdmissionArea> area = areas.apply(attempt.showId(), asked.area());
        if (area.isEmpty()) {
            return Optional.of(new Outcome.Refused<>(Rejection.UNKNOWN_AREA, "this show has no area " + asked.area()));
        }
        attempt.found(area.get());
        return Optional.empty();
    }
}
