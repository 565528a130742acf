package org.boxoffice.app.checkout;

import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.domain.Booking;
import org.boxoffice.domain.BookingRepository;
import org.boxoffice.domain.PaymentAttempt;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.grid.Seats;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.function.LongSupplier;

/**
 * Bookings after the sale: viewing them with their tickets, cancelling within the show's policy,
 * and admitting tickets at the gate. Thread-safe.
 *
 * <p>Cancellation gives the money back first and only then returns the seats to sale:
 * the booking starts cancelling (its tickets stop admitting) and its refund is asked for in one
 * transaction; the provider refunds; the booking becomes REFUNDED and its seats stop being live;
 * the grid moves the seats SOLD to AVAILABLE ({@link BlockCommand.Cancel}); the booking becomes
 * CANCELLED. If the provider cannot be reached the booking stays CONFIRMED-and-cancelling and
 * reconciliation retries the refund; seats never go back on sale before the refund is made.
 */
public final class BookingManager {

    private static final String ACTOR = "system:cancellation";

    private final ShowDirectory shows;
    private final Seats seats;
    private final BookingRepository bookings;
    private final Settlement settlement;
    private final TicketCodes codes;
    private final LongSupplier clock;

    public BookingManager(ShowDirectory shows, Seats seats, BookingRepository bookings, Settlement settlement, TicketCodes codes, LongSupplier clock) {
        this.shows = shows;
        this.seats = seats;
        this.bookings = bookings;
        this.settlement = settlement;
        this.codes = codes;
        this.clock = clock;
    }

    /** The booking with its tickets, for its owner or an admin; 404 for anyone else. */
    public BookingView get(Principal caller, String bookingId) {
        return view(owned(caller, bookingId));
    }

    /** The caller's bookings, newest first. */
    public List<BookingView> mine(Principal caller) {
        return bookings.bookingsOf(caller.accountId()).stream().map(this::view).toList();
    }

    /** The QR image (PNG) of one ticket of a CONFIRMED booking. */
    public byte[] qr(Principal caller, String bookingId, String seatId) {
        Booking b = owned(caller, bookingId);
        if (b.status() != Booking.Status.CONFIRMED || !b.seatIds().contains(seatId)) {
            throw ApiException.notFound("ticket " + seatId + " of booking " + bookingId);
        }
        return QrCodes.png(codes.code(b.bookingId(), b.showId(), seatId));
    }

    /**
     * Cancels a booking within the show's policy: refund first, then the seats go back on sale.
     * Cancelling a cancelled booking answers it as it is.
     */
    public BookingView cancel(Principal caller, String bookingId) {
        Booking b = owned(caller, bookingId);
        Show show = show(b);
        if (b.status() == Booking.Status.CONFIRMED && !b.cancelling()) {
            long now = clock.getAsLong();
            if (!Booking.cancellable(show, now)) {
                throw new ApiException(422, "CANCELLATION_CLOSED", "bookings for this show can be cancelled until "
                        + show.cancelHours() + " hours before it starts",
                        Map.of("cancellableUntil", Instant.ofEpochMilli(Booking.cancelDeadline(show))));
            }
            bookings.startCancellation(b.bookingId(), "cancelled by " + caller.accountId(), now);
        }
        finishCancellation(b.bookingId());
        Booking after = bookings.booking(b.bookingId()).orElseThrow();
        if (after.status() == Booking.Status.CONFIRMED) {
            throw new ApiException(503, "PAYMENT_PROVIDER_UNAVAILABLE",
                    "the refund could not be made now; the cancellation is recorded and completes by itself",
                    Map.of("bookingId", b.bookingId(), "retryAfterSeconds", 5));
        }
        return view(after);
    }

    /**
     * Drives a started cancellation as far as it can go: refund, then seats back on sale. Used by
     * {@link #cancel} and by reconciliation; safe to repeat. True if this call finished it (the
     * booking became CANCELLED now); false if there was nothing to finish (not cancelling, or
     * CANCELLED already) or the refund could not be made yet.
     */
    public boolean finishCancellation(long bookingId) {
        Booking b = bookings.booking(bookingId).orElseThrow();
        if (b.status() == Booking.Status.CONFIRMED && b.cancelling()) {
            PaymentAttempt p = bookings.payment(b.paymentId()).orElseThrow();
            if (!settlement.refund(p)) {
                return false;
            }
            b = bookings.booking(bookingId).orElseThrow();
        }
        if (b.status() == Booking.Status.REFUNDED) {
            releaseSeats(b);
            return true;
        }
        return false;
    }

