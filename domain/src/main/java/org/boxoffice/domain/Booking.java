package org.boxoffice.domain;

import java.util.List;
import java.util.Objects;

/**
 * Seats bought with one captured payment for one hold: at most one booking per hold, and a seat is
 * in at most one live (CONFIRMED) booking, both enforced by the referee.
 *
 * <pre>
 * CONFIRMED --cancel within policy: refund--> REFUNDED --seats back on sale--> CANCELLED
 * </pre>
 * A REFUNDED booking's money is back with the buyer and its tickets no longer admit anyone; its
 * seats return to sale next (a crash in between is finished by reconciliation).
 *
 * @param seatIds      the seats, in the order they were held
 * @param cancelling   a cancellation has started (tickets stop admitting at once)
 */
public record Booking(long bookingId, String holdId, String paymentId, String showId, String accountId,
                      List<String> seatIds, long amountCents, String currency, Status status, boolean cancelling,
                      long createdAt) {

    public enum Status { CONFIRMED, REFUNDED, CANCELLED }

    public Booking {
        Objects.requireNonNull(holdId);
        Objects.requireNonNull(status);
        seatIds = List.copyOf(seatIds);
        if (bookingId <= 0) {
            throw new IllegalArgumentException("booking ids are positive");
        }
    }

    /**
     * Whether the buyer may still cancel at {@code now}: until {@link Show#cancelHours()} hours
     * before the show starts.
     */
    public static boolean cancellable(Show show, long now) {
        return now < cancelDeadline(show);
    }

    /** The last moment (exclusive) a booking of {@code show} may be cancelled. */
    public static long cancelDeadline(Show show) {
        return show.startsAt() - show.cancelHours() * 3_600_000L;
    }

    /** Whether a ticket of this booking admits its holder: confirmed and not being cancelled. */
    public boolean admits() {
        return status == Status.CONFIRMED && !cancelling;
    }
}
