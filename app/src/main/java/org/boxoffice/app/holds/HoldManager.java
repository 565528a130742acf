package org.boxoffice.app.holds;

import com.hazelcast.flakeidgen.FlakeIdGenerator;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.BookingRepository;
import org.boxoffice.domain.HoldRecord;
import org.boxoffice.domain.HoldState;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.SeatPicker;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.grid.Admissions;
import org.boxoffice.grid.Seats;
import org.boxoffice.grid.ShowSnapshot;
import org.boxoffice.grid.ShowSnapshots;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Holds and releases seats, and admissions to general-admission areas, for buyers.
 *
 * <p>A hold request is decided in two steps, each once: {@link #check} puts it through the
 * {@link HoldRules} (the show, its sale window, the size, the seats, and this member's seat map:
 * the fast gate), and {@link #hold} claims what the rules let pass through {@link Seats#holdIfFree}:
 * the account's allowance, then the blocks' processors on the grid, where the referee confirms.
 * Only then is the hold acknowledged. The web layer answers a seat-map refusal at once and puts
 * everything else, after the account's rate limit, through {@link #hold}. Every refusal is a value
 * ({@link Outcome.Refused}); the web layer turns it into an answer. Thread-safe; called on the
 * web server's virtual threads.
 */
public final class HoldManager {

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(HoldManager.class.getName());
    private static final int BEST_AVAILABLE_TRIES = 3;

    private final ShowDirectory shows;
    private final HoldRules rules;
    private final Seats seats;
    private final Admissions admissions;
    private final ShowSnapshots snapshots;
    private final InventoryRepository repository;
    private final BookingRepository bookings;
    private final FlakeIdGenerator holdIds;
    private final LongSupplier clock;

    public HoldManager(ShowDirectory shows, Seats seats, ShowSnapshots snapshots, InventoryRepository repository,
                       BookingRepository bookings, FlakeIdGenerator holdIds, LongSupplier clock) {
        this(shows, seats, null, snapshots, repository, bookings, holdIds, clock);
    }

    /** @param admissions general admission's areas, or null for a manager of seats only (every area is unknown) */
    public HoldManager(ShowDirectory shows, Seats seats, Admissions admissions, ShowSnapshots snapshots,
                       InventoryRepository repository, BookingRepository bookings, FlakeIdGenerator holdIds,
                       LongSupplier clock) {
        this.shows = shows;
        this.admissions = admissions;
        this.rules = HoldRules.standard(shows::find, snapshots::get,
                admissions == null ? (showId, area) -> Optional.empty() : admissions::area,
                admissions == null ? (show, area, quantity, now) -> Optional.empty() : admissions::knownSoldOut, clock);
        this.seats = seats;
        this.snapshots = snapshots;
        this.repository = repository;
        this.bookings = bookings;
        this.holdIds = holdIds;
        this.clock = clock;
    }

    /** What became of a release. */
    public sealed interface Released {
        /** The hold is released (or had ended already): its seats are back on sale. */
        record Done() implements Released {
        }

        /** No such hold for this caller. */
        record NotFound() implements Released {
        }

        /** The hold became a booking: cancel the booking instead. */
        record Confirmed() implements Released {
        }

        /** A payment for the hold may still move money: the hold stays until it is decided. */
        record PaymentInProgress(String paymentId) implements Released {
        }
    }

    /**
     * Puts a hold request through the {@link HoldRules}, now: changes nothing. If the attempt is
     * {@linkplain HoldAttempt#refusedAtTheGate refused at the gate}, its refusal may be answered at
     * once; otherwise it goes on to {@link #hold}.
     */
    public HoldAttempt check(String showId, HoldRequest request) {
        return rules.evaluate(showId, request);
    }

    /**
     * Holds seats for {@code caller} as {@code attempt} ({@link #check}) asks, as of the moment it
     * was checked, or says why not: the rules' refusal, or the claim's.
     */
    public Outcome<HoldView> hold(Principal caller, HoldAttempt attempt) {
        return hold(caller, attempt, () -> { });
    }

    /**
     * As {@link #hold(Principal, HoldAttempt)}, with {@code permit} run before anything is claimed
     * (it throws to stop the hold): the account's rate limit, asked for before and answered while
     * the allowance is reserved. A permit that throws after the reservation has it given back.
     */
    public Outcome<HoldView> hold(Principal caller, HoldAttempt attempt, Runnable permit) {
        Optional<Outcome.Refused<HoldView>> refused = attempt.refusal();
        if (refused.isPresent()) {
            return refused.get();
        }
        return switch (attempt.request()) {
            case HoldRequest.Seats named -> holdNamed(caller, attempt, named.seatIds(), permit);
            case HoldRequest.BestAvailable best -> holdBest(caller, attempt.show(), best, attempt.now(), permit);
            case HoldRequest.Admissions asked -> {
                permit.run();
                yield holdAdmissions(caller, attempt.show(), attempt.area(), asked.quantity(), attempt.now());
            }
        };
    }

    /**
     * Claims {@code quantity} admissions of {@code area} through {@link Admissions#hold}, which tries again
     * under a new hold id while claims in flight keep the admissions the area has left: a buyer hears
     * "sold out" only when the referee counts too few, and a 503 if the claims never stop meeting.
     */
    private Outcome<HoldView> holdAdmissions(Principal caller, Show show, AdmissionArea area, int quantity, long now) {
        long expiresAt = show.policy().expiresAt(now);
        return switch (admissions.hold(show, area, this::newHoldId, caller.accountId(), quantity, expiresAt, now)) {
            case Admissions.Claim.Held held -> new Outcome.Done<>(new HoldView(held.holdId(), show.showId(),
                    caller.accountId(), List.of(), area.name(), quantity, HoldState.HELD, Instant.ofEpochMilli(expiresAt),
                    BigDecimal.valueOf(area.priceCents() * quantity, 2), show.currency()));
            case Admissions.Claim.OverLimit over -> overLimit(show, over.remaining());
            case Admissions.Claim.SoldOut soldOut -> soldOut(area, quantity, soldOut.left());
            case Admissions.Claim.Contended contended -> throw new IllegalStateException("tried again until decided: " + contended);
        };
    }

    /** The refusal of {@code quantity} admissions of {@code area}, which has only {@code left}: the claim's, and the gate's ({@link AdmissionsLeftRule}). */
    static Outcome.Refused<HoldView> soldOut(AdmissionArea area, int quantity, int left) {
        return new Outcome.Refused<>(Rejection.SOLD_OUT, "area " + area.name() + " has " + left + " admissions left, "
                + "fewer than the " + quantity + " asked for", Map.of("left", left));
    }

    private static Outcome.Refused<HoldView> overLimit(Show show, int remaining) {
        return new Outcome.Refused<>(Rejection.ACCOUNT_LIMIT, "an account may have at most "
                + show.policy().maxPerAccount() + " seats and admissions of this show in holds and bookings",
                Map.of("remaining", remaining));
    }

    private String newHoldId() {
        return "H" + Long.toString(holdIds.newId(), 36).toUpperCase();
    }

    private Outcome<HoldView> holdNamed(Principal caller, HoldAttempt attempt, List<String> seatIds, Runnable permit) {
        Show show = attempt.show();
        Outcome<HoldView> claimed = claim(caller, show, seatIds, attempt.places(), attempt.now(), permit);
        if (claimed instanceof Outcome.Refused<HoldView> r && r.reason() == Rejection.SEATS_UNAVAILABLE) {
            // the claim's outcome is on this member's map now: say what it shows taken, with alternatives
            return SeatsFreeRule.claimRefused(show, snapshots.get(show), seatIds, attempt.places());
        }
        return claimed;
    }

    private Outcome<HoldView> holdBest(Principal caller, Show show, HoldRequest.BestAvailable best, long now, Runnable permit) {
        for (int attempt = 0; attempt < BEST_AVAILABLE_TRIES; attempt++) {
            ShowSnapshot snapshot = snapshots.get(show);
            if (snapshot.available() < best.quantity()) {
                break; // sold out as far as this member knows: nothing to pick from
            }
            Optional<SeatPicker.Candidate> candidate = new SeatPicker(show.layout(), snapshot::free)
                    .bestAvailable(best.quantity(), best.section());
            if (candidate.isEmpty()) {
                break;
            }
            List<String> ids = candidate.get().seatIds();
            List<ShowLayout.SeatRef> refs = ids.stream().map(id -> show.layout().locate(id).orElseThrow()).toList();
            Outcome<HoldView> claimed = claim(caller, show, ids, refs, now, permit);
            if (!(claimed instanceof Outcome.Refused<HoldView> r && r.reason() == Rejection.SEATS_UNAVAILABLE)) {
                return claimed;
            }
        }
        return new Outcome.Refused<>(Rejection.SEATS_UNAVAILABLE,
                "no " + best.quantity() + " adjacent seats are available" + (best.section() == null ? "" : " in section " + best.section()),
                Map.of("unavailable", List.of(), "alternatives", List.of()));
    }

    /**
     * Claims the seats through {@link Seats#holdIfFree}; a refusal (by this member's map, a claim of its own in
     * flight, or the grid) comes back as SEATS_UNAVAILABLE without details.
     */
    private Outcome<HoldView> claim(Principal caller, Show show, List<String> seatIds, List<ShowLayout.SeatRef> refs, long now,
                                    Runnable permit) {
        String holdId = newHoldId();
        long expiresAt = show.policy().expiresAt(now);
        return switch (seats.holdIfFree(show, holdId, caller.accountId(), ShowLayout.byBlock(refs), expiresAt, now,
                seatIds.toArray(String[]::new), permit)) {
            case Seats.Claim.Held held -> new Outcome.Done<>(new HoldView(holdId, show.showId(), caller.accountId(), seatIds,
                    HoldState.HELD, Instant.ofEpochMilli(expiresAt), amount(show, refs), show.currency()));
            case Seats.Claim.OverLimit over -> overLimit(show, over.remaining());
            case Seats.Claim.Refused refused -> refused.reason() == Rejection.SEATS_UNAVAILABLE
                    ? new Outcome.Refused<>(Rejection.SEATS_UNAVAILABLE, "the seats were just taken")
                    : new Outcome.Refused<>(refused.reason(), "the seats cannot be held: " + refused.reason());
        };
    }

    /** The hold, for its owner (or an admin); empty for anyone else. */
    public Optional<HoldView> find(Principal caller, String holdId) {
        return ownedHold(caller, holdId).flatMap(hold -> shows.find(hold.showId())
                .map(show -> view(show, hold, clock.getAsLong())));
    }

    /**
     * Releases the hold's seats at once; releasing a hold that already ended is a no-op. Refused while
     * a payment for the hold may still move money: the referee decides a release and a checkout's
     * new payment attempt one after the other ({@link BookingRepository#endHoldByBuyer}), so a hold
     * is either released and never charged, or paid for and not released.
     */
    public Released release(Principal caller, String holdId) {
        Optional<HoldRecord> found = ownedHold(caller, holdId);
        Optional<Show> show = found.flatMap(h -> shows.find(h.showId()));
        if (show.isEmpty()) {
            return new Released.NotFound();
        }
        HoldRecord hold = found.get();
        switch (hold.status()) {
            case CONFIRMED -> {
                return new Released.Confirmed();
            }
            case EXPIRED -> {
                return new Released.Done();
            }
            case ACTIVE, RELEASED -> {
            }
        }
        // a member cut off from its quorum answers 503 before the referee marks anything: nothing changed
        seats.requireWritable();
        long now = clock.getAsLong();
        switch (bookings.endHoldByBuyer(holdId, now)) {
            case BookingRepository.HoldRelease.PaymentLive live -> {
                return new Released.PaymentInProgress(live.attempt().paymentId());
            }
            case BookingRepository.HoldRelease.Confirmed confirmed -> {
                return new Released.Confirmed();
            }
            case BookingRepository.HoldRelease.Expired expired -> {
                return new Released.Done();
            }
            case BookingRepository.HoldRelease.Released released -> {
                if (hold.byCount()) {
                    // RELEASED in the referee, durably: its admissions go back now, or with the hold's expiry
                    // (the sweeper's reconciliation) if the grid cannot this moment
                    Optional<AdmissionArea> area = admissions == null ? Optional.empty()
                            : admissions.area(hold.showId(), hold.area());
                    try {
                        if (area.isPresent()) {
                            admissions.release(show.get(), area.get(), holdId, hold.accountId(), now);
                        }
                    } catch (RuntimeException e) {
                        // released in the referee all the same: the sweeper's reconciliation ends its parts once it lapses
                        LOG.log(java.util.logging.Level.WARNING, "hold " + holdId + " is released, but its admissions "
                                + "cannot go back this moment; they go back when it lapses: " + e.getMessage());
                    }
                    return new Released.Done();
                }
                // RELEASED in the referee, durably: its seats go back (again, if an earlier release was cut
                // off), now or, if the grid cannot this moment, as soon as it can
                List<ShowLayout.SeatRef> refs = hold.seatIds().stream().map(id -> show.get().layout().locate(id).orElseThrow()).toList();
                seats.releaseDecided(show.get(), holdId, hold.accountId(), ShowLayout.byBlock(refs).keySet(), now,
                        caller.accountId(), "released by buyer");
                return new Released.Done();
            }
        }
    }

    private Optional<HoldRecord> ownedHold(Principal caller, String holdId) {
        Optional<HoldRecord> hold = holdId == null || holdId.length() > 64 ? Optional.empty() : repository.findHold(holdId);
        return hold.filter(h -> h.accountId().equals(caller.accountId()) || caller.isAdmin());
    }

    private HoldView view(Show show, HoldRecord hold, long now) {
        if (hold.byCount()) {
            return new HoldView(hold.holdId(), hold.showId(), hold.accountId(), List.of(), hold.area(), hold.quantity(),
                    hold.statusAt(now, show.policy().graceMillis()), Instant.ofEpochMilli(hold.expiresAt()),
                    BigDecimal.valueOf(hold.totalCents(), 2), hold.currency());
        }
        List<ShowLayout.SeatRef> refs = hold.seatIds().stream().map(id -> show.layout().locate(id).orElseThrow()).toList();
        return new HoldView(hold.holdId(), hold.showId(), hold.accountId(), hold.seatIds(),
                hold.statusAt(now, show.policy().graceMillis()), Instant.ofEpochMilli(hold.expiresAt()),
                amount(show, refs), show.currency());
    }

    static BigDecimal amount(Show show, List<ShowLayout.SeatRef> refs) {
        long cents = 0;
        for (ShowLayout.SeatRef r : refs) {
            cents += show.layout().seat(r.blockId(), r.index()).priceCents();
        }
        return BigDecimal.valueOf(cents, 2);
    }
}
