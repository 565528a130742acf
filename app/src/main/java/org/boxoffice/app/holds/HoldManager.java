package org.boxoffice.app.holds;

import com.hazelcast.flakeidgen.FlakeIdGenerator;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.domain.BookingRepository;
import org.boxoffice.domain.HoldRecord;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.SeatPicker;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.grid.Seats;
import org.boxoffice.grid.ShowSnapshot;
import org.boxoffice.grid.ShowSnapshots;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Holds and releases seats for buyers.
 *
 * <p>A hold request goes through, in order: the show and its sale window, the request's size and
 * seats, the fast gate (seats the snapshot shows as taken are refused here with alternatives,
 * without a trip to the grid), and finally {@link Seats#hold}: the account's allowance, then the
 * claim on the grid, where the block's processor decides and the referee confirms. Only then is
 * the hold acknowledged. Every refusal is a value ({@link Outcome.Refused}); the web layer turns
 * it into an answer. Most attempts of an on-sale end earlier, at {@link SnapshotGate}, which the
 * web layer asks first. Thread-safe; called on the web server's virtual threads.
 */
public final class HoldManager {

    private static final int BEST_AVAILABLE_TRIES = 3;

    private final ShowDirectory shows;
    private final Seats seats;
    private final ShowSnapshots snapshots;
    private final InventoryRepository repository;
    private final BookingRepository bookings;
    private final FlakeIdGenerator holdIds;
    private final LongSupplier clock;

    public HoldManager(ShowDirectory shows, Seats seats, ShowSnapshots snapshots, InventoryRepository repository,
                       BookingRepository bookings, FlakeIdGenerator holdIds, LongSupplier clock) {
        this.shows = shows;
        this.seats = seats;
        this.snapshots = snapshots;
        this.repository = repository;
        this.bookings = bookings;
        this.holdIds = holdIds;
        this.clock = clock;
    }

    /** What became of a hold request. */
    public sealed interface Outcome {
        record Held(HoldView hold) implements Outcome {
        }

        /** Turned down; nothing changed. {@code details} go into the answer beside the message. */
        record Refused(Rejection reason, String message, Map<String, Object> details) implements Outcome {
            Refused(Rejection reason, String message) {
                this(reason, message, Map.of());
            }
        }
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

    /** Holds seats for {@code caller}, or says why not. */
    public Outcome hold(Principal caller, String showId, HoldRequest request) {
        Optional<Show> found = shows.find(showId);
        if (found.isEmpty()) {
            return new Outcome.Refused(Rejection.UNKNOWN_SHOW, "show " + showId + " not found");
        }
        Show show = found.get();
        long now = clock.getAsLong();
        if (!show.sale().isOpen(now)) {
            return new Outcome.Refused(Rejection.SALE_NOT_OPEN, "seats of this show are not on sale now",
                    Map.of("saleOpensAt", Instant.ofEpochMilli(show.sale().opensAt()),
                            "saleClosesAt", Instant.ofEpochMilli(show.sale().closesAt())));
        }
        return switch (request) {
            case HoldRequest.Seats named -> holdNamed(caller, show, named.seatIds(), now);
            case HoldRequest.BestAvailable best -> holdBest(caller, show, best, now);
        };
    }

    private Outcome holdNamed(Principal caller, Show show, List<String> seatIds, long now) {
        Optional<Outcome.Refused> tooMany = checkSize(show, seatIds.size());
        if (tooMany.isPresent()) {
            return tooMany.get();
        }
        List<String> unknown = new ArrayList<>();
        List<ShowLayout.SeatRef> refs = new ArrayList<>();
        for (String id : seatIds) {
            Optional<ShowLayout.SeatRef> ref = show.layout().locate(id);
            if (ref.isEmpty()) {
                unknown.add(id);
            } else {
                refs.add(ref.get());
            }
        }
        if (!unknown.isEmpty()) {
            return new Outcome.Refused(Rejection.UNKNOWN_SEAT, "this show has no seat " + String.join(", ", unknown),
                    Map.of("unknown", unknown));
        }
        ShowSnapshot snapshot = snapshots.get(show);
        List<String> taken = SnapshotGate.taken(show, snapshot, seatIds, refs);
        if (!taken.isEmpty()) {
            return SnapshotGate.seatsUnavailable(show, snapshot, seatIds, taken);
        }
        Outcome claimed = claim(caller, show, seatIds, refs, now);
        if (claimed instanceof Outcome.Refused r && r.reason() == Rejection.SEATS_UNAVAILABLE) {
            ShowSnapshot fresh = snapshots.get(show);
            return SnapshotGate.seatsUnavailable(show, fresh, seatIds, SnapshotGate.taken(show, fresh, seatIds, refs));
        }
        return claimed;
    }

    private Outcome holdBest(Principal caller, Show show, HoldRequest.BestAvailable best, long now) {
        Optional<Outcome.Refused> tooMany = checkSize(show, best.quantity());
        if (tooMany.isPresent()) {
            return tooMany.get();
        }
        if (best.section() != null && show.layout().section(best.section()).isEmpty()) {
            return new Outcome.Refused(Rejection.UNKNOWN_SECTION, "this show has no section " + best.section());
        }
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
            Outcome claimed = claim(caller, show, ids, refs, now);
            if (!(claimed instanceof Outcome.Refused r && r.reason() == Rejection.SEATS_UNAVAILABLE)) {
                return claimed;
            }
        }
        return new Outcome.Refused(Rejection.SEATS_UNAVAILABLE,
                "no " + best.quantity() + " adjacent seats are available" + (best.section() == null ? "" : " in section " + best.section()),
                Map.of("unavailable", List.of(), "alternatives", List.of()));
    }

    /**
     * Claims the seats through {@link Seats#holdIfFree}; a refusal (by this member's map, a claim of its own in
     * flight, or the grid) comes back as SEATS_UNAVAILABLE without details.
     */
    private Outcome claim(Principal caller, Show show, List<String> seatIds, List<ShowLayout.SeatRef> refs, long now) {
        String holdId = "H" + Long.toString(holdIds.newId(), 36).toUpperCase();
        long expiresAt = now + show.policy().holdMillis();
        return switch (seats.holdIfFree(show, holdId, caller.accountId(), ShowLayout.byBlock(refs), expiresAt, now,
                seatIds.toArray(String[]::new))) {
            case Seats.Claim.Held held -> new Outcome.Held(new HoldView(holdId, show.showId(), caller.accountId(), seatIds,
                    "HELD", Instant.ofEpochMilli(expiresAt), amount(show, refs), show.currency()));
            case Seats.Claim.OverLimit over -> new Outcome.Refused(Rejection.ACCOUNT_LIMIT, "an account may have at most "
                    + show.policy().maxPerAccount() + " seats of this show in holds and bookings",
                    Map.of("remaining", over.remaining()));
            case Seats.Claim.Refused refused -> refused.reason() == Rejection.SEATS_UNAVAILABLE
                    ? new Outcome.Refused(Rejection.SEATS_UNAVAILABLE, "the seats were just taken")
                    : new Outcome.Refused(refused.reason(), "the seats cannot be held: " + refused.reason());
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
        List<ShowLayout.SeatRef> refs = hold.seatIds().stream().map(id -> show.layout().locate(id).orElseThrow()).toList();
        return new HoldView(hold.holdId(), hold.showId(), hold.accountId(), hold.seatIds(),
                hold.statusAt(now, show.policy().graceMillis()), Instant.ofEpochMilli(hold.expiresAt()),
                amount(show, refs), show.currency());
    }

    private static Optional<Outcome.Refused> checkSize(Show show, int count) {
        return show.policy().checkSize(count).map(r -> new Outcome.Refused(r,
                "a hold takes 1 to " + show.policy().maxSeatsPerHold() + " seats",
                Map.of("maxSeatsPerHold", show.policy().maxSeatsPerHold())));
    }

    static BigDecimal amount(Show show, List<ShowLayout.SeatRef> refs) {
        long cents = 0;
        for (ShowLayout.SeatRef r : refs) {
            cents += show.layout().seat(r.blockId(), r.index()).priceCents();
        }
        return BigDecimal.valueOf(cents, 2);
    }
}
