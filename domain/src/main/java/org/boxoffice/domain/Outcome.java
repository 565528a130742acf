package org.boxoffice.domain;

import java.util.Map;

/**
 * What became of a request the business may turn down: done, giving its value, or refused for a
 * {@link Rejection}. The one refusal value of the service: a hold, a checkout and a waitlist join
 * each answer an {@code Outcome} of their own value ({@code Outcome<HoldView>}, ...), and the web
 * layer's one refusal table turns any {@link Refused} into an HTTP answer.
 *
 * <p>One generic type rather than a sealed outcome per request: a sealed interface's cases must sit
 * in its own package, so a refusal case declared once could not belong to outcomes in several
 * packages. Switches over an {@code Outcome} stay exhaustive.
 *
 * @param <T> what a request that was done gives back
 */
public sealed interface Outcome<T> {

    record Done<T>(T value) implements Outcome<T> {
    }

    /** Turned down; nothing changed. {@code details} go into the answer beside the message. */
    record Refused<T>(Rejection reason, String message, Map<String, Object> details) implements Outcome<T> {
        public Refused(Rejection reason, String message) {
            this(reason, message, Map.of());
        }
    }
}
