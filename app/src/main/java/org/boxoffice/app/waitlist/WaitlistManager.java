package org.boxoffice.app.waitlist;

import com.hazelcast.flakeidgen.FlakeIdGenerator;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.holds.HoldAttempt;
import org.boxoffice.app.holds.HoldManager;
import org.boxoffice.app.holds.HoldRequest;
import org.boxoffice.app.holds.HoldRules;
import org.boxoffice.app.holds.HoldView;
import org.boxoffice.domain.HoldState;
import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.Outcome.Refused;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.SeatPicker;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.WaitlistEntry;
import org.boxoffice.domain.WaitlistEntry.State;
import org.boxoffice.domain.WaitlistRepository;
import org.boxoffice.domain.WaitlistStanding;
import org.boxoffice.grid.Admissions;
import org.boxoffice.grid.ShowSnapshots;
import org.boxoffice.grid.waitlist.WaitlistUnavailableException;
import org.boxoffice.grid.waitlist.Waitlists;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Joining and leaving a show's waitlist, one's standing, and one's open offers. Thread-safe;
 * called on the web server's virtual threads.
 *
 * <p>A join asks for adjacent seats, or for a quantity of admissions to a general-admission area.
 * It passes the same rules a hold passes first, in their order ({@link HoldRules#showsTerms}: the
 * show, its sale window, the size, the section or area), with the same refusals; a join of
 * admissions asks for no more than the account may hold. It is refused while the requested seats or
 * admissions can simply be held (the waitlist is for shows that are sold out for that request), and
 * when the account already has a live entry for the show; repeating the same join answers the entry
 * it made. The entry reaches the referee through the grid queue's store before the queue holds it,
 * so concurrent joins of one account end with one entry whichever members they reach.
 */
public final class WaitlistManager {

    private final ShowDirectory shows;
    private final HoldRules showsTerms;
    private final Waitlists waitlists;
    private final WaitlistRepository repository;
    private final ShowSnapshots snapshots;
    private final Admissions admissions;
    private final HoldManager holds;
    private final FlakeIdGenerator entryIds;
    private final LongSupplier clock;

    /** @param admissions general admission's areas, or null for a waitlist of seats only (every area is unknown) */
    public WaitlistManager(ShowDirectory shows, Waitlists waitlists, WaitlistRepository repository, ShowSnapshots snapshots,
                           Admissions admissions, HoldManager holds, FlakeIdGenerator entryIds, LongSupplier clock) {
        this.shows = shows;
        this.showsTerms = HoldRules.showsTerms(shows::find,
                admissions == null ? (showId, area) -> Optional.empty() : admissions::area, clock);
        this.waitlists = waitlists;
        this.repository = repository;
        this.snapshots = snapshots;
        this.admissions = admissions;
        this.holds = holds;
        this.entryIds = entryIds;
        this.clock = clock;
    }

    /**
     * What a join asks for: {@code quantity} adjacent seats, in {@code section} or (null) any; or, with
     * an {@code area} (then {@code section} is null), {@code quantity} admissions to that area.
     */
    public record JoinRequest(int quantity, String section, String area) {
        public JoinRequest(int quantity, String section) {
            this(quantity, section, null);
        }
    }

    /** The entry after a join, and whether this join made it. */
    public record Joined(StandingView standing, boolean created) {
    }

    /** What became of leaving. */
    public enum Left { LEFT, NOT_IN_LINE, PAYING }

    /** An open offer as the API lists it. */
    public record OfferView(String holdId, String showId, String entryId, List<String> seatIds, String area, int quantity,
                            Instant expiresAt, BigDecimal totalAmount, String currency, String checkout) {
    }

    /**
     * Joins the show's waitlist, or says why not. An offer made from the entry is mailed to
     * {@code recipient}.
     *
     * @throws WaitlistUnavailableException if the waitlist cannot be reached (nothing changed)
     */
    public Outcome<Joined> join(Principal caller, String showId, JoinRequest request, String recipient) {
        HoldAttempt asked = showsTerms.evaluate(showId, request.area() != null
                ? new HoldRequest.Admissions(request.area(), request.quantity())
                : new HoldRequest.BestAvailable(request.quantity(), request.section()));
        if (asked.refusal().isPresent()) {
            Refused<HoldView> refused = asked.refusal().get();
            return new Refused<>(refused.reason(), refused.message(), refused.details());
        }
        return asked.area() != null ? joinArea(caller, asked, request, recipient) : joinSeats(caller, asked, request, recipient);
    }

    /** Joins the line for seats, only while {@code request.quantity()} adjacent seats cannot be held now. */
    private Outcome<Joined> joinSeats(Principal caller, HoldAttempt asked, JoinRequest request, String recipient) {
        Show show = asked.show();
        Optional<Outcome<Joined>> existing = existing(caller, show, request);
        if (existing.isPresent()) {
            return existing.get();
        }
        Optional<SeatPicker.Candidate> onSale = new SeatPicker(show.layout(), snapshots.get(show)::free)
                .bestAvailable(request.quantity(), request.section());
        if (onSale.isPresent()) {
            return new Refused<>(Rejection.SEATS_AVAILABLE, request.quantity() + " adjacent seats are on sale now;"
                    + " hold them instead of waiting", Map.of("seatIds", onSale.get().seatIds()));
        }
        return enqueue(caller, show, request, new WaitlistEntry(entryIds.newId(), show.showId(), caller.accountId(),
                request.quantity(), request.section(), asked.now(), recipient));
    }

    /**
     * Joins the line for admissions to {@code request.area()}: no more than one account may take
     * (an offer of admissions is claimed by count against the account's limit at once), and only
     * while the area has fewer admissions left than asked for.
     */
    private Outcome<Joined> joinArea(Principal caller, HoldAttempt asked, JoinRequest request, String recipient) {
        Show show = asked.show();
        int most = Math.min(show.policy().maxSeatsPerHold(), show.policy().maxPerAccount());
        if (request.quantity() > most) {
            return new Refused<>(Rejection.TOO_MANY_SEATS, "a waitlist entry of this show asks for at most " + most
                    + " admissions", Map.of("maxQuantity", most));
        }
        Optional<Outcome<Joined>> existing = existing(caller, show, request);
        if (existing.isPresent()) {
            return existing.get();
        }
        int left = admissions.left(show, asked.area());
        if (left >= request.quantity()) {
            return new Refused<>(Rejection.SEATS_AVAILABLE, "area " + request.area() + " has " + left
                    + " admissions on sale now; hold them instead of waiting", Map.of("left", left));
        }
        return enqueue(caller, show, request, new WaitlistEntry(entryIds.newId(), show.showId(), caller.accountId(),
                request.quantity(), null, asked.now(), recipient, request.area()));
    }

    private Outcome<Joined> enqueue(Principal caller, Show show, JoinRequest request, WaitlistEntry entry) {
        if (!waitlists.join(entry)) {
            // another join of this account won the race
            return existing(caller, show, request).orElseGet(() -> new Refused<>(Rejection.ALREADY_ON_WAITLIST,
                    "this account is already on the waitlist of this show"));
        }
        return new Outcome.Done<>(new Joined(standing(caller, show).orElseThrow(), true));
    }

    /** The account's live entry: the same request again answers it; another one is a conflict. */
    private Optional<Outcome<Joined>> existing(Principal caller, Show show, JoinRequest request) {
        Optional<WaitlistStanding> live = repository.standing(show.showId(), caller.accountId())
                .filter(s -> s.state().live());
        if (live.isEmpty()) {
            return Optional.empty();
        }
        WaitlistStanding s = live.get();
        if (s.state().inLine() && s.entry().quantity() == request.quantity()
                && Objects.equals(s.entry().section(), request.section()) && Objects.equals(s.entry().area(), request.area())) {
            return Optional.of(new Outcome.Done<>(new Joined(StandingView.of(s), false)));
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("entry", StandingView.of(s));
        return Optional.of(new Refused<>(Rejection.ALREADY_ON_WAITLIST, s.state() == State.OFFERED
                ? "an offer is held for this account for this show; check out or decline the offer first"
                : "this account is already on the waitlist of this show; leave it first to ask for something else",
                details));
    }

    /** The account's entry for the show (live, else its latest); empty if it never joined. */
    public Optional<StandingView> mine(Principal caller, String showId) {
        return shows.find(showId).flatMap(show -> standing(caller, show));
    }

    /**
     * Leaves the waitlist: an entry in line ends at once; an open offer is declined (its seats go to
     * the next waiter). 404 if the account has no live entry for the show.
     */
    public Left leave(Principal caller, String showId) {
        Optional<Show> found = shows.find(showId);
        Optional<WaitlistStanding> live = found.flatMap(show -> repository.standing(show.showId(), caller.accountId()))
                .filter(st -> st.state().live());
        if (live.isEmpty()) {
            return Left.NOT_IN_LINE;
        }
        Show show = found.get();
        WaitlistStanding s = live.get();
        long now = clock.getAsLong();
        long id = s.entry().entryId();
        if (s.state() == State.OFFERED) {
            if (holds.release(caller, s.holdId()) instanceof HoldManager.Released.PaymentInProgress) {
                return Left.PAYING; // the offer is being paid for: it stays until the payment is decided
            }
            repository.end(id, Set.of(State.OFFERED), State.DECLINED, "left the waitlist", now);
            return Left.LEFT;
        }
        // an offer being made right now fails to record itself and gives its seats back
        if (repository.end(id, Set.of(State.WAITING, State.OFFERING), State.LEFT, "left the waitlist", now)) {
            waitlists.remove(show.showId(), List.of(s.entry()));
        }
        return Left.LEFT;
    }

    /** The caller's open offers, all shows: holds made for them from a waitlist, not yet lapsed. */
    public List<OfferView> offers(Principal caller) {
        List<OfferView> out = new ArrayList<>();
        for (WaitlistStanding s : repository.offersOf(caller.accountId())) {
            Optional<HoldView> found = holds.find(caller, s.holdId());
            if (found.isEmpty()) {
                continue;
            }
            HoldView hold = found.get();
            if (hold.status() == HoldState.HELD) {
                out.add(new OfferView(hold.holdId(), hold.showId(), Long.toString(s.entry().entryId()), hold.seatIds(),
                        hold.area(), hold.area() == null ? hold.seatIds().size() : hold.quantity(), hold.expiresAt(), hold.totalAmount(), hold.currency(), "/v1/holds/" + hold.holdId() + "/checkout"));
            }
        }
        return out;
    }

    /**
     * The caller's standing. An offer already bought is recorded as BOOKED here, at once, rather than
     * at the line's next periodic pass (up to {@code passmillis} later); the pass makes the same
     * conditional change, so whichever comes first records it.
     */
    private Optional<StandingView> standing(Principal caller, Show show) {
        Optional<WaitlistStanding> found = repository.standing(show.showId(), caller.accountId());
        if (found.isPresent() && found.get().state() == State.OFFERED
                && holds.find(caller, found.get().holdId()).map(h -> h.status() == HoldState.CONFIRMED).orElse(false)) {
            repository.end(found.get().entry().entryId(), Set.of(State.OFFERED), State.BOOKED, "checked out",
                    clock.getAsLong());
            found = repository.standing(show.showId(), caller.accountId());
        }
        return found.map(StandingView::of);
    }
}
