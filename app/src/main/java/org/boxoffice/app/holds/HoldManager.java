package org.boxoffice.app.holds;

import com.hazelcast.flakeidgen.FlakeIdGenerator;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.JsonBytes;
import org.boxoffice.domain.HoldRecord;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.SeatPicker;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.grid.Allowances;
import org.boxoffice.grid.BlockCommand;
import org.boxoffice.grid.BlockOutcome;
import org.boxoffice.grid.Inventory;
import org.boxoffice.grid.ShowSnapshot;
import org.boxoffice.grid.ShowSnapshots;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.stream.IntStream;

/**
 * Holds and releases seats for buyers.
 *
 * <p>A hold request goes through, in order: the show and its sale window, the request's shape
 * (size, unknown seats), the fast gate (seats the snapshot shows as taken are refused here with
 * alternatives, without a trip to the grid), the account's allowance, and finally the claim on the
 * grid, where the block's processor decides and the referee confirms. Only then is the hold
 * acknowledged. Thread-safe; called on the web server's virtual threads.
 */
public final class HoldManager {

    private static final int ALTERNATIVES = 3;
    private static final int BEST_AVAILABLE_TRIES = 3;

    private final ShowDirectory shows;
    private final Inventory inventory;
    private final Allowances allowances;
    private final ShowSnapshots snapshots;
    private final InventoryRepository repository;
    private final FlakeIdGenerator holdIds;
    private final LongSupplier clock;

    public HoldManager(ShowDirectory shows, Inventory inventory, Allowances allowances, ShowSnapshots snapshots,
                       InventoryRepository repository, FlakeIdGenerator holdIds, LongSupplier clock) {
        this.shows = shows;
        this.inventory = inventory;
        this.allowances = allowances;
        this.snapshots = snapshots;
        this.repository = repository;
        this.holdIds = holdIds;
        this.clock = clock;
    }

    public Show show(String showId) {
        return shows.find(showId).orElseThrow(() -> ApiException.notFound("show " + showId));
    }

    /**
     * The fast gate on its own, for a request naming seats: the encoded {@code 409 SEATS_UNAVAILABLE}
     * answer if the member's snapshot shows any of them taken, else empty, and the request takes
     * the full path ({@link #hold}), which checks everything again. Touches no partition and no
     * database and builds no JSON tree: in an on-sale most attempts end here, so this is what most
     * requests cost. Anything else wrong with the request (unknown show or seat, closed sale, size)
     * is left to the full path and its error.
     */
    public Optional<byte[]> refusalFromSnapshot(String showId, HoldRequest request) {
        if (!(request instanceof HoldRequest.Seats named)) {
            return Optional.empty();
        }
        Optional<Show> found = shows.find(showId);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Show show = found.get();
        List<String> seatIds = named.seatIds();
        if (!show.sale().isOpen(clock.getAsLong()) || show.policy().checkSize(seatIds.size()).isPresent()) {
            return Optional.empty();
        }
        int[] global = new int[seatIds.size()];
        for (int i = 0; i < global.length; i++) {
            Optional<ShowLayout.SeatRef> ref = show.layout().locate(seatIds.get(i));
            if (ref.isEmpty()) {
                return Optional.empty();
            }
            global[i] = show.layout().offset(ref.get().blockId()) + ref.get().index();
            for (int j = 0; j < i; j++) {
                if (global[j] == global[i]) {
                    return Optional.empty();
                }
            }
        }
        ShowSnapshot snapshot = snapshots.get(show);
        List<String> taken = new ArrayList<>(2);
        for (int i = 0; i < global.length; i++) {
            if (!snapshot.free(global[i])) {
                taken.add(seatIds.get(i));
            }
        }
        if (taken.isEmpty()) {
            return Optional.empty();
        }
        List<List<String>> alternatives = new SeatPicker(show.layout(), snapshot::free).alternatives(seatIds, ALTERNATIVES);
        return Optional.of(new JsonBytes()
                .field("error", Rejection.SEATS_UNAVAILABLE.name())
                .field("message", unavailableMessage(taken))
                .field("unavailable", taken)
                .fieldOfLists("alternatives", alternatives)
                .toBytes());
    }

    /** Holds seats for {@code caller}; throws {@link ApiException} for every refusal. */
    public HoldView hold(Principal caller, String showId, HoldRequest request) {
        Show show = show(showId);
        long now = clock.getAsLong();
        if (!show.sale().isOpen(now)) {
            throw new ApiException(422, Rejection.SALE_NOT_OPEN.name(), "seats of this show are not on sale now",
                    Map.of("saleOpensAt", Instant.ofEpochMilli(show.sale().opensAt()),
                            "saleClosesAt", Instant.ofEpochMilli(show.sale().closesAt())));
        }
        return switch (request) {
            case HoldRequest.Seats seats -> holdNamed(caller, show, seats.seatIds(), now);
            case HoldRequest.BestAvailable best -> holdBest(caller, show, best, now);
        };
    }

