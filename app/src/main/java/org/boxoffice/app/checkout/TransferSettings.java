package org.boxoffice.app.checkout;

import io.helidon.config.Config;

import java.time.Duration;

/**
 * Ticket transfers ({@code boxoffice.transfers.*}).
 *
 * @param perBooking how many times a booking's tickets may change hands in all (0: never)
 * @param cutoff     tickets are no longer offered or accepted this long before the show starts
 */
public record TransferSettings(int perBooking, Duration cutoff) {

    public TransferSettings {
        if (perBooking < 0 || cutoff.isNegative()) {
            throw new IllegalArgumentException("boxoffice.transfers.perbooking and cutoffminutes are 0 or more");
        }
    }

    public static TransferSettings from(Config transfers) {
        return new TransferSettings(transfers.get("perbooking").asInt().orElse(4),
                Duration.ofMinutes(transfers.get("cutoffminutes").asLong().orElse(60L)));
    }

    public static TransferSettings defaults() {
        return new TransferSettings(4, Duration.ofMinutes(60));
    }
}
