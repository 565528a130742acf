package org.boxoffice.app.checkout;

import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.domain.Booking;
import org.boxoffice.domain.BookingRepository;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.TicketTransfer;
import org.boxoffice.domain.TransferRepository;
import org.boxoffice.domain.Outcome;

import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Tickets changing hands: the holder offers a ticket to another account, the recipient accepts, and
 * the ticket is theirs with a new code (the old one stops admitting at once). The rules the service
 * can check by itself are checked here (the cut-off before the show, a booking's limit being 0);
 * everything that can race (who holds the ticket, one open offer, the limit, a cancellation of the
 * booking) is decided by PostgreSQL ({@link TransferRepository}). Thread-safe.
 */
public final class TicketTransfers {

    private final ShowDirectory shows;
    private final BookingRepository bookings;
    private final TransferRepository transfers;
    private final TicketCodes codes;
    private final TransferSettings settings;
    private final LongSupplier clock;

    TicketTransfers(ShowDirectory shows, BookingRepository bookings, TransferRepository transfers, TicketCodes codes,
                    TransferSettings settings, LongSupplier clock) {
        this.shows = shows;
        this.bookings = bookings;
        this.transfers = transfers;
        this.codes = codes;
        this.settings = settings;
        this.clock = clock;
    }

    /** A ticket the caller holds by transfer, with its current code. */
    public record HeldTicketView(long bookingId, String showId, String seatId, String code, String qr) {
    }

    /** The caller offers their ticket {@code seatId} of booking {@code bookingId} to {@code to}. */
    public Outcome<TicketTransfer> offer(Principal caller, long bookingId, String seatId, String to) {
        Optional<Booking> booking = bookings.booking(bookingId);
        if (booking.isEmpty()) {
            return new Outcome.Refused<>(Rejection.TICKET_NOT_FOUND, "you hold no ticket " + seatId + " of booking " + bookingId);
        }
        Optional<Outcome<TicketTransfer>> closed = closed(booking.get());
        if (closed.isPresent()) {
            return closed.get();
        }
        return transfers.offer(bookingId, seatId, caller.accountId(), to, settings.perBooking(), clock.getAsLong());
    }

    /** The caller accepts a transfer addressed to them. */
    public Outcome<TicketTransfer> accept(Principal caller, long transferId) {
        Optional<TicketTransfer> t = transfers.transfer(transferId).filter(x -> x.toAccount().equals(caller.accountId()));
        if (t.isEmpty()) {
            return new Outcome.Refused<>(Rejection.TICKET_NOT_FOUND, "no transfer " + transferId + " is addressed to you");
        }
        Optional<Outcome<TicketTransfer>> closed = bookings.booking(t.get().bookingId()).flatMap(this::closed);
        if (closed.isPresent()) {
            return closed.get();
        }
        return transfers.accept(transferId, caller.accountId(), settings.perBooking(), clock.getAsLong());
    }

    /** The sender takes back an open offer; false if there is no open offer of theirs with this id. */
    public boolean cancel(Principal caller, long transferId) {
        return transfers.cancel(transferId, caller.accountId(), clock.getAsLong());
    }

    /** Transfers the caller sent or was sent, newest first. */
    public List<TransferView> mine(Principal caller) {
        return transfers.ofAccount(caller.accountId()).stream().map(TransferView::of).toList();
    }

    /** Tickets of other accounts' bookings that the caller holds now. */
    public List<HeldTicketView> held(Principal caller) {
        return transfers.heldBy(caller.accountId()).stream().map(this::view).toList();
    }

    /** The ticket a transfer moved, as its new holder sees it. */
    public Optional<HeldTicketView> ticketOf(TicketTransfer t) {
        return transfers.tickets(t.bookingId()).stream()
                .filter(h -> h.seatId().equals(t.seatId()) && h.holder().equals(t.toAccount()))
                .findFirst().map(this::view);
    }

    private HeldTicketView view(TransferRepository.HeldTicket h) {
        return new HeldTicketView(h.bookingId(), h.showId(), h.seatId(),
                codes.code(h.bookingId(), h.showId(), h.seatId(), h.codeVersion()),
                "/v1/bookings/" + h.bookingId() + "/tickets/" + h.seatId() + "/qr.png");
    }

    /** Refused if the booking's tickets may not change hands now: none allowed, or past the cut-off. */
    private Optional<Outcome<TicketTransfer>> closed(Booking b) {
        if (settings.perBooking() == 0) {
            return Optional.of(new Outcome.Refused<>(Rejection.TRANSFER_LIMIT, "tickets are not transferred"));
        }
        Show show = shows.find(b.showId()).orElseThrow();
        long until = show.startsAt() - settings.cutoff().toMillis();
        if (clock.getAsLong() >= until) {
            return Optional.of(new Outcome.Refused<>(Rejection.TRANSFER_CLOSED, "tickets change hands until "
                    + settings.cutoff().toMinutes() + " minutes before the show starts"));
        }
        return Optional.empty();
    }
}
