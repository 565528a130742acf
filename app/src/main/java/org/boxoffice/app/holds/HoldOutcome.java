package org.boxoffice.app.holds;

import org.boxoffice.domain.Rejection;

import java.util.Map;

/** What became of a hold request: held, or refused with a reason the web layer turns into an answer. */
public sealed interface HoldOutcome {

    record Held(HoldView hold) implements HoldOutcome {
    }

    /** Turned down; nothing changed. {@code details} go into the answer beside the message. */
    record Refused(Rejection reason, String message, Map<String, Object> details) implements HoldOutcome {
        Refused(Rejection reason, String message) {
            this(reason, message, Map.of());
        }
    }
}
