package org.boxoffice.domain;

import java.util.Locale;

/**
 * Why the waiting room's door or the hold gate turned a request away as automated or unadmitted
 * traffic. Values, like {@link Rejection}; the web layer's one refusal table gives each its answer.
 * The metric counts each reason apart ({@code boxoffice_bot_refusals_total{reason}}), while the
 * answers stay as coarse as a client needs: a missing or an expired pass both mean "queue again".
 */
public enum BotRefusal {
    CHALLENGE_MISSING,
    CHALLENGE_INVALID,
    CHALLENGE_EXPIRED,
    CHALLENGE_REPLAYED,
    RATE_LIMITED,
    PASS_MISSING,
    PASS_EXPIRED,
    PASS_INVALID,
    PASS_FOREIGN;

    /** The metric's {@code reason} label: {@code challenge_missing}, {@code pass_foreign}, … */
    public String reason() {
        return name().toLowerCase(Locale.ROOT);
    }
}
