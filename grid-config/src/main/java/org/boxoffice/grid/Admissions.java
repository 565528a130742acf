package org.boxoffice.grid;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.AdmissionRepository;
import org.boxoffice.domain.AdmissionStripe;
import org.boxoffice.domain.Show;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;
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
    private final LongSupplier clock;
    private final Map<String, Areas> areas = new ConcurrentHashMap<>();
    /** Areas this member is rebalancing now (one rebalancing per area and member at a time). */
    private final Set<String> rebalancing = ConcurrentHashMap.newKeySet();
    private volatile boolean rebalanceInBackground = true;

    private record Areas(List<AdmissionArea> list, long readAt) {
    }

    public Admissions(HazelcastInstance hz, AdmissionRepository repository, Allowances allowances, Inventory inventory,
                      LongSupplier clock) {
        this.hz = hz;
        this.map = hz.getMap(GridMaps.ADMISSIONS);
        this.repository = repository;
        this.allowances = allowances;
        this.inventory = inventory;
        this.clock = clock;
    }

    /** The outcome of a claim by count. */
    public sealed interface Claim {
        /** Every admission is held, durably; {@code parts}: how many each stripe gave. */
        record Held(Map<Integer, Integer> parts) implements Claim {
        }

        /** The account may take only {@code remaining} more of this show; nothing was claimed. */
        record OverLimit(int remaining) implements Claim {
        }

        /** The area has only {@code left} admissions, fewer than asked; nothing was claimed. */
        record SoldOut(int left) implements Claim {
        }

        /**
         * Nothing was claimed, though the area had enough left when counted after the attempt:
         * claims in flight took them meanwhile, or return them. Worth another try, under a new hold id.
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
        }
        areas.remove(area.showId());
        return outcome;
    }

    /** Admissions left in an area now: the sum of its stripes' free ones. */
    public int left(Show show, AdmissionArea area) {
        long now = clock.getAsLong();
        int left = 0;
        for (AdmissionStripe s : stripes(area).values()) {
            left += s.free(now, show.policy().graceMillis());
        }
        return left;
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
     * Holds {@code quantity} admissions of {@code area} for hold {@code holdId} of {@code accountId}, all or
     * nothing: the account's allowance first, then the stripes, from the one the account's hash picks
     * on, each giving what it has until the hold has enough. If the stripes together have too few, what
     * was taken goes back and the answer is {@link Claim.SoldOut} (the whole area has fewer left) or
     * {@link Claim.Contended} (it has enough, but other claims held them while this one looked).
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
        Map<Integer, Integer> took = new LinkedHashMap<>();
        try {
            int n = area.stripes();
            int home = Math.floorMod(accountId.hashCode(), n);
            int wanted = quantity;
            for (int i = 0; i < n && wanted > 0; i++) {
                int s = (home + i) % n;
                int got = run(new StripeKey(area.showId(), area.name(), s),
                        new StripeCommand.Take(holdId, accountId, wanted, quantity, expiresAt, now, grace));
                if (got > 0) {
                    took.put(s, got);
                    wanted -= got;
                }
            }
            if (wanted == 0) {
                if (took.size() > 1 || !took.containsKey(home)) {
                    rebalanceSoon(show, area); // the account's own stripe ran short
                }
                return new Claim.Held(took);
            }
        } catch (RuntimeException e) {
            rollBack(area, holdId, took.keySet(), now);
            allowances.release(show.showId(), accountId, holdId);
            throw e;
        }
        rollBack(area, holdId, took.keySet(), now);
        allowances.release(show.showId(), accountId, holdId);
        int left = left(show, area);
        if (left >= quantity) {
            rebalanceSoon(show, area);
            return new Claim.Contended(left);
        }
        return new Claim.SoldOut(left);
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
            ended = run(key, command);
        }
        return Math.max(0, ended);
    }

    /**
     * Ends lapsed holds' parts in the stripes this member owns and has in memory (the sweeper's
     * work; a claim ends them too, lazily). Returns how many stripes changed.
     */
    public int sweepOnce(Function<String, Optional<Show>> shows) {
        long now = clock.getAsLong();
        int changed = 0;
        Set<StripeKey> local = map.localKeySet();
        if (local.isEmpty()) {
            return 0;
        }
        for (Map.Entry<StripeKey, AdmissionStripe> e : map.getAll(local).entrySet()) {
            Optional<Show> show = shows.apply(e.getKey().showId());
            if (show.isEmpty() || e.getValue().expire(now, show.get().policy().graceMillis()) == null) {
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
        long now = clock.getAsLong();
        long grace = show.policy().graceMillis();
        Map<Integer, AdmissionStripe> stripes = stripes(area);
        int n = stripes.size();
        if (n < 2) {
            return 0;
        }
        int[] free = new int[area.stripes()];
        int total = 0;
        for (Map.Entry<Integer, AdmissionStripe> e : stripes.entrySet()) {
            free[e.getKey()] = e.getValue().free(now, grace);
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
    private int run(StripeKey key, StripeCommand command) {
        inventory.requireQuorum(); // as for seats: below its quorum a member changes nothing
        StripeProcessor processor = new StripeProcessor(command);
        try {
            return map.executeOnKey(key, processor);
        } catch (RuntimeException first) {
            if (!Inventory.isStale(first)) {
                throw unavailable(key, first);
            }
            LOG.info(() -> "referee refused a change of " + key + ": reloading the stripe");
            map.evict(key);
            try {
                return map.executeOnKey(key, processor);
            } catch (RuntimeException second) {
                if (Inventory.isStale(second)) {
                    map.evict(key);
                    return 0;
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