    /** Moves a refunded booking's seats back on sale and marks it CANCELLED. */
    private void releaseSeats(Booking b) {
        Show show = show(b);
        long now = clock.getAsLong();
        SortedMap<Integer, int[]> byBlock = show.layout().byBlockOf(b.seatIds());
        seats.cancelSale(show, b.bookingId(), b.accountId(), byBlock.keySet(), now, ACTOR, "booking cancelled and refunded");
        bookings.cancelled(b.bookingId(), now);
    }

    /** Checks a ticket at the gate (staff or admin): VALID once, ALREADY_USED after, INVALID otherwise. */
    public Map<String, Object> verify(Principal caller, String code) {
        if (!caller.hasRole("staff")) {
            throw new ApiException(403, "FORBIDDEN", "checking tickets needs the staff or admin role");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        Optional<TicketCodes.Ticket> ticket = codes.read(code);
        if (ticket.isEmpty()) {
            out.put("status", BookingRepository.TicketCheck.Result.INVALID.name());
            out.put("reason", "not a ticket code issued here");
            return out;
        }
        TicketCodes.Ticket t = ticket.get();
        BookingRepository.TicketCheck check = bookings.useTicket(t.bookingId(), t.showId(), t.seatId(), clock.getAsLong());
        out.put("status", check.result().name());
        out.put("bookingId", t.bookingId());
        out.put("showId", t.showId());
        out.put("seatId", t.seatId());
        switch (check.result()) {
            case VALID -> out.put("admittedAt", Instant.ofEpochMilli(check.usedAt()));
            case ALREADY_USED -> out.put("usedAt", Instant.ofEpochMilli(check.usedAt()));
            case INVALID -> out.put("reason", "no live booking holds this ticket (cancelled or unknown)");
        }
        return out;
    }

    private Booking owned(Principal caller, String bookingId) {
        Optional<Booking> b = parseId(bookingId).flatMap(bookings::booking);
        if (b.isEmpty() || !(b.get().accountId().equals(caller.accountId()) || caller.isAdmin())) {
            throw ApiException.notFound("booking " + bookingId);
        }
        return b.get();
    }

    private static Optional<Long> parseId(String id) {
        if (id == null || id.isEmpty() || id.length() > 19) {
            return Optional.empty();
        }
        try {
            long value = Long.parseLong(id);
            return value > 0 ? Optional.of(value) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private Show show(Booking b) {
        return shows.find(b.showId()).orElseThrow(() -> new IllegalStateException("booking of unknown show " + b.showId()));
    }

    BookingView view(Booking b) {
        Show show = show(b);
        List<BookingView.SeatLine> seats = new ArrayList<>();
        List<BookingView.TicketLine> tickets = new ArrayList<>();
        for (String seatId : b.seatIds()) {
            ShowLayout.SeatRef ref = show.layout().locate(seatId).orElseThrow();
            ShowLayout.Seat seat = show.layout().seat(ref.blockId(), ref.index());
            seats.add(new BookingView.SeatLine(seatId, seat.section(), seat.row(), seat.number(),
                    BigDecimal.valueOf(seat.priceCents(), 2)));
            if (b.status() == Booking.Status.CONFIRMED) {
                tickets.add(new BookingView.TicketLine(seatId, codes.code(b.bookingId(), b.showId(), seatId),
                        "/v1/bookings/" + b.bookingId() + "/tickets/" + seatId + "/qr.png"));
            }
        }
        String status = b.status().name();
        return new BookingView(b.bookingId(), b.holdId(), b.paymentId(), b.showId(), b.accountId(), status,
                BigDecimal.valueOf(b.amountCents(), 2), b.currency(), Instant.ofEpochMilli(b.createdAt()),
                Instant.ofEpochMilli(Booking.cancelDeadline(show)), seats, tickets);
    }
}
