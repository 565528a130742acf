package org.boxoffice.app.ops;

import io.helidon.config.Config;

import java.time.Duration;
import java.util.Objects;

/**
 * What operations run by themselves: the invariant check ({@code boxoffice.invariants.millis}) and a
 * starting member's rehearsal of an on-sale ({@code boxoffice.rehearsal.seconds}).
 *
 * @param invariantEvery how often the invariants are checked against PostgreSQL
 * @param rehearsal      how long a starting member rehearses at most before it reports ready (zero: no
 *                       rehearsal); readiness waits for it, so it is at most {@value #MAX_REHEARSAL_SECONDS} s
 */
public record OpsSettings(Duration invariantEvery, Duration rehearsal) {

    /** The longest start-up rehearsal a member may be configured with: readiness waits for it. */
    public static final int MAX_REHEARSAL_SECONDS = 300;

    public OpsSettings {
        Objects.requireNonNull(invariantEvery, "invariantEvery");
        Objects.requireNonNull(rehearsal, "rehearsal");
    }

    /**
     * Reads the settings under {@code boxoffice}.
     *
     * @throws IllegalArgumentException if {@code rehearsal.seconds} is not a whole number of seconds from 0
     *                                  to {@value #MAX_REHEARSAL_SECONDS} (20 when not set)
     */
    public static OpsSettings from(Config boxoffice) {
        return new OpsSettings(Duration.ofMillis(boxoffice.get("invariants.millis").asLong().orElse(30_000L)),
                Duration.ofSeconds(rehearsalSeconds(boxoffice.get("rehearsal.seconds").asString().orElse("20"))));
    }

    /** Whether a starting member rehearses before it reports ready. */
    public boolean rehearses() {
        return !rehearsal.isZero();
    }

    private static int rehearsalSeconds(String configured) {
        String raw = configured.trim();
        int seconds;
        try {
            seconds = Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            seconds = -1;
        }
        if (seconds < 0 || seconds > MAX_REHEARSAL_SECONDS) {
            throw new IllegalArgumentException("boxoffice.rehearsal.seconds is a whole number of seconds from 0 (no "
                    + "rehearsal) to " + MAX_REHEARSAL_SECONDS + "; not '" + raw + "'");
        }
        return seconds;
    }
}
