package org.boxoffice.app.waitlist;

import io.helidon.config.Config;
import org.boxoffice.grid.waitlist.WaitlistOffers;

import java.time.Duration;

/**
 * Everything the waitlist reads from configuration ({@code boxoffice.waitlist.*}).
 *
 * @param offerWindow how long an offer holds its seats for the waiter ({@code offerseconds}, default 600);
 *                    never past the end of sales
 * @param lookahead   0 for strict first come, first served; k lets the k entries behind the head be
 *                    served first with seats the head cannot use ({@code lookahead}, default 0)
 * @param passEvery   how often each member checks the lines it owns, whatever signals it missed
 *                    ({@code passmillis}, default 5000)
 */
public record WaitlistSettings(Duration offerWindow, int lookahead, Duration passEvery) {

    public WaitlistSettings {
        if (offerWindow.isNegative() || offerWindow.isZero() || passEvery.isNegative() || passEvery.isZero()) {
            throw new IllegalArgumentException("boxoffice.waitlist.offerseconds and passmillis must be positive");
        }
        if (lookahead < 0) {
            throw new IllegalArgumentException("boxoffice.waitlist.lookahead is 0 (strict order) or more");
        }
    }

    public static WaitlistSettings defaults() {
        return new WaitlistSettings(Duration.ofMinutes(10), 0, Duration.ofSeconds(5));
    }

    /** Reads the settings under {@code boxoffice}. */
    public static WaitlistSettings from(Config boxoffice) {
        Config c = boxoffice.get("waitlist");
        return new WaitlistSettings(
                Duration.ofSeconds(c.get("offerseconds").asLong().orElse(600L)),
                c.get("lookahead").asInt().orElse(0),
                Duration.ofMillis(c.get("passmillis").asLong().orElse(5_000L)));
    }

    WaitlistOffers.Settings grid() {
        return new WaitlistOffers.Settings(offerWindow.toMillis(), lookahead, passEvery.toMillis());
    }
}
