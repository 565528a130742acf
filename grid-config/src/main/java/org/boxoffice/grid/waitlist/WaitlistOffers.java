package org.boxoffice.grid.waitlist;

import org.boxoffice.grid.Daemons;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.flakeidgen.FlakeIdGenerator;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryUpdatedListener;
import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.AdmissionStripe;
import org.boxoffice.domain.HoldRecord;
import org.boxoffice.domain.HoldState;
import org.boxoffice.domain.HoldStatus;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.domain.WaitlistEntry;
import org.boxoffice.domain.WaitlistEntry.State;
import org.boxoffice.domain.WaitlistMatcher;
import org.boxoffice.domain.WaitlistRepository;
import org.boxoffice.domain.WaitlistStanding;
import org.boxoffice.grid.Admissions;
import org.boxoffice.grid.BlockKey;
import org.boxoffice.grid.GridMaps;
import org.boxoffice.grid.Seats;
import org.boxoffice.grid.ShowSnapshot;
import org.boxoffice.grid.ShowSnapshots;
import org.boxoffice.grid.StripeKey;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Turns seats that come back into offers for the waitlist: a hold for the waiter at the head of
 * the line (or within the look-ahead) whose request fits, lasting the offer window, announced by
 * mail. Only that waiter is told; nobody else is woken. Admissions to a general-admission area
 * that come back are offered the same way to the area's waiters ({@link WaitlistEntry#byCount}):
 * a hold of the entry's quantity through {@link Admissions#hold}, the stripes' all-or-nothing take.
 * The seats' waiters and each area's waiters keep the line's order among themselves; a waiter for
 * one never waits behind a waiter for another, since they wait for different things.
 *
 * <p><b>Detection.</b> A local listener on the inventory map, filtered by
 * {@link SeatsReturnedPredicate}, fires on the member owning a changed block once the referee has
 * accepted the change, for every path that returns seats (a buyer's release, the sweeper's expiry,
 * a cancellation, checkout or settlement letting a hold go, an admin unblock); one on the stripes,
 * filtered by {@link AdmissionsReturnedPredicate}, does the same for admissions. It sends a
 * {@link SeatsReturnedTask} to the owner of the show's waitlist queue, which queues one pass for
 * the show on its single offer thread, if anyone is in line; signals for a show collapse while
 * its pass is pending. Listener events are at-most-once (they die with their member), so every
 * member also runs a periodic pass over the lines it owns: a missed signal only delays an offer
 * until then. The periodic pass is also what settles an offer that lapsed or was declined when
 * nobody else was waiting.
 *
 * <p><b>A pass</b> over one show: if sales closed, the line is closed and nobody is offered
 * anything; otherwise open offers whose hold ended are settled (booked, expired, declined), the
 * queue is tidied against the referee, and the {@link WaitlistMatcher} picks waiters while free
 * seats (a fresh snapshot) fit them, and, area by area, while the admissions the area has free fit them.
 *
 * <p><b>Safety.</b> An offer is a hold made through {@link Seats#hold} like any other, so the
 * block processors and the referee decide: passes racing for one show (an ownership change, a test)
 * waste work but cannot hold a seat twice. An entry is offered at most once: WAITING to OFFERING and
 * OFFERING to OFFERED (with the offer's hold id) are conditional writes, and a hold whose entry
 * moved on meanwhile is released again. A pass that finds another pass offering to an entry of the
 * show stops and leaves the show to it, so strict order holds even then.
 */
public final class WaitlistOffers implements AutoCloseable {

    /** The executor that carries {@link SeatsReturnedTask}s to the owner of a show's line. */
    public static final String EXECUTOR = "waitlist-signals";
    static final String CONTEXT_KEY = "boxoffice.waitlist.offers";

    private static final Logger LOG = Logger.getLogger(WaitlistOffers.class.getName());
    private static final String ACTOR = "system:waitlist";
    /** An offer still being made after this long was abandoned by its maker (it died); passes finish or undo it. */
    private static final long OFFERING_SLACK_MILLIS = 60_000;
    /** An entry in the referee's line but missing from the queue for this long is put back (a lost queue write). */
    private static final long REPAIR_SLACK_MILLIS = 60_000;

    /**
     * @param offerMillis how long an offer holds its seats (cut short by the end of sales)
     * @param lookahead   0: strict first come, first served; k: the k entries behind the head may be served first
     * @param passMillis  how often the periodic pass runs (the safety net behind the listener)
     */
    public record Settings(long offerMillis, int lookahead, long passMillis) {
        public Settings {
            if (offerMillis < 1 || lookahead < 0 || passMillis < 1) {
                throw new IllegalArgumentException("waitlist settings: offer window and pass interval positive, look-ahead >= 0");
            }
        }
    }

    /** SEATS_TAKEN: what the offer would hold was taken meanwhile (seats, or an area's admissions). */
    private enum Outcome { OFFERED, GONE, BUSY, SEATS_TAKEN }

    private final HazelcastInstance hz;
    private final Waitlists waitlists;
    private final Seats seats;
    private final Admissions admissions;
    private final ShowSnapshots snapshots;
    private final InventoryRepository holds;
    private final WaitlistRepository repository;
    private final Function<String, Optional<Show>> shows;
    private final LongSupplier clock;
    private final Settings settings;
    private final WaitlistMatcher matcher;
    private final FlakeIdGenerator holdIds;
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService worker;
    private final IMap<BlockKey, SeatBlock> inventoryMap;
    private final UUID listener;
    private final IMap<StripeKey, AdmissionStripe> stripeMap;
    private final UUID stripeListener;

    /** @param admissions general admission's areas, or null: entries waiting for admissions are never offered any */
    public WaitlistOffers(HazelcastInstance hz, Seats seats, Admissions admissions, ShowSnapshots snapshots,
                          InventoryRepository holds, WaitlistRepository repository, Function<String, Optional<Show>> shows,
                          LongSupplier clock, Settings settings) {
        this.hz = hz;
        this.waitlists = new Waitlists(hz);
        this.seats = seats;
        this.admissions = admissions;
        this.snapshots = snapshots;
        this.holds = holds;
        this.repository = repository;
        this.shows = shows;
        this.clock = clock;
        this.settings = settings;
        this.matcher = new WaitlistMatcher(settings.lookahead());
        this.holdIds = hz.getFlakeIdGenerator(GridMaps.HOLD_IDS);
        this.worker = Daemons.scheduler("waitlist-offers");
        hz.getUserContext().put(CONTEXT_KEY, this);
        this.inventoryMap = hz.getMap(GridMaps.INVENTORY);
        this.listener = inventoryMap.addLocalEntryListener(
                (EntryUpdatedListener<BlockKey, SeatBlock>) e -> signal(e.getKey().showId()),
                new SeatsReturnedPredicate(), false);
        this.stripeMap = hz.getMap(GridMaps.ADMISSIONS);
        this.stripeListener = stripeMap.addLocalEntryListener(
                (EntryUpdatedListener<StripeKey, AdmissionStripe>) e -> signal(e.getKey().showId()),
                new AdmissionsReturnedPredicate(), false);
    }

    /** Starts the periodic pass. */
    public WaitlistOffers start() {
        worker.scheduleWithFixedDelay(this::passOnceGuarded, settings.passMillis(), settings.passMillis(),
                TimeUnit.MILLISECONDS);
        return this;
    }

    public Settings settings() {
        return settings;
    }

    /** Seats or admissions of {@code showId} came back (on this member or another): tells the owner of its line. */
    void signal(String showId) {
        try {
            hz.getExecutorService(EXECUTOR).executeOnKeyOwner(new SeatsReturnedTask(showId), showId);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "could not signal returned seats of " + showId + "; the periodic pass will see them", e);
        }
    }

    /** Queues one pass for the show on this member's offer thread, unless one is pending already. */
    public void seatsReturned(String showId) {
        if (pending.add(showId)) {
            try {
                worker.execute(() -> {
                    pending.remove(showId);
                    // most shows never have a waitlist: for them a return costs one look at an empty queue
                    if (owns(showId) && !waitlists.queue(showId).isEmpty()) {
                        guarded(showId);
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException e) {
                pending.remove(showId);
            }
        }
    }

    /** One pass over every line this member owns that has entries in line or offered; returns the offers made. */
    public int passOnce() {
        int offers = 0;
        for (String showId : repository.showsWithLiveEntries()) {
            if (owns(showId)) {
                offers += guarded(showId);
            }
        }
        return offers;
    }

    private void passOnceGuarded() {
        try {
            passOnce();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "waitlist pass failed; trying again on the next one", e);
        }
    }

    private int guarded(String showId) {
        try {
            return match(showId);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "waitlist pass over " + showId + " failed; the next pass tries again", e);
            return 0;
        }
    }

    /** Whether this member owns the partition of the show's line. */
    public boolean owns(String showId) {
        Member owner = hz.getPartitionService().getPartition(waitlists.queue(showId).getPartitionKey()).getOwner();
        return owner != null && owner.localMember();
    }

    /**
     * One pass over the show's line on the caller's thread; returns the offers made. Normally run by
     * this member's offer thread for the lines it owns; safe anywhere and concurrently (see the
     * class comment), which the tests use to race passes.
     */
    public int match(String showId) {
        Optional<Show> found = shows.apply(showId);
        if (found.isEmpty()) {
            return 0;
        }
        Show show = found.get();
        long now = clock.getAsLong();
        if (now >= show.sale().closesAt()) {
            close(show, now);
            settle(show, now);
            return 0;
        }
        settle(show, now);
        List<WaitlistEntry> line = tidy(show, now);
        if (line.isEmpty() || !show.sale().isOpen(now)) {
            return 0;
        }
        List<WaitlistEntry> forSeats = new ArrayList<>();
        Map<String, List<WaitlistEntry>> byArea = new LinkedHashMap<>();
        for (WaitlistEntry e : line) {
            if (e.byCount()) {
                byArea.computeIfAbsent(e.area(), a -> new ArrayList<>()).add(e);
            } else {
                forSeats.add(e);
            }
        }
        int offers = forSeats.isEmpty() ? 0 : matchSeats(show, forSeats, now);
        for (Map.Entry<String, List<WaitlistEntry>> area : byArea.entrySet()) {
            offers += matchAdmissions(show, area.getKey(), area.getValue(), now);
        }
        return offers;
    }

    /** Offers free seats to the seats' waiters, in line order; returns the offers made. */
    private int matchSeats(Show show, List<WaitlistEntry> line, long now) {
        ShowSnapshot snapshot = snapshots.refresh(show);
        BitSet free = new BitSet(snapshot.size());
        for (int i = 0; i < snapshot.size(); i++) {
            if (snapshot.free(i)) {
                free.set(i);
            }
        }
        int offers = 0;
        for (Optional<WaitlistMatcher.Match> m = matcher.next(line, show.layout(), free::get); m.isPresent();
             m = matcher.next(line, show.layout(), free::get)) {
            switch (offer(show, m.get(), free, now)) {
                case OFFERED -> {
                    offers++;
                    line.remove(m.get().entry());
                }
                case GONE -> line.remove(m.get().entry());
                case SEATS_TAKEN -> {
                    // offer() marked the refused seats taken; match again with what is left
                }
                case BUSY -> {
                    return offers;
                }
            }
        }
        return offers;
    }

    /**
     * Offers admissions of {@code areaName} free now to its waiters, in line order; returns the offers
     * made. Stops at the first offer the stripes refuse (claims in flight keep what the count saw
     * free): the next return, or the next periodic pass, tries again.
     */
    private int matchAdmissions(Show show, String areaName, List<WaitlistEntry> line, long now) {
        Optional<AdmissionArea> found = admissions == null ? Optional.empty() : admissions.area(show.showId(), areaName);
        if (found.isEmpty()) {
            return 0;
        }
        AdmissionArea area = found.get();
        int free = admissions.left(show, area);
        int offers = 0;
        for (Optional<WaitlistMatcher.Match> m = matcher.next(line, free); m.isPresent(); m = matcher.next(line, free)) {
            WaitlistEntry e = m.get().entry();
            switch (offer(show, area, e, now)) {
                case OFFERED -> {
                    offers++;
                    free -= e.quantity();
                    line.remove(e);
                }
                case GONE -> line.remove(e);
                case SEATS_TAKEN, BUSY -> {
                    return offers;
                }
            }
        }
        return offers;
    }

    /** Sales closed: nobody in line is offered anything any more. */
    private void close(Show show, long now) {
        int closed = repository.close(show.showId(), now);
        if (!waitlists.queue(show.showId()).isEmpty()) {
            waitlists.queue(show.showId()).clear();
        }
        if (closed > 0) {
            LOG.info(() -> "sales of " + show.showId() + " closed: " + closed + " waitlist entries lapsed");
        }
    }

    /** Ends offers whose hold ended, and finishes or undoes offers their maker never finished. */
    private void settle(Show show, long now) {
        for (WaitlistStanding s : repository.offers(show.showId())) {
            long id = s.entry().entryId();
            Optional<HoldRecord> hold = holds.findHold(s.holdId());
            if (s.state() == State.OFFERED) {
                switch (hold.map(HoldRecord::status).orElse(HoldStatus.EXPIRED)) {
                    case ACTIVE -> {
                    }
                    case CONFIRMED -> repository.end(id, Set.of(State.OFFERED), State.BOOKED, "checked out", now);
                    case RELEASED -> repository.end(id, Set.of(State.OFFERED), State.DECLINED, "offer released", now);
                    default -> repository.end(id, Set.of(State.OFFERED), State.EXPIRED, "offer lapsed", now);
                }
            } else if (s.updatedAt() < now - OFFERING_SLACK_MILLIS) {
                boolean held = hold.isPresent() && hold.get().statusAt(now, show.policy().graceMillis()) == HoldState.HELD;
                if (held && repository.offered(id, s.holdId(), hold.get().seatIds(), hold.get().expiresAt(), now)) {
                    LOG.info(() -> "finished offer " + s.holdId() + " of waitlist entry " + id + " that its maker left");
                    waitlists.remove(show.showId(), List.of(s.entry()));
                } else if (!held && repository.abandonOffer(id, s.holdId(), now)) {
                    LOG.info(() -> "undid offer " + s.holdId() + " of waitlist entry " + id + " that its maker left");
                }
            }
        }
    }

    /**
     * The line in queue order, after dropping items the referee says are no longer in line and
     * putting back entries the queue lost. The queue is read before the referee: every item in it
     * already has its row, so an item without a row in line has ended for good.
     */
    private List<WaitlistEntry> tidy(Show show, long now) {
        String showId = show.showId();
        List<WaitlistEntry> queued = waitlists.line(showId);
        List<WaitlistEntry> inLine = repository.line(showId);
        Set<Long> live = new HashSet<>();
        inLine.forEach(e -> live.add(e.entryId()));
        List<WaitlistEntry> stale = queued.stream().filter(e -> !live.contains(e.entryId())).toList();
        waitlists.remove(showId, stale);
        Set<Long> present = new HashSet<>();
        List<WaitlistEntry> line = new ArrayList<>();
        for (WaitlistEntry e : queued) {
            if (live.contains(e.entryId()) && present.add(e.entryId())) {
                line.add(e);
            }
        }
        for (WaitlistEntry e : inLine) {
            if (!present.contains(e.entryId()) && e.joinedAt() < now - REPAIR_SLACK_MILLIS) {
                LOG.warning(() -> "waitlist entry " + e.entryId() + " of " + showId
                        + " was in the referee's line but not in the queue; putting it back at the end");
                if (waitlists.join(e)) {
                    line.add(e);
                }
            }
        }
        return line;
    }

    /** Offers {@code match}'s seats to its entry: a hold through the grid, then the offer recorded with its mail. */
    private Outcome offer(Show show, WaitlistMatcher.Match match, BitSet free, long now) {
        WaitlistEntry e = match.entry();
        String holdId = newHoldId();
        long expiresAt = show.policy().offerExpiresAt(now, settings.offerMillis(), show.sale().closesAt());
        Optional<Outcome> notBegun = begin(e, holdId, now);
        if (notBegun.isPresent()) {
            return notBegun.get();
        }
        SortedMap<Integer, int[]> byBlock = show.layout().byBlockOf(match.seatIds());
        Seats.Claim claim;
        try {
            claim = seats.hold(show, holdId, e.accountId(), byBlock, expiresAt, now, match.seatIds().toArray(String[]::new));
        } catch (RuntimeException ex) {
            repository.abandonOffer(e.entryId(), holdId, now);
            throw ex;
        }
        switch (claim) {
            case Seats.Claim.Held held -> {
                take(show.layout(), free, byBlock);
                if (recorded(show, e, holdId, match.seatIds(), expiresAt, now)) {
                    return Outcome.OFFERED;
                }
                withdrawing(e, holdId);
                seats.release(show, holdId, e.accountId(), byBlock.keySet(), now, ACTOR, "offer withdrawn", false);
                return Outcome.GONE;
            }
            case Seats.Claim.OverLimit over -> {
                return refused(show, e, over.remaining(), now);
            }
            case Seats.Claim.Refused refused -> {
                repository.abandonOffer(e.entryId(), holdId, now);
                boolean known = refused.takenByBlock().values().stream().anyMatch(t -> t.length > 0);
                take(show.layout(), free, known ? refused.takenByBlock() : byBlock);
                return Outcome.SEATS_TAKEN;
            }
        }
    }

    /** Offers {@code e} its quantity of {@code area}: a hold by count through the stripes, then the offer recorded with its mail. */
    private Outcome offer(Show show, AdmissionArea area, WaitlistEntry e, long now) {
        String holdId = newHoldId();
        long expiresAt = show.policy().offerExpiresAt(now, settings.offerMillis(), show.sale().closesAt());
        Optional<Outcome> notBegun = begin(e, holdId, now);
        if (notBegun.isPresent()) {
            return notBegun.get();
        }
        Admissions.Claim claim;
        try {
            claim = admissions.hold(show, area, holdId, e.accountId(), e.quantity(), expiresAt, now);
        } catch (RuntimeException ex) {
            repository.abandonOffer(e.entryId(), holdId, now);
            throw ex;
        }
        switch (claim) {
            case Admissions.Claim.Held held -> {
                if (recorded(show, e, holdId, List.of(), expiresAt, now)) {
                    return Outcome.OFFERED;
                }
                withdrawing(e, holdId);
                admissions.release(show, area, holdId, e.accountId(), now);
                return Outcome.GONE;
            }
            case Admissions.Claim.OverLimit over -> {
                return refused(show, e, over.remaining(), now);
            }
            case Admissions.Claim.SoldOut ignored -> {
                repository.abandonOffer(e.entryId(), holdId, now);
                return Outcome.SEATS_TAKEN;
            }
            case Admissions.Claim.Contended ignored -> {
                repository.abandonOffer(e.entryId(), holdId, now);
                return Outcome.SEATS_TAKEN;
            }
        }
    }

    private String newHoldId() {
        return org.boxoffice.domain.HoldOrigin.WAITLIST_OFFER_PREFIX + Long.toString(holdIds.newId(), 36).toUpperCase();
    }

    /** WAITING to OFFERING under {@code holdId}; empty if that happened, else why the entry is not offered now. */
    private Optional<Outcome> begin(WaitlistEntry e, String holdId, long now) {
        if (repository.beginOffer(e.entryId(), holdId, now)) {
            return Optional.empty();
        }
        Optional<WaitlistStanding> s = repository.standing(e.showId(), e.accountId());
        boolean busy = s.isPresent() && s.get().entry().entryId() == e.entryId() && s.get().state() == State.OFFERING;
        return Optional.of(busy ? Outcome.BUSY : Outcome.GONE);
    }

    /** The offer's hold is made: records it with its mail and takes the entry out of the line; false if the entry moved on. */
    private boolean recorded(Show show, WaitlistEntry e, String holdId, List<String> seatIds, long expiresAt, long now) {
        if (!repository.offered(e.entryId(), holdId, seatIds, expiresAt, now)) {
            return false;
        }
        waitlists.remove(show.showId(), List.of(e));
        LOG.fine(() -> "offered " + (e.byCount() ? e.quantity() + " of area " + e.area() : seatIds) + " of "
                + show.showId() + " to " + e.accountId() + " (hold " + holdId + ")");
        return true;
    }

    /** The account may take fewer than the entry asks for: the entry ends, REFUSED. */
    private Outcome refused(Show show, WaitlistEntry e, int remaining, long now) {
        if (repository.end(e.entryId(), Set.of(State.OFFERING), State.REFUSED, "the account may take only "
                + remaining + " more seats and admissions of this show", now)) {
            waitlists.remove(show.showId(), List.of(e));
        }
        return Outcome.GONE;
    }

    /** The entry moved on while its offer's hold was made (a concurrent pass settled it): the caller gives the hold back. */
    private static void withdrawing(WaitlistEntry e, String holdId) {
        LOG.info(() -> "waitlist entry " + e.entryId() + " moved on while offer " + holdId + " was made; releasing it");
    }

    private static void take(ShowLayout layout, BitSet free, Map<Integer, int[]> byBlock) {
        byBlock.forEach((block, seats) -> {
            for (int seat : seats) {
                free.clear(layout.offset(block) + seat);
            }
        });
    }

    /** Stops the offer thread and the listener; safe to call again, and after the member stopped. */
    @Override
    public void close() {
        worker.shutdownNow();
        try {
            inventoryMap.removeEntryListener(listener);
            stripeMap.removeEntryListener(stripeListener);
            hz.getUserContext().remove(CONTEXT_KEY, this);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "waitlist listener not removed (the member stopped already)", e);
        }
    }
}
