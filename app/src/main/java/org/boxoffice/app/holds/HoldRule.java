package org.boxoffice.app.holds;

import org.boxoffice.domain.Outcome;

import java.util.Optional;

/**
 * One rule a hold request must pass before its seats are claimed: it refuses the attempt, or lets
 * it go on to the next rule of {@link HoldRules}, which alone evaluates them, in its one order. A
 * rule may rely on what the rules before it found ({@link HoldAttempt#show()},
 * {@link HoldAttempt#places()}) and may record what it finds for the rules after it and for the
 * claim. A rule changes nothing: no seat, no allowance, no account.
 *
 * <p>Rules run on every hold attempt, most of which an on-sale refuses: a rule allocates nothing
 * on its way to letting an attempt pass (no stream, no lambda) and returns the shared
 * {@link Optional#empty()}.
 */
public interface HoldRule {

    /** Why the attempt is refused, or empty to let it go on to the next rule. */
    Optional<Outcome.Refused<HoldView>> check(HoldAttempt attempt);

    /**
     * Whether this rule's refusal is answered at once, ahead of the account's hold rate limit and
     * without remembering it under the request's idempotency key (it changed nothing, and a retry
     * is decided afresh). The seat-map rule's is: in an on-sale most attempts end there. Other
     * refusals are answered after the rate limit, as a claim's are.
     */
    default boolean answeredAtTheGate() {
        return false;
    }
}
