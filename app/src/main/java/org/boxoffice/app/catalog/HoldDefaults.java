package org.boxoffice.app.catalog;

import java.time.Duration;

/** Hold rules applied to shows that do not set their own. */
public record HoldDefaults(int maxSeatsPerHold, int maxPerAccount, Duration duration, Duration grace,
                           int blockGroups) {
}
