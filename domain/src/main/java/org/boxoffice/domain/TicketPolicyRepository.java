package org.boxoffice.domain;

import java.util.Optional;

/**
 * How a show's tickets may be shown at the gate: printed codes (print at home) or live codes only.
 * Read on every printed code a gate checks and every QR image asked for, changed by an admin.
 * Thread-safe.
 */
public interface TicketPolicyRepository {

    /** Whether the show admits printed codes; empty if there is no such show. */
    Optional<Boolean> printAtHome(String showId);

    /** Lets the show admit printed codes, or not; false if there is no such show. */
    boolean setPrintAtHome(String showId, boolean allowed);
}
