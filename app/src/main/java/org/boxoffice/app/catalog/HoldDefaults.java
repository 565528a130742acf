package org.boxoffice.app.catalog;

import io.helidon.config.Config;

import java.time.Duration;

/** Hold rules applied to shows that do not set their own ({@code boxoffice.holds.*}). */
public record HoldDefaults(int maxSeatsPerHold, int maxPerAccount, Duration duration, Duration grace,
                           int blockGroups) {

    /** Reads the settings under {@code boxoffice}. */
    public static HoldDefaults from(Config boxoffice) {
        Config holds = boxoffice.get("holds");
        return new HoldDefaults(
                holds.get("perhold").asInt().orElse(10),
                holds.get("peraccount").asInt().orElse(10),
                Duration.ofSeconds(holds.get("seconds").asLong().orElse(420L)),
                Duration.ofSeconds(holds.get("grace").asLong().orElse(5L)),
                holds.get("groups").asInt().orElse(271));
    }
}
