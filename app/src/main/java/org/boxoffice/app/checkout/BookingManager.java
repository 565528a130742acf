package org.boxoffice.app.checkout;

import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.AdmissionTickets;
import org.boxoffice.domain.Booking;
import org.boxoffice.domain.BookingRepository;
import org.boxoffice.domain.PaymentAttempt;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.domain.TicketTransfer;
import org.boxoffice.domain.TicketPolicyRepository;
import org.boxoffice.domain.TransferRepository;
import org.boxoffice.app.gates.GateKeys;
import org.boxoffice.app.gates.OfflineVerifier;
import org.boxoffice.app.gates.SignedCodes;
import org.boxoffice.grid.Admissions;
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
    private static final String NOT_ADMITTING = "no live booking holds this ticket (cancelled, unknown, or transferred "
            + "since this code was issued)";

    private final ShowDirectory shows;
    private final Seats seats;
    private final Admissions admissions;
    private final BookingRepository bookings;
    private final Settlement settlement;
    private final TicketCodes codes;
    private final TransferRepository transfers;
    private final TicketPolicyRepository policies;
    private final GateKeys gateKeys;
    private final LongSupplier clock;

    public BookingManager(ShowDirectory shows, Seats seats, Admissions admissions, BookingRepository bookings,
                          Settlement settlement, TicketCodes codes, TransferRepository transfers,
                          TicketPolicyRepository policies, GateKeys gateKeys, LongSupplier clock) {
        this.shows = shows;
        this.admissions = admissions;
        this.gateKeys = gateKeys;
        this.policies = policies;
        this.transfers = transfers;
        this.seats = seats;
        this.bookings = bookings;
        this.settlement = settlement;
        this.codes = codes;
        this.clock = clock;
    }

    /** The booking with its tickets, for its owner or an admin; empty for anyone else. */
    public Optional<BookingView> get(Principal caller, String bookingId) {
        return owned(caller, bookingId).map(this::view);
    }

    /**
     * The caller's bookings, newest first, in three statements whatever their number: the bookings,
     * the tickets of the confirmed ones and the transfers of all (shows and seats come from memory).
     */
    public List<BookingView> mine(Principal caller) {
        List<Booking> mine = bookings.bookingsOf(caller.accountId());
        Map<Long, List<TransferRepository.HeldTicket>> held = transfers.tickets(mine.stream()
                .filter(b -> b.status() == Booking.Status.CONFIRMED).map(Booking::bookingId).toList());
        Map<Long, List<TicketTransfer>> history = transfers.ofBookings(mine.stream().map(Booking::bookingId).toList());
        return mine.stream().map(b -> view(b, held.getOrDefault(b.bookingId(), List.of()),
                history.getOrDefault(b.bookingId(), List.of()))).toList();
    }

    /** A ticket's QR image, or why there is none. */
    public sealed interface Qr {
        record Image(byte[] png) implements Qr {
        }

        /** The caller holds no such ticket. */
        record NotFound() implements Qr {
        }

        /** The show admits the ticket app's rotating codes only. */
        record PrintAtHomeOff(String showId) implements Qr {
        }
    }

    /**
     * The QR image (PNG) of one ticket of a CONFIRMED booking that the caller holds (the booking's
     * account, or whoever it was transferred to; an admin any), with its current code, where the
     * show admits printed codes.
     */
    public Qr qr(Principal caller, String bookingId, String seatId) {
        return held(caller, bookingId, seatId).<Qr>map(t -> policies.printAtHome(t.showId()).orElse(true)
                        ? new Qr.Image(QrCodes.png(codes.code(t.bookingId(), t.showId(), t.seatId(), t.codeVersion())))
                        : new Qr.PrintAtHomeOff(t.showId()))
                .orElseGet(Qr.NotFound::new);
    }

    /** What the holder's app needs to show a ticket's rotating code. */
    public record RotatingSecret(long bookingId, String showId, String seatId, int codeVersion, String ticket,
                                 String secret, int stepSeconds, List<SignedStep> signed) {
    }

    /** The ticket's code for offline gates during one step, signed with the show's key, and its QR modules. */
    public record SignedStep(long step, String code, QrCodes.Matrix qr) {
    }

    /** How many steps ahead the holder gets signed codes for (10 minutes), so the app works on a weak network. */
    static final int SIGNED_STEPS = 40;

    /**
     * The secret of one ticket's rotating codes, for its holder only (as {@link #qr}); empty if the
     * caller holds no such ticket. A transfer gives the ticket a new one.
     */
    public Optional<RotatingSecret> rotatingSecret(Principal caller, String bookingId, String seatId) {
        return held(caller, bookingId, seatId).map(t -> {
            TicketCodes.Ticket ticket = new TicketCodes.Ticket(t.bookingId(), t.showId(), t.seatId(), t.codeVersion());
            java.security.PrivateKey key = gateKeys.of(t.showId()).getPrivate();
            long first = SignedCodes.step(clock.getAsLong());
            List<SignedStep> signed = new ArrayList<>();
            for (long step = first; step < first + SIGNED_STEPS; step++) {
                String code = SignedCodes.sign(new SignedCodes.Claim(t.bookingId(), t.showId(), t.seatId(),
                        t.codeVersion(), step), key);
                signed.add(new SignedStep(step, code, QrCodes.matrix(code)));
            }
            return new RotatingSecret(t.bookingId(), t.showId(), t.seatId(), t.codeVersion(), ticket.named(),
                    java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(codes.secret(ticket)),
                    TicketCodes.STEP_SECONDS, signed);
        });
    }

    /** A ticket of the caller's booking that no longer admits: its booking is cancelling, or refunded or cancelled. */
    public record Voided(long bookingId, String seatId, boolean cancelling) {
    }

    /**
     * Why the caller holds no ticket {@code seatId} of {@code bookingId}, when the truth is that its
     * booking is being cancelled or was: the booking's own account (or an admin) learns it; anyone
     * else, and any seat the booking never had, learns nothing (empty, as for no booking at all). Read
     * after {@link #qr} or {@link #rotatingSecret} found nothing, so a cancellation that completed in
     * between is answered as it is now, never as "no such ticket".
     */
    public Optional<Voided> voided(Principal caller, String bookingId, String seatId) {
        return owned(caller, bookingId)
                .filter(b -> b.seatIds().contains(seatId) && (b.status() != Booking.Status.CONFIRMED || b.cancelling()))
                .map(b -> new Voided(b.bookingId(), seatId, b.status() == Booking.Status.CONFIRMED));
    }

    private Optional<TransferRepository.HeldTicket> held(Principal caller, String bookingId, String seatId) {
        return parseId(bookingId).flatMap(bookings::booking)
                .filter(b -> b.status() == Booking.Status.CONFIRMED && !b.cancelling() && b.seatIds().contains(seatId))
                .flatMap(b -> transfers.tickets(b.bookingId()).stream()
                        .filter(t -> t.seatId().equals(seatId) && (t.holder().equals(caller.accountId()) || caller.isAdmin()))
                        .findFirst());
    }

    /** Whether the show admits printed codes; an admin changes it. False if there is no such show. */
    public boolean setPrintAtHome(String showId, boolean allowed) {
        return policies.setPrintAtHome(showId, allowed);
    }

    /** What became of a cancellation. */
    public sealed interface Cancellation {
        /** Cancelled and refunded (or it was already): the booking as it is now. */
        record Done(BookingView booking) implements Cancellation {
        }

        /** No booking of the caller's has this id. */
        record NotFound() implements Cancellation {
        }

        /** The show's policy no longer allows it; nothing changed. */
        record Closed(int cancelHours, Instant cancellableUntil) implements Cancellation {
        }

        /** Recorded, but the refund could not be made now; it completes by itself. */
        record RefundPending(long bookingId) implements Cancellation {
        }

        /** A ticket of the booking was transferred: it is someone else's now, so the booking is not refunded. */
        record Transferred(long bookingId) implements Cancellation {
        }
    }

    /**
     * Cancels a booking within the show's policy: refund first, then the seats go back on sale.
     * Cancelling a cancelled booking answers it as it is.
     */
    public Cancellation cancel(Principal caller, String bookingId) {
        Optional<Booking> found = owned(caller, bookingId);
        if (found.isEmpty()) {
            return new Cancellation.NotFound();
        }
        Booking b = found.get();
        Show show = show(b);
        if (b.status() == Booking.Status.CONFIRMED && !b.cancelling()) {
            long now = clock.getAsLong();
            if (!Booking.cancellable(show, now)) {
                return new Cancellation.Closed(show.cancelHours(), Instant.ofEpochMilli(Booking.cancelDeadline(show)));
            }
            if (!bookings.startCancellation(b.bookingId(), "cancelled by " + caller.accountId(), now)
                    && transferred(b.bookingId())) {
                return new Cancellation.Transferred(b.bookingId());
            }
        }
        finishCancellation(b.bookingId());
        Booking after = bookings.booking(b.bookingId()).orElseThrow();
        if (after.status() == Booking.Status.CONFIRMED) {
            return new Cancellation.RefundPending(b.bookingId());
        }
        return new Cancellation.Done(view(after));
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

    /**
     * Moves a refunded booking's seats (or admissions) back on sale and marks it CANCELLED. Parallel
     * callers each try; the grid and the referee give each seat or admission back once.
     */
    private void releaseSeats(Booking b) {
        Show show = show(b);
        long now = clock.getAsLong();
        Optional<String> area = AdmissionTickets.areaOf(b);
        if (area.isPresent()) {
            AdmissionArea a = admissions.area(show.showId(), area.get())
                    .orElseThrow(() -> new IllegalStateException("booking " + b.bookingId() + " of unknown area " + area.get()));
            admissions.giveBack(show, a, b.holdId(), b.accountId(), now);
        } else {
            SortedMap<Integer, int[]> byBlock = show.layout().byBlockOf(b.seatIds());
            seats.cancelSale(show, b.bookingId(), b.accountId(), byBlock.keySet(), now, ACTOR, "booking cancelled and refunded");
        }
        bookings.cancelled(b.bookingId(), now);
    }

    /**
     * What the online check says of a signed ({@code BXS.}) code, in the offline gate's words
     * ({@link OfflineVerifier.Verdict}) where it has them: ALREADY_USED is the whole service's
     * ALREADY_SCANNED_HERE, and WRONG_SHOW a genuine code of another show than the door's.
     */
    public enum SignedVerdict {
        ACCEPT, ALREADY_USED, REVOKED, EXPIRED_WINDOW, BAD_SIGNATURE, WRONG_SHOW
    }

    /**
     * Checks a ticket at the gate: VALID once, ALREADY_USED after, EXPIRED for a rotating or signed
     * code past its window, INVALID otherwise (and for a ticket of another show than {@code doorShow},
     * when the door names one). A signed code's answer carries its {@link SignedVerdict} too. The
     * caller must hold the staff role (the web layer checks it before); {@code doorShow}, if present,
     * is a show that exists.
     */
    public Map<String, Object> verify(String code, Optional<String> doorShow) {
        long now = clock.getAsLong();
        if (SignedCodes.isSigned(code)) {
            return verifySigned(code, doorShow, now);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        TicketCodes.Reading reading = codes.read(code, now);
        if (reading instanceof TicketCodes.Reading.Expired expired) {
            out.put("status", "EXPIRED");
            putTicket(out, expired.ticket().bookingId(), expired.ticket().showId(), expired.ticket().seatId());
            out.put("reason", "a rotating code whose window has passed (a screenshot?): ask for the live code");
            return out;
        }
        if (!(reading instanceof TicketCodes.Reading.Valid valid)) {
            out.put("status", BookingRepository.TicketCheck.Result.INVALID.name());
            out.put("reason", "not a ticket code issued here");
            return out;
        }
        TicketCodes.Ticket t = valid.ticket();
        if (doorShow.isPresent() && !doorShow.get().equals(t.showId())) {
            out.put("status", BookingRepository.TicketCheck.Result.INVALID.name());
            putTicket(out, t.bookingId(), t.showId(), t.seatId());
            out.put("reason", wrongShow(t.showId(), doorShow.get()));
            return out;
        }
        if (!valid.rotating() && !policies.printAtHome(t.showId()).orElse(true)) {
            out.put("status", BookingRepository.TicketCheck.Result.INVALID.name());
            putTicket(out, t.bookingId(), t.showId(), t.seatId());
            out.put("reason", "this show admits only the rotating code of the ticket app, not a printed one");
            return out;
        }
        BookingRepository.TicketCheck check = bookings.useTicket(t.bookingId(), t.showId(), t.seatId(), t.version(), now);
        out.put("status", check.result().name());
        putTicket(out, t.bookingId(), t.showId(), t.seatId());
        switch (check.result()) {
            case VALID -> out.put("admittedAt", Instant.ofEpochMilli(check.usedAt()));
            case ALREADY_USED -> out.put("usedAt", Instant.ofEpochMilli(check.usedAt()));
            case INVALID -> out.put("reason", NOT_ADMITTING);
        }
        return out;
    }

    /**
     * A signed code, checked as the offline gate checks it (signature, revoked, window; then used,
     * here for the whole service rather than one gate) against PostgreSQL instead of a downloaded
     * list. Only a code within its window is marked used, by the same conditional update as any other.
     */
    private Map<String, Object> verifySigned(String code, Optional<String> doorShow, long now) {
        Optional<SignedCodes.Claim> read = SignedCodes.claimedShow(code)
                .filter(show -> shows.find(show).isPresent())
                .flatMap(show -> SignedCodes.read(code, gateKeys.publicKey(show)));
        Map<String, Object> out = new LinkedHashMap<>();
        if (read.isEmpty()) {
            out.put("status", BookingRepository.TicketCheck.Result.INVALID.name());
            out.put("verdict", SignedVerdict.BAD_SIGNATURE.name());
            out.put("reason", "not a code signed with its show's key");
            return out;
        }
        SignedCodes.Claim c = read.get();
        if (doorShow.isPresent() && !doorShow.get().equals(c.showId())) {
            return signedAnswer(c, "INVALID", SignedVerdict.WRONG_SHOW, "reason", wrongShow(c.showId(), doorShow.get()));
        }
        if (!OfflineVerifier.inWindow(c, now)) {
            // a revoked code is REVOKED whatever its step, as offline; an expired one marks nothing
            return bookings.checkTicket(c.bookingId(), c.showId(), c.seatId(), c.version()).result()
                    == BookingRepository.TicketCheck.Result.INVALID
                    ? signedAnswer(c, "INVALID", SignedVerdict.REVOKED, "reason", NOT_ADMITTING)
                    : signedAnswer(c, "EXPIRED", SignedVerdict.EXPIRED_WINDOW, "reason",
                    "a code whose window has passed (a screenshot, or a clock far off): ask for the live code");
        }
        BookingRepository.TicketCheck check = bookings.useTicket(c.bookingId(), c.showId(), c.seatId(), c.version(), now);
        return switch (check.result()) {
            case VALID -> signedAnswer(c, "VALID", SignedVerdict.ACCEPT, "admittedAt", Instant.ofEpochMilli(check.usedAt()));
            case ALREADY_USED -> signedAnswer(c, "ALREADY_USED", SignedVerdict.ALREADY_USED, "usedAt",
                    Instant.ofEpochMilli(check.usedAt()));
            case INVALID -> signedAnswer(c, "INVALID", SignedVerdict.REVOKED, "reason", NOT_ADMITTING);
        };
    }

    private static Map<String, Object> signedAnswer(SignedCodes.Claim c, String status, SignedVerdict verdict,
                                                    String detail, Object value) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("status", status);
        out.put("verdict", verdict.name());
        putTicket(out, c.bookingId(), c.showId(), c.seatId());
        out.put(detail, value);
        return out;
    }

    private static void putTicket(Map<String, Object> out, long bookingId, String showId, String seatId) {
        out.put("bookingId", bookingId);
        out.put("showId", showId);
        out.put("seatId", seatId);
    }

    private static String wrongShow(String ticketShow, String doorShow) {
        return "a ticket for show " + ticketShow + ", not for this door's show " + doorShow;
    }

    private boolean transferred(long bookingId) {
        return transfers.ofBooking(bookingId).stream().anyMatch(t -> t.status() == TicketTransfer.Status.ACCEPTED);
    }

    private Optional<Booking> owned(Principal caller, String bookingId) {
        return parseId(bookingId).flatMap(bookings::booking)
                .filter(b -> b.accountId().equals(caller.accountId()) || caller.isAdmin());
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
        return view(b, b.status() == Booking.Status.CONFIRMED ? transfers.tickets(b.bookingId()) : List.of(),
                transfers.ofBooking(b.bookingId()));
    }

    /** The booking as its owner sees it, given its live tickets (a confirmed booking's) and its transfers. */
    private BookingView view(Booking b, List<TransferRepository.HeldTicket> live, List<TicketTransfer> history) {
        Show show = show(b);
        List<BookingView.SeatLine> seats = new ArrayList<>();
        List<BookingView.TicketLine> tickets = new ArrayList<>();
        Map<String, TransferRepository.HeldTicket> held = new LinkedHashMap<>();
        live.forEach(t -> held.put(t.seatId(), t));
        Optional<String> area = AdmissionTickets.areaOf(b);
        BigDecimal admissionPrice = area.isEmpty() ? null
                : BigDecimal.valueOf(b.amountCents() / Math.max(1, b.seatIds().size()), 2);
        int n = 0;
        for (String seatId : b.seatIds()) {
            n++;
            if (area.isPresent()) {
                // an admission: its area in place of a section, no row, its number in the booking
                seats.add(new BookingView.SeatLine(seatId, area.get(), null, n, admissionPrice));
            } else {
                ShowLayout.SeatRef ref = show.layout().locate(seatId).orElseThrow();
                ShowLayout.Seat seat = show.layout().seat(ref.blockId(), ref.index());
                seats.add(new BookingView.SeatLine(seatId, seat.section(), seat.row(), seat.number(),
                        BigDecimal.valueOf(seat.priceCents(), 2)));
            }
            TransferRepository.HeldTicket t = held.get(seatId);
            // a ticket transferred away is the new holder's: its code is theirs alone
            if (t != null && t.holder().equals(b.accountId())) {
                tickets.add(new BookingView.TicketLine(seatId, codes.code(b.bookingId(), b.showId(), seatId,
                        t.codeVersion()), "/v1/bookings/" + b.bookingId() + "/tickets/" + seatId + "/qr.png"));
            }
        }
        String status = b.status().name();
        return new BookingView(b.bookingId(), b.holdId(), b.paymentId(), b.showId(), b.accountId(), status,
                BigDecimal.valueOf(b.amountCents(), 2), b.currency(), Instant.ofEpochMilli(b.createdAt()),
                Instant.ofEpochMilli(Booking.cancelDeadline(show)), seats, tickets,
                history.stream().map(TransferView::of).toList());
    }
}
