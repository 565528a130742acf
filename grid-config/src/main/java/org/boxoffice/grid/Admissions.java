package org.boxoffice.grid;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.IMap;
import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.AdmissionRepository;
import org.boxoffice.domain.AdmissionStripe;
import org.boxoffice.domain.Show;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one place that changes general admission: areas sold by count. Each area's capacity is split
 * over stripes ({@link AdmissionStripe}), one grid entry each on its own partition, written through
 * to the referee before memory changes. A claim takes from the stripe the account's hash picks and
 * moves on, stripe by stripe, while it still lacks admissions; all or nothing: if the area as a
 * whole has too few, what it took goes back. Stripes a sale drains unevenly are rebalanced: capacity
 * left in a rich stripe moves to a poor one, in the referee first (one transaction: their sum stays
 * the area's), then both copies are dropped and reload.
 *
 * <p>Thread-safe; every call blocks until the referee has answered. Technical failures (grid or
 * referee unreachable) are {@link InventoryUnavailableException}s; business outcomes are values.
 */
public final class Admissions {

    private static final Logger LOG = Logger.getLogger(Admissions.class.getName());
    /** How long this member trusts its copy of a show's list of areas before it asks the referee again. */
    static final long AREAS_FRESH_MILLIS = 2_000;

    private final HazelcastInstance hz;
    private final IMap<StripeKey, AdmissionStripe> map;
    private final AdmissionRepository repository;
    private final Allowances allowances;
    private final Inventory inventory;
    private final SoldOutMarks soldOut;
    private final LongSupplier clock;
    private final Map<String, Areas> areas = new ConcurrentHashMap<>();
    /** Areas whose sold-out mark this member is counting again before it ends ({@link #knownSoldOut}). */
    private final Set<String> recounting = ConcurrentHashMap.newKeySet();
    /** Areas this member is rebalancing now (one rebalancing per area and member at a time). */
    private final Set<String> rebalancing = ConcurrentHashMap.newKeySet();
    /** By area: the referee's last count of what claims in flight keep, and the stripe versions it saw. */
    private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();
    /** By area: the claims of this member that take across stripes, one at a time ({@link #takeAcross}). */
    private final Map<String, ReentrantLock> takingAcross = new ConcurrentHashMap<>();
    /** By area: one count asked of the referee at a time on this member (the others wait and share it). */
    private final Map<String, ReentrantLock> counting = new ConcurrentHashMap<>();
    private volatile boolean rebalanceInBackground = true;
    /** Takes on a stripe queued while a call on it is in flight go together in the next ({@link #takeHome}). */
    private final ClaimLanes<StripeKey, StripeCommand.Take, Integer> homeTakes = new ClaimLanes<>(this::takesPerCall,
            e -> new InventoryUnavailableException("takes on a stripe failed: " + e, e));

    private record Areas(List<AdmissionArea> list, long readAt) {
    }

    private record InFlight(List<Long> versions, int admissions) {
    }

    /** Takes one call on a stripe carries at most (the referee's write stays small). */
    private static final int MAX_TAKES = 16;

    /** How often {@link #hold(Show, AdmissionArea, Supplier, String, int, long, long)} tries while claims contend. */
    static final int TRIES = 10;

    public Admissions(HazelcastInstance hz, AdmissionRepository repository, Allowances allowances, Inventory inventory,
                      LongSupplier clock) {
        this.hz = hz;
        this.map = hz.getMap(GridMaps.ADMISSIONS);
        this.repository = repository;
        this.allowances = allowances;
        this.inventory = inventory;
        this.soldOut = new SoldOutMarks(hz);
        this.clock = clock;
    }

    /** The outcome of a claim by count. */
    public sealed interface Claim {
        /** Every admission is held, durably, by hold {@code holdId}; {@code parts}: how many each stripe gave. */
        record Held(String holdId, Map<Integer, Integer> parts) implements Claim {
        }

        /** The account may take only {@code remaining} more of this show; nothing was claimed. */
        record OverLimit(int remaining) implements Claim {
        }

        /**
         * The area has only {@code left} admissions, fewer than asked; nothing was claimed. Said only
         * on the referee's count in one snapshot, in which what claims in flight keep counts as left.
         */
        record SoldOut(int left) implements Claim {
        }

        /**
         * Nothing was claimed, though {@code left} admissions, enough, were free or kept by claims in
         * flight that may give them back. Worth another try, under a new hold id.
         */
        record Contended(int left) implements Claim {
        }
    }

    /** A show's areas (this member's copy, at most {@value #AREAS_FRESH_MILLIS} ms old). */
    public List<AdmissionArea> areas(String showId) {
        long now = clock.getAsLong();
        Areas known = areas.get(showId);
        if (known == null || now - known.readAt() > AREAS_FRESH_MILLIS) {
            known = new Areas(List.copyOf(repository.areas(showId)), now);
            areas.put(showId, known);
        }
        return known.list();
    }

    public Optional<AdmissionArea> area(String showId, String name) {
        for (AdmissionArea a : areas(showId)) {
            if (a.name().equals(name)) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    /** Creates an area with its stripes; false if the show has one of that name. */
    public boolean create(AdmissionArea area) {
        boolean created = repository.createArea(area, clock.getAsLong());
        areas.remove(area.showId());
        return created;
    }

    /**
     * Sets an area's capacity, never below what is taken (the referee decides, with every stripe
     * locked); the stripes it changed are dropped from the grid and reload.
     */
    public AdmissionRepository.Resize resize(AdmissionArea area, int capacity) {
        inventory.requireQuorum();
        AdmissionRepository.Resize outcome = repository.resize(area.showId(), area.name(), capacity);
        if (outcome instanceof AdmissionRepository.Resize.Done) {
            for (int s = 0; s < area.stripes(); s++) {
                map.evict(new StripeKey(area.showId(), area.name(), s));
            }
            soldOut.clear(area);
        }
        areas.remove(area.showId());
        return outcome;
    }

    /** Admissions left in an area now: the sum of its stripes' free ones. */
    public int left(Show show, AdmissionArea area) {
        return free(counts(show, area));
    }

    /** The area's stripes' counts now, by stripe: what each has free, its capacity (see {@link StripeCount}). */
    public Map<Integer, StripeCount> counts(Show show, AdmissionArea area) {
        return counts(area, clock.getAsLong(), show.policy().graceMillis());
    }

    /**
     * The area's stripes counted where they live at {@code now}: one read-only operation per stripe
     * that sends back four numbers, where a read of the stripes ships every hold's part twice over
     * (serialized by the owner, copied by the reader).
     */
    private Map<Integer, StripeCount> counts(AdmissionArea area, long now, long grace) {
        try {
            Map<Integer, StripeCount> out = new java.util.TreeMap<>();
            // one call: with an area's few stripes, cheaper in latency than an operation per stripe
            // (a claim across stripes counts twice while it keeps what it took)
            map.executeOnKeys(keys(area), new StripeCountProcessor(now, grace)).forEach((k, v) -> {
                if (v != null) {
                    out.put(k.stripe(), v);
                }
            });
            return out;
        } catch (RuntimeException e) {
            throw new InventoryUnavailableException("area " + area.showId() + "/" + area.name() + " cannot be counted now: "
                    + e.getMessage(), e);
        }
    }

    /** The area's stripes as the grid has them now (loaded from the referee if they are not in memory). */
    public Map<Integer, AdmissionStripe> stripes(AdmissionArea area) {
        Set<StripeKey> keys = keys(area);
        try {
            Map<Integer, AdmissionStripe> out = new java.util.TreeMap<>();
            map.getAll(keys).forEach((k, v) -> out.put(k.stripe(), v));
            return out;
        } catch (RuntimeException e) {
            throw new InventoryUnavailableException("area " + area.showId() + "/" + area.name() + " cannot be read now: "
                    + e.getMessage(), e);
        }
    }

    /**
     * The answer a claim of {@code quantity} admissions would get now, if the area is known to have
     * fewer left ({@link SoldOutMarks}): one read of the area's mark, nothing claimed and nothing
     * given back; empty if a claim must find out. A request that starts after admissions were given
     * back (and the give-back acknowledged) is never refused here on a count from before it.
     *
     * <p>A mark in the second half of its life is counted again, once per area and member, on a
     * virtual thread, while it still answers: otherwise every request arriving between its end and
     * the next claim's count (hundreds, in a crowd) would take the claim's whole path.
     */
    public Optional<Claim.SoldOut> knownSoldOut(Show show, AdmissionArea area, int quantity, long now) {
        SoldOutMark mark;
        try {
            mark = soldOut.read(area);
        } catch (RuntimeException e) {
            return Optional.empty(); // unsure: the claim decides
        }
        if (!mark.fewerThan(quantity, now)) {
            return Optional.empty();
        }
        if (mark.until() - now < SoldOutMarks.TRUST_MILLIS / 2) {
            recountSoon(show, area);
        }
        return Optional.of(new Claim.SoldOut(mark.left()));
    }

    private void recountSoon(Show show, AdmissionArea area) {
        String id = area.showId() + "/" + area.name();
        if (!recounting.add(id)) {
            return;
        }
        Thread.ofVirtual().name("recount-" + id).start(() -> {
            try {
                recount(show, area);
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "counting " + id + " again failed; its mark ends, and the next claim counts", e);
            } finally {
                recounting.remove(id);
            }
        });
    }

    /** Counts what the area has left, as a claim that finds it short does, and marks it. */
    void recount(Show show, AdmissionArea area) {
        SoldOutMark seen = soldOut.read(area);
        long now = clock.getAsLong();
        long grace = show.policy().graceMillis();
        Map<Integer, StripeCount> counts = counts(area, now, grace);
        markLeft(area, seen, counts, free(counts), now, grace);
    }

    /**
     * Holds {@code quantity} admissions of {@code area} for {@code accountId} as {@link #hold(Show, AdmissionArea,
     * String, String, int, long, long)} does, trying again under a new hold id from {@code holdIds} while the
     * answer is {@link Claim.Contended}, after a pause that grows and is drawn at random (so claims that
     * keep meeting on the last admissions stop meeting). Answers {@link Claim.SoldOut} only as that method
     * does.
     *
     * @throws InventoryUnavailableException if the claims still contend after {@value #TRIES} tries:
     *                                       nothing is held, and nothing is known to be sold out
     */
    public Claim hold(Show show, AdmissionArea area, Supplier<String> holdIds, String accountId, int quantity,
                      long expiresAt, long now) {
        Claim claim = null;
        for (int attempt = 0; attempt < TRIES; attempt++) {
            if (attempt > 0) {
                pause(attempt);
            }
            claim = hold(show, area, holdIds.get(), accountId, quantity, expiresAt, now);
            if (!(claim instanceof Claim.Contended)) {
                return claim;
            }
        }
        throw new InventoryUnavailableException("area " + area.showId() + "/" + area.name() + ": claims in flight kept "
                + "its last admissions moving (" + claim + "); nothing was held, try again");
    }

    private static void pause(int attempt) {
        long micros = ThreadLocalRandom.current().nextLong(250L << Math.min(attempt, 7));
        try {
            Thread.sleep(micros / 1_000, (int) (micros % 1_000) * 1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InventoryUnavailableException("interrupted while claims contended", e);
        }
    }

    /**
     * Holds {@code quantity} admissions of {@code area} for hold {@code holdId} of {@code accountId}, all or
     * nothing: the account's allowance first, then the stripes, from the one the account's hash picks
     * on, each giving what it has until the hold has enough. If the stripes together have too few, what
     * was taken goes back and the answer is {@link Claim.SoldOut} (the whole area has fewer left) or
     * {@link Claim.Contended} (it has enough, but other claims held them while this one looked): see
     * {@link #shortOf}.
     */
    public Claim hold(Show show, AdmissionArea area, String holdId, String accountId, int quantity, long expiresAt,
                      long now) {
        inventory.requireQuorum();
        long grace = show.policy().graceMillis();
        int remaining = allowances.reserve(show.showId(), accountId, holdId, quantity, expiresAt, now, grace,
                show.policy().maxPerAccount());
        if (remaining >= 0) {
            return new Claim.OverLimit(remaining);
        }
        int home = Math.floorMod(accountId.hashCode(), area.stripes());
        Map<Integer, Integer> took = new LinkedHashMap<>();
        try {
            // all it needs from the account's own stripe, or nothing: a part of it kept there would keep
            // those admissions from the claims that take across stripes
            if (takeHome(key(area, home), new StripeCommand.Take(holdId, accountId, quantity, quantity, quantity,
                    expiresAt, now, grace)) >= quantity) {
                return new Claim.Held(holdId, Map.of(home, quantity));
            }
            if (area.stripes() > 1 && takeAcross(area, holdId, accountId, quantity, expiresAt, now, grace, took)) {
                rebalanceSoon(show, area); // the account's own stripe ran short
                return new Claim.Held(holdId, took);
            }
        } catch (RuntimeException e) {
            rollBack(area, holdId, took.keySet(), now);
            allowances.release(show.showId(), accountId, holdId);
            throw e;
        }
        rollBack(area, holdId, took.keySet(), now);
        allowances.release(show.showId(), accountId, holdId);
        return shortOf(show, area, quantity);
    }

    /**
     * Takes {@code quantity} admissions from several stripes, each giving what it has, the ones with
     * most free first; true if it has them all (what each gave is in {@code took}), false if the area
     * had too few (what it took is in {@code took}, to go back). Claims of this member take across
     * one area's stripes one at a time: each keeps a part of the last admissions while it looks for
     * the rest, and two that meet can keep what the other needs, give it back, and meet again. A claim
     * that finds its own stripe short waits here; a claim on its own stripe takes all it needs or
     * nothing and never waits. Nothing waits once the stripes have too few.
     */
    private boolean takeAcross(AdmissionArea area, String holdId, String accountId, int quantity, long expiresAt,
                               long now, long grace, Map<Integer, Integer> took) {
        if (free(counts(area, now, grace)) < quantity) {
            return false;
        }
        ReentrantLock lock = takingAcross.computeIfAbsent(area.showId() + "/" + area.name(), k -> new ReentrantLock());
        lock.lock();
        try {
            Map<Integer, StripeCount> counts = counts(area, now, grace);
            if (free(counts) < quantity) {
                return false;
            }
            List<Integer> order = new ArrayList<>();
            for (int s = 0; s < area.stripes(); s++) {
                order.add(s);
            }
            order.sort(java.util.Comparator.comparingInt(
                    (Integer s) -> counts.get(s) == null ? 0 : counts.get(s).free()).reversed());
            int wanted = quantity;
            for (int s : order) {
                if (wanted == 0) {
                    break;
                }
                int got = run(key(area, s), new StripeCommand.Take(holdId, accountId, wanted, quantity, 1, expiresAt, now,
                        grace));
                if (got > 0) {
                    took.put(s, got);
                    wanted -= got;
                }
            }
            return wanted == 0;
        } finally {
            lock.unlock();
        }
    }

    private static int free(Map<Integer, StripeCount> counts) {
        int free = 0;
        for (StripeCount c : counts.values()) {
            free += c.free();
        }
        return free;
    }

    /**
     * The answer to a claim that found too few admissions and gave back what it took. Other claims take
     * from one stripe, find it short and move on, and give back what they took if the area as a whole
     * has too few: while they do, the admissions they keep are in no stripe's free count, and a sum of
     * the stripes says "sold out" while those admissions are about to go back on sale. (A rebalancing,
     * too, moves capacity between two stripes whose copies reload one after the other.) So: if the
     * stripes have enough free, {@link Claim.Contended}. If not, what claims in flight keep counts as
     * left, and only the referee, in one snapshot of every stripe, says how much that is; its count is
     * kept and reused while the grid's stripes are at the versions it saw (after a sell-out, the same
     * versions claim after claim: no trip to the referee). {@link Claim.SoldOut} only if the free
     * admissions and those claims in flight keep are fewer than asked.
     */
    private Claim shortOf(Show show, AdmissionArea area, int quantity) {
        SoldOutMark seen = soldOut.read(area); // before the count: a give-back after this read ends the mark written below
        long now = clock.getAsLong();
        long grace = show.policy().graceMillis();
        Map<Integer, StripeCount> counts = counts(area, now, grace);
        int free = free(counts);
        if (free >= quantity) {
            rebalanceSoon(show, area);
            return new Claim.Contended(free);
        }
        int left = markLeft(area, seen, counts, free, now, grace);
        return left >= quantity ? new Claim.Contended(left) : new Claim.SoldOut(left);
    }

    /**
     * What the area has left ({@link #leftCountingClaimsInFlight}), written as its sold-out mark over
     * {@code seen} (read before {@code counts} were counted) until the first lapse they saw coming.
     */
    private int markLeft(AdmissionArea area, SoldOutMark seen, Map<Integer, StripeCount> counts, int free, long now,
                         long grace) {
        int left = leftCountingClaimsInFlight(area, counts, free, now, grace);
        long firstLapse = Long.MAX_VALUE;
        for (StripeCount c : counts.values()) {
            firstLapse = Math.min(firstLapse, c.firstLapse());
        }
        soldOut.mark(area, seen, left, firstLapse, now);
        return left;
    }

    /**
     * {@code free} (the grid's stripes, counted in {@code counts}) plus what claims in flight keep, by the
     * referee's count if it saw the stripes at their versions now; otherwise the referee's count of both, now.
     */
    private int leftCountingClaimsInFlight(AdmissionArea area, Map<Integer, StripeCount> counts, int free, long now,
                                           long grace) {
        List<Long> versions = new ArrayList<>(area.stripes());
        for (int s = 0; s < area.stripes(); s++) {
            StripeCount stripe = counts.get(s);
            versions.add(stripe == null ? -1 : stripe.version());
        }
        String id = area.showId() + "/" + area.name();
        InFlight known = inFlight.get(id);
        if (known != null && known.versions().equals(versions)) {
            return free + known.admissions();
        }
        ReentrantLock lock = counting.computeIfAbsent(id, k -> new ReentrantLock());
        lock.lock();
        try {
            known = inFlight.get(id);
            if (known != null && known.versions().equals(versions)) {
                return free + known.admissions();
            }
            AdmissionRepository.Remaining counted = repository.remaining(area.showId(), area.name(), now, grace);
            inFlight.put(id, new InFlight(counted.versions(), counted.inFlight()));
            return counted.left();
        } catch (RuntimeException e) {
            throw new InventoryUnavailableException("area " + id + " cannot be counted now: " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    private void rollBack(AdmissionArea area, String holdId, Set<Integer> stripes, long now) {
        for (int s : stripes) {
            try {
                run(new StripeKey(area.showId(), area.name(), s), new StripeCommand.Release(holdId, now));
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "could not roll back stripe " + s + " of hold " + holdId
                        + "; its admissions return to sale when the hold expires", e);
            }
        }
    }

    /**
     * Gives back what hold {@code holdId} of {@code accountId} holds in {@code area}, on every stripe,
     * and its allowance. Returns how many admissions went back.
     */
    public int release(Show show, AdmissionArea area, String holdId, String accountId, long now) {
        inventory.requireQuorum();
        int released = 0;
        for (StripeKey key : keys(area)) {
            released += Math.max(0, run(key, new StripeCommand.Release(holdId, now)));
        }
        allowances.release(show.showId(), accountId, holdId);
        return released;
    }

    /**
     * Extends hold {@code holdId}'s parts to {@code expiresAt} on every stripe it holds (its payment
     * started), and its allowance. If any part has lapsed, nothing more is extended, the hold is
     * released everywhere and false is returned, as {@link Seats#extend} does for seats; false too
     * if the hold holds nothing any more.
     */
    public boolean extend(Show show, AdmissionArea area, String holdId, String accountId, long expiresAt, long now) {
        inventory.requireQuorum();
        long grace = show.policy().graceMillis();
        boolean held = false;
        for (AdmissionRepository.HoldPart part : repository.parts(holdId)) {
            if (part.status() != AdmissionRepository.PartStatus.ACTIVE) {
                continue;
            }
            if (run(key(area, part.stripe()), new StripeCommand.Extend(holdId, expiresAt, now, grace)) <= 0) {
                release(show, area, holdId, accountId, now);
                return false;
            }
            held = true;
        }
        if (held) {
            allowances.extend(show.showId(), accountId, holdId, expiresAt);
        }
        return held;
    }

    /** How confirming a hold's admissions ended. */
    public enum Confirmation {
        /** Every part of the hold is sold (now, or by an earlier run of the same settlement). */
        SOLD,
        /** A part had lapsed: the money came too late for it. */
        LAPSED,
        /** The hold holds fewer admissions than it was for (it was released, or never fully held). */
        MISSING
    }

    /**
     * Sells every part of hold {@code holdId} of {@code quantity} admissions, stripe by stripe;
     * parts the referee has sold already (a settlement re-driven after a crash) count as sold. Stops
     * at the first part that cannot be sold; what was sold stays sold (the caller gives it back with
     * {@link #giveBack} if the sale is refused).
     */
    public Confirmation confirm(Show show, AdmissionArea area, String holdId, int quantity, long now) {
        inventory.requireQuorum();
        long grace = show.policy().graceMillis();
        int sold = 0;
        for (AdmissionRepository.HoldPart part : repository.parts(holdId)) {
            switch (part.status()) {
                case SOLD -> sold += part.quantity();
                case ENDED -> {
                }
                case ACTIVE -> {
                    int got = run(key(area, part.stripe()), new StripeCommand.Confirm(holdId, now, grace));
                    if (got <= 0) {
                        return Confirmation.LAPSED;
                    }
                    sold += got;
                }
            }
        }
        return sold == quantity ? Confirmation.SOLD : Confirmation.MISSING;
    }

    /** A confirmed sale of admissions: the hold's allowance counts as bought. */
    public void sold(Show show, String accountId, String holdId) {
        allowances.confirm(show.showId(), accountId, holdId);
    }

    /**
     * Puts back on sale the admissions sold to hold {@code holdId} (a cancelled booking once refunded,
     * or a refused sale), stripe by stripe. The referee decides each part once, however many callers
     * race: a part it no longer counts as sold is refused. With {@code accountId}, the account's
     * allowance gives back what this call returned. Returns how many admissions this call gave back.
     */
    public int giveBack(Show show, AdmissionArea area, String holdId, String accountId, long now) {
        inventory.requireQuorum();
        int returned = 0;
        for (AdmissionRepository.HoldPart part : repository.parts(holdId)) {
            if (part.status() == AdmissionRepository.PartStatus.SOLD) {
                returned += Math.max(0, run(key(area, part.stripe()),
                        new StripeCommand.GiveBack(holdId, part.quantity(), now)));
            }
        }
        if (returned > 0 && accountId != null) {
            allowances.cancelSale(show.showId(), accountId, returned);
        }
        return returned;
    }

    private static StripeKey key(AdmissionArea area, int stripe) {
        return new StripeKey(area.showId(), area.name(), stripe);
    }

    /**
     * Ends the lapsed holds' parts of one stripe. With {@code reloadIfUnchanged} (the referee says
     * the stripe still counts a lapsed hold), a copy that finds nothing to end is dropped, reloaded
     * and asked again. Returns how many holds' parts ended.
     */
    public int expire(Show show, StripeKey key, long now, boolean reloadIfUnchanged) {
        StripeCommand.Expire command = new StripeCommand.Expire(now, show.policy().graceMillis());
        int ended = run(key, command);
        if (ended <= 0 && reloadIfUnchanged) {
            LOG.warning(() -> "grid and referee disagree on " + key + ": reloading it from the referee");
            map.evict(key);
            soldOut.clear(key.showId(), key.area());
            ended = run(key, command);
        }
        return Math.max(0, ended);
    }

    /**
     * Ends lapsed holds' parts in the stripes this member owns and has in memory (the sweeper's
     * work; a claim ends them too, lazily). Asks each stripe for its earliest expiry where it lives
     * ({@link StripeExpiryProcessor}), never reads the stripes whole. Returns how many stripes changed.
     */
    public int sweepOnce(Function<String, Optional<Show>> shows) {
        long now = clock.getAsLong();
        int changed = 0;
        Set<StripeKey> local = map.localKeySet();
        if (local.isEmpty()) {
            return 0;
        }
        for (Map.Entry<StripeKey, Long> e : onEach(local, new StripeExpiryProcessor()).entrySet()) {
            if (e.getValue() == Long.MAX_VALUE) {
                continue;
            }
            Optional<Show> show = shows.apply(e.getKey().showId());
            if (show.isEmpty() || !org.boxoffice.domain.HoldPolicy.lapsed(e.getValue(), show.get().policy().graceMillis(), now)) {
                continue;
            }
            if (expire(show.get(), e.getKey(), now, false) > 0) {
                changed++;
            }
        }
        return changed;
    }

    /**
     * Ends lapsed holds' parts in the stripes the referee says still count them (before
     * {@code lapsedBefore}) and that this member owns: the grid may have lost or never loaded them.
     */
    public int reconcileOnce(Function<String, Optional<Show>> shows, long lapsedBefore) {
        long now = clock.getAsLong();
        int fixed = 0;
        for (AdmissionRepository.StripeId id : repository.stripesWithHoldsLapsedBefore(lapsedBefore)) {
            Optional<Show> show = shows.apply(id.showId());
            StripeKey key = new StripeKey(id.showId(), id.area(), id.stripe());
            com.hazelcast.cluster.Member owner = hz.getPartitionService().getPartition(key).getOwner();
            if (show.isEmpty() || owner == null || !owner.localMember()) {
                continue;
            }
            expire(show.get(), key, now, true);
            fixed++;
        }
        return fixed;
    }

    /** Rebalances on this thread instead of a background one (tests that count what moved). */
    public Admissions rebalanceInline() {
        this.rebalanceInBackground = false;
        return this;
    }

    private void rebalanceSoon(Show show, AdmissionArea area) {
        String id = area.showId() + "/" + area.name();
        if (!rebalancing.add(id)) {
            return;
        }
        Runnable task = () -> {
            try {
                rebalance(show, area);
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "rebalancing " + id + " failed; the next claim that runs short tries again", e);
            } finally {
                rebalancing.remove(id);
            }
        };
        if (rebalanceInBackground) {
            Thread.ofVirtual().name("rebalance-" + id).start(task);
        } else {
            task.run();
        }
    }

    /**
     * Evens out what the area's stripes have left: each stripe with less than half of the average
     * gets capacity from the richest ones, up to the average. The referee moves it (their sum stays the
     * area's capacity, and no stripe gives away what it has taken); the two copies are then dropped
     * and reload. Returns how many admissions of capacity moved.
     */
    public int rebalance(Show show, AdmissionArea area) {
        Map<Integer, StripeCount> stripes = counts(show, area);
        int n = stripes.size();
        if (n < 2) {
            return 0;
        }
        int[] free = new int[area.stripes()];
        int total = 0;
        for (Map.Entry<Integer, StripeCount> e : stripes.entrySet()) {
            free[e.getKey()] = e.getValue().free();
            total += free[e.getKey()];
        }
        int average = total / n;
        int moved = 0;
        List<Integer> poor = new ArrayList<>();
        for (int s : stripes.keySet()) {
            if (free[s] * 2 < average || (free[s] == 0 && total > 0)) {
                poor.add(s);
            }
        }
        for (int to : poor) {
            int need = Math.max(1, average) - free[to];
            while (need > 0) {
                int from = richest(free, to);
                int spare = from < 0 ? 0 : free[from] - Math.max(1, average);
                if (spare <= 0) {
                    return moved;
                }
                int got = repository.move(area.showId(), area.name(), from, to, Math.min(need, spare));
                map.evict(new StripeKey(area.showId(), area.name(), from));
                map.evict(new StripeKey(area.showId(), area.name(), to));
                soldOut.clear(area);
                if (got <= 0) {
                    return moved;
                }
                free[from] -= got;
                free[to] += got;
                need -= got;
                moved += got;
            }
        }
        return moved;
    }

    private static int richest(int[] free, int except) {
        int best = -1;
        for (int s = 0; s < free.length; s++) {
            if (s != except && (best < 0 || free[s] > free[best])) {
                best = s;
            }
        }
        return best;
    }

    /**
     * Runs a read-only {@code processor} on each stripe of {@code keys}, one operation per stripe, all
     * in flight together; the answers by stripe (a null answer is left out). Not {@code executeOnKeys}:
     * it sends every key to every partition that owns one of them, and each partition's operation
     * looks up every key (n stripes, n partitions: n² look-ups): for the sweeper's call over every
     * stripe of every area a member owns, hundreds of stripes, twice a second.
     */
    private <R> Map<StripeKey, R> onEach(Collection<StripeKey> keys, EntryProcessor<StripeKey, AdmissionStripe, R> processor) {
        Map<StripeKey, java.util.concurrent.CompletableFuture<R>> pending = new java.util.HashMap<>();
        for (StripeKey key : keys) {
            pending.put(key, map.submitToKey(key, processor).toCompletableFuture());
        }
        Map<StripeKey, R> out = new java.util.HashMap<>();
        for (Map.Entry<StripeKey, java.util.concurrent.CompletableFuture<R>> e : pending.entrySet()) {
            R answer;
            try {
                answer = e.getValue().join();
            } catch (java.util.concurrent.CompletionException failed) {
                throw failed.getCause() instanceof RuntimeException r ? r : failed;
            }
            if (answer != null) {
                out.put(e.getKey(), answer);
            }
        }
        return out;
    }

    private static Set<StripeKey> keys(AdmissionArea area) {
        Set<StripeKey> keys = new HashSet<>();
        for (int s = 0; s < area.stripes(); s++) {
            keys.add(new StripeKey(area.showId(), area.name(), s));
        }
        return keys;
    }

    /**
     * Runs one command on one stripe. If the referee refuses it (the copy is stale, or the change
     * would take the stripe beyond its capacity), drops the copy (it reloads from the referee) and
     * asks once more; refused again, drops it again and answers 0: nothing moved.
     */
    /**
     * A take, all or nothing, from the stripe the account's hash picks: most claims are these. A
     * stripe decides one change at a time, each waiting for its write to the referee, so under an
     * on-sale's rush the takes on a stripe would queue behind one another, each for a whole round
     * trip, and an area would sell at most its stripes' number of holds per round trip. So this
     * member sends one call per stripe at a time: takes that arrive while it is in flight wait
     * together, and the next call carries all of them ({@link StripeTakesProcessor}: decided in
     * arrival order, stored in one write), as claims on a seat block go ({@link ClaimLanes}).
     */
    private int takeHome(StripeKey key, StripeCommand.Take take) {
        return homeTakes.claim(key, take, this::runTakes);
    }

    /**
     * How many takes one call on a stripe may carry: {@value #MAX_TAKES}, or one while a member of
     * the release before {@link StripeTakesProcessor} is in the cluster (a rolling upgrade): it could
     * not read a call with several, and its stripes would refuse every such claim.
     */
    private int takesPerCall() {
        return GridFeatures.everyMember(hz.getCluster(), GridFeatures.STRIPE_TAKES) ? MAX_TAKES : 1;
    }

    /** One call on the stripe for {@code takes}: what each took, in order. */
    private List<Integer> runTakes(StripeKey key, List<StripeCommand.Take> takes) {
        if (takes.size() == 1) {
            return List.of(run(key, takes.get(0)));
        }
        return decide(key, new StripeTakesProcessor(takes), new ArrayList<>(java.util.Collections.nCopies(takes.size(), 0)));
    }

    private int run(StripeKey key, StripeCommand command) {
        int moved = decide(key, new StripeProcessor(command), 0);
        if (moved > 0 && command.givesBack()) {
            soldOut.clear(key.showId(), key.area()); // before the caller hears that they are back
        }
        return moved;
    }

    /**
     * {@code processor}'s answer from the stripe. If the referee refuses the change (the grid's copy
     * is stale), the copy is dropped and reloads, and the processor runs once more; refused again,
     * the answer is {@code ifStillRefused} (nothing moved).
     */
    private <R> R decide(StripeKey key, com.hazelcast.map.EntryProcessor<StripeKey, AdmissionStripe, R> processor,
                         R ifStillRefused) {
        inventory.requireQuorum(); // as for seats: below its quorum a member changes nothing
        try {
            return map.executeOnKey(key, processor);
        } catch (RuntimeException first) {
            if (!Inventory.isStale(first)) {
                throw unavailable(key, first);
            }
            LOG.info(() -> "referee refused a change of " + key + ": reloading the stripe");
            map.evict(key);
            soldOut.clear(key.showId(), key.area()); // the referee's copy may have more free than the one dropped
            try {
                return map.executeOnKey(key, processor);
            } catch (RuntimeException second) {
                if (Inventory.isStale(second)) {
                    map.evict(key);
                    soldOut.clear(key.showId(), key.area());
                    return ifStillRefused;
                }
                throw unavailable(key, second);
            }
        }
    }

    private static InventoryUnavailableException unavailable(StripeKey key, RuntimeException e) {
        if (e instanceof InventoryUnavailableException u) {
            return u;
        }
        return new InventoryUnavailableException("stripe " + key + " cannot be written now: " + e.getMessage(), e);
    }
}