    private HoldView holdNamed(Principal caller, Show show, List<String> seatIds, long now) {
        checkSize(show, seatIds.size());
        List<String> unknown = new ArrayList<>();
        List<ShowLayout.SeatRef> refs = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String id : seatIds) {
            Optional<ShowLayout.SeatRef> ref = show.layout().locate(id);
            if (ref.isEmpty()) {
                unknown.add(id);
            } else if (!seen.add(id)) {
                throw ApiException.badRequest("seat " + id + " is listed twice");
            } else {
                refs.add(ref.get());
            }
        }
        if (!unknown.isEmpty()) {
            throw new ApiException(422, Rejection.UNKNOWN_SEAT.name(), "this show has no seat " + String.join(", ", unknown),
                    Map.of("unknown", unknown));
        }
        ShowSnapshot snapshot = snapshots.get(show);
        List<String> taken = new ArrayList<>();
        for (int i = 0; i < refs.size(); i++) {
            if (!snapshot.free(show.layout().offset(refs.get(i).blockId()) + refs.get(i).index())) {
                taken.add(seatIds.get(i));
            }
        }
        if (!taken.isEmpty()) {
            throw seatsUnavailable(show, snapshot, seatIds, taken);
        }
        return claim(caller, show, seatIds, refs, now).orElseThrow(() -> {
            ShowSnapshot fresh = snapshots.get(show);
            List<String> nowTaken = IntStream.range(0, refs.size())
                    .filter(i -> !fresh.free(show.layout().offset(refs.get(i).blockId()) + refs.get(i).index()))
                    .mapToObj(seatIds::get).toList();
            return seatsUnavailable(show, fresh, seatIds, nowTaken);
        });
    }

    private HoldView holdBest(Principal caller, Show show, HoldRequest.BestAvailable best, long now) {
        checkSize(show, best.quantity());
        if (best.section() != null && show.layout().section(best.section()).isEmpty()) {
            throw new ApiException(422, "UNKNOWN_SECTION", "this show has no section " + best.section());
        }
        for (int attempt = 0; attempt < BEST_AVAILABLE_TRIES; attempt++) {
            ShowSnapshot snapshot = snapshots.get(show);
            Optional<SeatPicker.Candidate> candidate = new SeatPicker(show.layout(), snapshot::free)
                    .bestAvailable(best.quantity(), best.section());
            if (candidate.isEmpty()) {
                break;
            }
            List<String> ids = candidate.get().seatIds();
            List<ShowLayout.SeatRef> refs = ids.stream().map(id -> show.layout().locate(id).orElseThrow()).toList();
            Optional<HoldView> held = claim(caller, show, ids, refs, now);
            if (held.isPresent()) {
                return held.get();
            }
        }
        throw new ApiException(409, Rejection.SEATS_UNAVAILABLE.name(),
                "no " + best.quantity() + " adjacent seats are available" + (best.section() == null ? "" : " in section " + best.section()),
                Map.of("unavailable", List.of(), "alternatives", List.of()));
    }

    /** Reserves the allowance, claims on the grid; empty if the grid refused the seats. */
    private Optional<HoldView> claim(Principal caller, Show show, List<String> seatIds, List<ShowLayout.SeatRef> refs, long now) {
        String holdId = "H" + Long.toString(holdIds.newId(), 36).toUpperCase();
        long expiresAt = now + show.policy().holdMillis();
        long grace = show.policy().graceMillis();
        int remaining = allowances.reserve(show.showId(), caller.accountId(), holdId, seatIds.size(), expiresAt, now,
                grace, show.policy().maxPerAccount());
        if (remaining >= 0) {
            throw new ApiException(422, Rejection.ACCOUNT_LIMIT.name(), "an account may have at most "
                    + show.policy().maxPerAccount() + " seats of this show in holds and bookings",
                    Map.of("remaining", remaining));
        }
        SortedMap<Integer, int[]> byBlock = ShowLayout.byBlock(refs);
        Inventory.ClaimResult result;
        try {
            result = inventory.hold(show, holdId, caller.accountId(), byBlock, expiresAt, now, seatIds.toArray(String[]::new));
        } catch (RuntimeException e) {
            allowances.release(show.showId(), caller.accountId(), holdId);
            throw e;
        }
        switch (result) {
            case Inventory.ClaimResult.Held held -> {
                byBlock.forEach((block, seats) -> snapshots.record(show, block, seats, SeatState.Status.HELD));
                return Optional.of(new HoldView(holdId, show.showId(), caller.accountId(), seatIds, "HELD",
                        Instant.ofEpochMilli(expiresAt), amount(show, refs), show.currency()));
            }
            case Inventory.ClaimResult.Rejected rejected -> {
                allowances.release(show.showId(), caller.accountId(), holdId);
                if (rejected.reason() != Rejection.SEATS_UNAVAILABLE) {
                    throw new ApiException(422, rejected.reason().name(), "the seats cannot be held: " + rejected.reason());
                }
                rejected.seatsByBlock().forEach((block, seats) -> snapshots.record(show, block, seats, SeatState.Status.HELD));
                return Optional.empty();
            }
        }
    }

    /** The hold, for its owner (or an admin); 404 for anyone else. */
    public HoldView get(Principal caller, String holdId) {
        HoldRecord hold = ownedHold(caller, holdId);
        Show show = show(hold.showId());
        return view(show, hold, clock.getAsLong());
    }

    /** Releases the hold's seats at once; releasing a hold that already ended is a no-op. */
    public void release(Principal caller, String holdId) {
        HoldRecord hold = ownedHold(caller, holdId);
        Show show = show(hold.showId());
        if ("CONFIRMED".equals(hold.status())) {
            throw new ApiException(409, "HOLD_CONFIRMED", "this hold became a booking; cancel the booking instead");
        }
        if (!"ACTIVE".equals(hold.status())) {
            return;
        }
        long now = clock.getAsLong();
        List<ShowLayout.SeatRef> refs = hold.seatIds().stream().map(id -> show.layout().locate(id).orElseThrow()).toList();
        Map<Integer, BlockOutcome> outcomes = new LinkedHashMap<>(inventory.executeAll(show,
                ShowLayout.byBlock(refs).keySet(),
                block -> new BlockCommand.Release(holdId, now, caller.accountId(), "released by buyer")));
        // The referee says ACTIVE, so a block copy that does not know the hold may be stale (for a
        // moment after a split heals, one side's copy can miss a hold the other side wrote through):
        // drop that copy, let it reload from PostgreSQL and release again. A hold that lapsed
        // meanwhile stays unchanged, at the cost of one reload.
        for (Map.Entry<Integer, BlockOutcome> e : outcomes.entrySet()) {
            if (e.getValue().result() == BlockOutcome.Result.UNCHANGED) {
                inventory.evict(show, e.getKey());
                e.setValue(inventory.execute(show, e.getKey(),
                        new BlockCommand.Release(holdId, now, caller.accountId(), "released by buyer")));
            }
        }
        outcomes.forEach((block, outcome) -> {
            if (outcome.result() == BlockOutcome.Result.CHANGED) {
                snapshots.record(show, block, outcome.seats(), SeatState.Status.AVAILABLE);
            }
        });
        allowances.release(show.showId(), hold.accountId(), holdId);
    }

    private HoldRecord ownedHold(Principal caller, String holdId) {
        Optional<HoldRecord> hold = holdId == null || holdId.length() > 64 ? Optional.empty() : repository.findHold(holdId);
        if (hold.isEmpty() || !(hold.get().accountId().equals(caller.accountId()) || caller.isAdmin())) {
            throw ApiException.notFound("hold " + holdId);
        }
        return hold.get();
    }

    private HoldView view(Show show, HoldRecord hold, long now) {
        List<ShowLayout.SeatRef> refs = hold.seatIds().stream().map(id -> show.layout().locate(id).orElseThrow()).toList();
        return new HoldView(hold.holdId(), hold.showId(), hold.accountId(), hold.seatIds(),
                hold.statusAt(now, show.policy().graceMillis()), Instant.ofEpochMilli(hold.expiresAt()),
                amount(show, refs), show.currency());
    }

    private void checkSize(Show show, int seats) {
        show.policy().checkSize(seats).ifPresent(r -> {
            throw new ApiException(422, r.name(), "a hold takes 1 to " + show.policy().maxSeatsPerHold() + " seats",
                    Map.of("maxSeatsPerHold", show.policy().maxSeatsPerHold()));
        });
    }

    private ApiException seatsUnavailable(Show show, ShowSnapshot snapshot, List<String> requested, List<String> taken) {
        List<List<String>> alternatives = new SeatPicker(show.layout(), snapshot::free).alternatives(requested, ALTERNATIVES);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("unavailable", taken);
        details.put("alternatives", alternatives);
        return new ApiException(409, Rejection.SEATS_UNAVAILABLE.name(), unavailableMessage(taken), details);
    }

    private static String unavailableMessage(List<String> taken) {
        return "some of these seats were just taken: " + String.join(", ", taken);
    }

    static BigDecimal amount(Show show, List<ShowLayout.SeatRef> refs) {
        long cents = 0;
        for (ShowLayout.SeatRef r : refs) {
            cents += show.layout().seat(r.blockId(), r.index()).priceCents();
        }
        return BigDecimal.valueOf(cents, 2);
    }
}
