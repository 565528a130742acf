package org.boxoffice.bench.check;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a run's bookings against the referee's rows after the run, like {@link RunChecker}
 * does for holds. Pure: the caller loads the rows ({@link BookingState}).
 *
 * <p>Violations (each must be zero):
 * <ul>
 *   <li>a seat in two live bookings (two live {@code booking_seats} rows);</li>
 *   <li>a booking the buyer was told about (200 BOOKED, or its hold seen CONFIRMED) with no
 *       CONFIRMED {@code bookings} row for its hold, or with another booking id than the 200 named;</li>
 *   <li>such a booking whose seats are not exactly the hold's seats;</li>
 *   <li>a seat of such a booking that is not SOLD from its hold, or whose live ticket is not this
 *       booking's;</li>
 *   <li>money not conserved: captured minus refunded differs from the CONFIRMED bookings' amounts
 *       (the show's payments, after the settlements have finished).</li>
 * </ul>
 */
public final class BookingChecker {

    public record Report(long booked, RunChecker.Finding seatInTwoBookings, RunChecker.Finding missingBookings,
                         RunChecker.Finding wrongSeats, RunChecker.Finding seatsNotSold,
                         RunChecker.Finding moneyNotConserved, BookingState.Money money) {

        public long violations() {
            return seatInTwoBookings.count() + missingBookings.count() + wrongSeats.count() + seatsNotSold.count()
                    + moneyNotConserved.count();
        }
    }

    private BookingChecker() {
    }

    /** @param seats the show's seat rows by seat id */
    public static Report check(Collection<AckedBooking> booked, Map<String, RunChecker.SeatRow> seats,
                               BookingState state) {
        List<String> twice = new ArrayList<>();
        state.liveBookingsBySeat().forEach((seatId, bookingIds) -> {
            if (bookingIds.size() > 1) {
                twice.add(seatId + " in bookings " + bookingIds);
            }
        });
        List<String> missing = new ArrayList<>();
        List<String> wrongSeats = new ArrayList<>();
        List<String> notSold = new ArrayList<>();
        for (AckedBooking b : booked) {
            BookingState.BookingRow row = state.bookingsByHold().get(b.holdId());
            if (row == null || !"CONFIRMED".equals(row.status())
                    || (b.bookingId() != null && b.bookingId() != row.bookingId())) {
                missing.add(b.holdId() + (b.bookingId() == null ? "" : " (booking " + b.bookingId() + ")") + " is "
                        + (row == null ? "not booked" : "booking " + row.bookingId() + " " + row.status()));
                continue;
            }
            Set<String> told = new HashSet<>(b.seatIds());
            if (!told.equals(new HashSet<>(row.seatIds())) || told.size() != row.seatIds().size()) {
                wrongSeats.add("booking " + row.bookingId() + " has " + row.seatIds() + ", hold " + b.holdId()
                        + " had " + b.seatIds());
            }
            for (String seatId : b.seatIds()) {
                RunChecker.SeatRow seat = seats.get(seatId);
                List<Long> live = state.liveBookingsBySeat().getOrDefault(seatId, List.of());
                boolean sold = seat != null && "SOLD".equals(seat.state()) && b.holdId().equals(seat.holdId());
                if (!sold || !live.equals(List.of(row.bookingId()))) {
                    notSold.add("booking " + row.bookingId() + " " + seatId + " is "
                            + (seat == null ? "missing" : seat.state() + (seat.holdId() == null ? "" : " from " + seat.holdId()))
                            + ", live in " + live);
                }
            }
        }
        BookingState.Money money = state.money();
        List<String> unbalanced = money.conserved() ? List.of()
                : List.of("captured " + money.capturedCents() + " - refunded " + money.refundedCents() + " = "
                + (money.capturedCents() - money.refundedCents()) + " cents, CONFIRMED bookings " + money.confirmedCents()
                + " cents (" + money.unsettled() + " payments still settling or owed a refund)");
        return new Report(booked.size(), RunChecker.Finding.of(twice), RunChecker.Finding.of(missing),
                RunChecker.Finding.of(wrongSeats), RunChecker.Finding.of(notSold),
                RunChecker.Finding.of(unbalanced), money);
    }
}
