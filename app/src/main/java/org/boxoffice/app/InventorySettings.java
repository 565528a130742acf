package org.boxoffice.app;

import io.helidon.config.Config;

import java.time.Duration;

/**
 * How often the grid-side seat pieces {@link Boxoffice} builds do their rounds
 * ({@code boxoffice.sweep.millis}, {@code boxoffice.reconcile.millis}, {@code boxoffice.snapshot.millis}).
 *
 * @param sweepEvery     how often each member sweeps its blocks for lapsed holds
 * @param reconcileEvery how often lapsed HELD rows are reconciled against the referee
 * @param snapshotEvery  how often seat-map snapshots are rebuilt from the grid
 */
public record InventorySettings(Duration sweepEvery, Duration reconcileEvery, Duration snapshotEvery) {

    /** Reads the settings under {@code boxoffice}. */
    public static InventorySettings from(Config boxoffice) {
        return new InventorySettings(
                Duration.ofMillis(boxoffice.get("sweep.millis").asLong().orElse(500L)),
                Duration.ofMillis(boxoffice.get("reconcile.millis").asLong().orElse(10_000L)),
                Duration.ofMillis(boxoffice.get("snapshot.millis").asLong().orElse(250L)));
    }
}
