package org.boxoffice.app.ops;

import io.helidon.config.Config;

import java.time.Duration;

/**
 * What operations run by themselves ({@code boxoffice.invariants.millis}).
 *
 * @param invariantEvery how often the invariants are checked against PostgreSQL
 */
public record OpsSettings(Duration invariantEvery) {

    /** Reads the settings under {@code boxoffice}. */
    public static OpsSettings from(Config boxoffice) {
        return new OpsSettings(Duration.ofMillis(boxoffice.get("invariants.millis").asLong().orElse(30_000L)));
    }
}
