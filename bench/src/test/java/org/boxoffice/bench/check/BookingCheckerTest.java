package org.boxoffice.bench.check;

import org.boxoffice.bench.check.BookingState.BookingRow;
import org.boxoffice.bench.check.BookingState.Money;
import org.boxoffice.bench.check.RunChecker.SeatRow;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BookingCheckerTest {

    private final Map<String, SeatRow> seats = new HashMap<>();
    private final Map<String, BookingRow> bookings = new HashMap<>();
    private final Map<String, List<Long>> live = new HashMap<>();

    /** A CONFIRMED booking of {@code hold} whose seats are SOLD from it, with live tickets. */
    private void booking(long id, String hold, String... seatIds) {
        bookings.put(hold, new BookingRow(id, hold, "CONFIRMED", List.of(seatIds), 100L * seatIds.length));
        for (String seat : seatIds) {
            seats.put(seat, new SeatRow(seat, "SOLD", hold));
            live.computeIfAbsent(seat, k -> new ArrayList<>()).add(id);
        }
    }

    private BookingChecker.Report check(Money money, AckedBooking... told) {
        return BookingChecker.check(List.of(told), seats, new BookingState(bookings, live, money));
    }

    private static AckedBooking told(String hold, Long bookingId, String... seatIds) {
        return new AckedBooking(hold, "buyer-" + hold, bookingId, List.of(seatIds));
    }

    @Test
    void agreeingRowsAndBalancedMoney_haveNoViolations() {
        booking(100001, "H1", "A-1-1", "A-1-2");
        booking(100002, "H2", "A-1-3");
        BookingChecker.Report r = check(new Money(300, 0, 300, 0),
                told("H1", 100001L, "A-1-2", "A-1-1"), told("H2", null, "A-1-3"));
        assertEquals(0, r.violations());
        assertEquals(2, r.booked());
    }

    @Test
    void aSeatWithTwoLiveTickets_isInTwoBookings() {
        booking(100001, "H1", "A-1-1");
        booking(100002, "H2", "A-1-1");
        BookingChecker.Report r = check(new Money(200, 0, 200, 0), told("H1", 100001L, "A-1-1"));
        assertEquals(1, r.seatInTwoBookings().count());
        // H1's seat is SOLD from H2 now, and its ticket is live twice
        assertEquals(1, r.seatsNotSold().count());
    }

    @Test
    void aBookedAnswerWithoutAConfirmedBooking_isMissing() {
        booking(100001, "H1", "A-1-1");
        bookings.put("H1", new BookingRow(100001, "H1", "REFUNDED", List.of("A-1-1"), 100));
        BookingChecker.Report r = check(new Money(100, 100, 0, 0),
                told("H1", 100001L, "A-1-1"), told("H2", 100002L, "A-1-2"));
        assertEquals(2, r.missingBookings().count());
    }

    @Test
    void aBookingWithOtherSeatsThanItsHold_isWrong() {
        booking(100001, "H1", "A-1-1");
        BookingChecker.Report r = check(new Money(100, 0, 100, 0), told("H1", 100001L, "A-1-1", "A-1-2"));
        assertEquals(1, r.wrongSeats().count());
        assertEquals(1, r.seatsNotSold().count());
    }

    @Test
    void capturedMinusRefundedUnlikeTheConfirmedBookings_isMoneyNotConserved() {
        booking(100001, "H1", "A-1-1");
        BookingChecker.Report r = check(new Money(250, 50, 100, 1), told("H1", 100001L, "A-1-1"));
        assertEquals(1, r.moneyNotConserved().count());
        assertEquals(1, r.violations());
    }
}
