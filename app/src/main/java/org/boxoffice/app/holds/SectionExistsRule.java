package org.boxoffice.app.holds;

import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.Rejection;

import java.util.Optional;

/** Best available in a named section needs a section the show has (no section: any will do). */
final class SectionExistsRule implements HoldRule {

    @Override
    public Optional<Outcome.Refused<HoldView>> check(HoldAttempt attempt) {
        if (!(attempt.request() instanceof HoldRequest.BestAvailable best) || best.section() == null
                || attempt.show().layout().section(best.section()).isPresent()) {
            return Optional.empty();
        }
        return Optional.of(new Outcome.Refused<>(Rejection.UNKNOWN_SECTION, "this show has no section " + best.section()));
    }
}
