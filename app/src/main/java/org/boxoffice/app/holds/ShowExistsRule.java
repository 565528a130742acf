package org.boxoffice.app.holds;

import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.Show;

import java.util.Optional;
import java.util.function.Function;

/** A hold needs a show that exists; the show found is what every later rule and the claim use. */
final class ShowExistsRule implements HoldRule {

    private final Function<String, Optional<Show>> shows;

    /** @param shows finds a show by id (the member's directory) */
    ShowExistsRule(Function<String, Optional<Show>> shows) {
        this.shows = shows;
    }

    @Override
    public Optional<Outcome.Refused<HoldView>> check(HoldAttempt attempt) {
        Optional<Show> found = shows.apply(attempt.showId());
        if (found.isEmpty()) {
            return Optional.of(new Outcome.Refused<>(Rejection.UNKNOWN_SHOW, "show " + attempt.showId() + " not found"));
        }
        attempt.found(found.get());
        return Optional.empty();
    }
}
