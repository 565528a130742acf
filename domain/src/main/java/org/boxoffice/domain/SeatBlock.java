package org.boxoffice.domain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One block of a show's inventory (a run of rows in one section): the unit the grid stores as one
 * map entry and the unit one write-through store applies to PostgreSQL.
 *
 * <p>Immutable. Every transition returns a new block carrying the {@link Transition} that produced
 * it; nothing is ever changed in place (Hazelcast hands an entry processor the live stored object,
 * and a failed store must leave it untouched). Methods take {@code now} as a parameter and never
 * read a clock, so a backup replica re-running the same call reaches the same value.
 *
 * <p>Layout for memory: a status byte, a version int and a reference long per seat. For a HELD
 * seat the reference is the index of its hold in {@link #holds()}; for a SOLD seat it is the
 * booking id. A 60,000-seat show costs about 13 bytes per seat plus its active holds.
 */
public final class SeatBlock {

    private static final SeatState.Status[] STATUSES = SeatState.Status.values();

    private final String showId;
    private final int blockId;
    private final long revision;
    private final byte[] statuses;
    private final int[] versions;
    private final long[] refs;
    private final List<HoldSlot> holds;
    private final Transition transition;
    /** Transitions decided together with {@link #transition} in one combined change, oldest first, stored with it. */
    private final List<Transition> earlier;

    /** An active hold with at least one seat in this block. */
    public record HoldSlot(String holdId, String accountId, long expiresAt) {
        public HoldSlot {
            Objects.requireNonNull(holdId);
            Objects.requireNonNull(accountId);
        }
    }

    /**
     * @param revision   counts the changes of this block since it was created (loaded blocks
     *                   start from the sum of their seat versions, so it only ever grows)
     * @param transition the change that produced this value, or null for a loaded value
     */
    public SeatBlock(String showId, int blockId, long revision, byte[] statuses, int[] versions,
                     long[] refs, List<HoldSlot> holds, Transition transition) {
        this(showId, blockId, revision, statuses, versions, refs, holds, List.of(), transition);
    }

    /**
     * @param earlier transitions decided before {@code transition} in the same combined change (see
     *                {@link #after}), oldest first; empty unless {@code transition} is set
     */
    public SeatBlock(String showId, int blockId, long revision, byte[] statuses, int[] versions,
                     long[] refs, List<HoldSlot> holds, List<Transition> earlier, Transition transition) {
        if (transition == null && !earlier.isEmpty()) {
            throw new IllegalArgumentException("earlier transitions without a last one");
        }
        this.earlier = List.copyOf(earlier);
        this.showId = Objects.requireNonNull(showId);
        this.blockId = blockId;
        this.revision = revision;
        if (statuses.length != versions.length || statuses.length != refs.length) {
            throw new IllegalArgumentException("per-seat arrays differ in length");
        }
        this.statuses = statuses;
        this.versions = versions;
        this.refs = refs;
        this.holds = List.copyOf(holds);
        this.transition = transition;
    }

    /** A block whose seats are all available at version 0. */
    public static SeatBlock fresh(String showId, int blockId, int seatCount) {
        return new SeatBlock(showId, blockId, 0, new byte[seatCount], new int[seatCount],
                new long[seatCount], List.of(), null);
    }

    /** Rebuilds a block from stored seat rows; {@code holdIds[i]} must match a slot for HELD seats. */
    public static SeatBlock restore(String showId, int blockId, SeatState[] seats, int[] versions) {
        int n = seats.length;
        byte[] statuses = new byte[n];
        long[] refs = new long[n];
        List<HoldSlot> slots = new ArrayList<>();
        long revision = 0;
        for (int i = 0; i < n; i++) {
            revision += versions[i];
            SeatState s = seats[i];
            statuses[i] = (byte) s.status().ordinal();
            if (s instanceof SeatState.Held h) {
                refs[i] = slotOf(slots, new HoldSlot(h.holdId(), h.accountId(), h.expiresAt()));
            } else if (s instanceof SeatState.Sold sold) {
                refs[i] = sold.bookingId();
            }
        }
        return new SeatBlock(showId, blockId, revision, statuses, versions.clone(), refs, slots, null);
    }

    private static int slotOf(List<HoldSlot> slots, HoldSlot slot) {
        for (int j = 0; j < slots.size(); j++) {
            if (slots.get(j).holdId().equals(slot.holdId())) {
                return j;
            }
        }
        slots.add(slot);
        return slots.size() - 1;
    }

    public String showId() {
        return showId;
    }

    public int blockId() {
        return blockId;
    }

    public long revision() {
        return revision;
    }

    public int size() {
        return statuses.length;
    }

    public List<HoldSlot> holds() {
        return holds;
    }

    /** The change that produced this value; null when the value was loaded, not changed. */
    public Transition transition() {
        return transition;
    }

    /**
     * Every transition the write-through store must apply for this value, oldest first: those
     * decided before {@link #transition()} in the same combined change, then it. Empty for a
     * loaded value.
     */
    public List<Transition> transitions() {
        if (transition == null) {
            return List.of();
        }
        if (earlier.isEmpty()) {
            return List.of(transition);
        }
        List<Transition> all = new ArrayList<>(earlier);
        all.add(transition);
        return List.copyOf(all);
    }

    /**
     * This value, carrying also the transitions of {@code before}: for changes decided one after
     * another on one block and stored together (a member's claims on one block, combined). {@code
     * before} must be the value this one was decided on, itself not yet stored.
     */
    public SeatBlock after(SeatBlock before) {
        if (!before.showId.equals(showId) || before.blockId != blockId || transition == null) {
            throw new IllegalArgumentException("not a change of the same block: " + before + " then " + this);
        }
        List<Transition> all = new ArrayList<>(before.transitions());
        all.addAll(earlier);
        return new SeatBlock(showId, blockId, revision, statuses, versions, refs, holds, all, transition);
    }

    public int version(int seat) {
        return versions[seat];
    }

    public SeatState.Status status(int seat) {
        return STATUSES[statuses[seat]];
    }

    /** Raw arrays for serializers; callers must not modify them. */
    public byte[] statusBytes() {
        return statuses;
    }

    public int[] versionArray() {
        return versions;
    }

    public long[] refArray() {
        return refs;
    }

    /** The typed state of one seat. */
    public SeatState state(int seat) {
        return switch (STATUSES[statuses[seat]]) {
            case AVAILABLE -> new SeatState.Available();
            case HELD -> {
                HoldSlot slot = holds.get((int) refs[seat]);
                yield new SeatState.Held(slot.holdId(), slot.accountId(), slot.expiresAt());
            }
            case SOLD -> new SeatState.Sold(refs[seat]);
            case BLOCKED -> new SeatState.Blocked();
        };
    }

    /**
     * The status a client should see at {@code now}: a lapsed hold shows as AVAILABLE even before
     * the sweeper has released it.
     */
    public SeatState.Status effectiveStatus(int seat, long now, long graceMillis) {
        byte s = statuses[seat];
        if (s == SeatState.Status.HELD.ordinal()
                && HoldPolicy.lapsed(holds.get((int) refs[seat]).expiresAt(), graceMillis, now)) {
            return SeatState.Status.AVAILABLE;
        }
        return STATUSES[s];
    }

    /** The earliest expiry among this block's holds, or {@link Long#MAX_VALUE}; used by the sweeper. */
    public long nextExpiry() {
        long min = Long.MAX_VALUE;
        for (HoldSlot h : holds) {
            min = Math.min(min, h.expiresAt());
        }
        return min;
    }

    /**
     * The first moment after {@code now} at which one of this block's holds lapses
     * ({@code expiresAt + graceMillis}), or {@link Long#MAX_VALUE} if none will: until then
     * {@link #effectiveStatus} answers the same for every seat, so a reader can reuse what it
     * computed at {@code now}.
     */
    public long nextLapseAfter(long now, long graceMillis) {
        long min = Long.MAX_VALUE;
        for (HoldSlot h : holds) {
            long lapse = HoldPolicy.lapsesAt(h.expiresAt(), graceMillis);
            if (lapse > now && lapse < min) {
                min = lapse;
            }
        }
        return min;
    }

    /** The seats (indexes) held by {@code holdId}, ascending. */
    public int[] seatsOf(String holdId) {
        int slot = slotIndex(holdId);
        if (slot < 0) {
            return new int[0];
        }
        return seatsWhere(i -> statuses[i] == SeatState.Status.HELD.ordinal() && refs[i] == slot);
    }

    /** The seats (indexes) sold to {@code bookingId}, ascending. */
    public int[] seatsSoldTo(long bookingId) {
        return seatsWhere(i -> statuses[i] == SeatState.Status.SOLD.ordinal() && refs[i] == bookingId);
    }

    private int[] seatsWhere(java.util.function.IntPredicate p) {
        return java.util.stream.IntStream.range(0, statuses.length).filter(p).toArray();
    }

    private int slotIndex(String holdId) {
        for (int j = 0; j < holds.size(); j++) {
            if (holds.get(j).holdId().equals(holdId)) {
                return j;
            }
        }
        return -1;
    }

    // ---------------------------------------------------------------- transitions

    /**
     * Holds {@code seats} for {@code holdId}, all or nothing. Every seat must be available or held
     * by a lapsed hold. If the same hold already holds exactly these seats (a retry of a claim that
     * was applied), the answer is {@link BlockDecision.Unchanged}.
     *
     * @param holdSeatIds every seat id of the whole hold, recorded on the hold row
     */
    public BlockDecision hold(String holdId, String accountId, int[] seats, long expiresAt,
                              long now, long graceMillis, String[] holdSeatIds) {
        int[] sorted = sortedDistinct(seats);
        if (sorted == null) {
            return new BlockDecision.Rejected(Rejection.UNKNOWN_SEAT, seats.clone());
        }
        int existing = slotIndex(holdId);
        if (existing >= 0 && Arrays.equals(seatsOf(holdId), sorted)) {
            return new BlockDecision.Unchanged();
        }
        int[] taken = Arrays.stream(sorted).filter(i -> !state(i).claimable(now, graceMillis)).toArray();
        if (taken.length > 0) {
            return new BlockDecision.Rejected(Rejection.SEATS_UNAVAILABLE, taken);
        }
        SeatState.Held target = new SeatState.Available().hold(holdId, accountId, expiresAt);
        List<HoldSlot> slots = new ArrayList<>(holds);
        slots.add(new HoldSlot(holdId, accountId, expiresAt));
        return apply(new Change(Transition.Kind.HOLD, now, accountId, "hold", sorted, target)
                .of(new Owner(holdId, accountId, 0, holdSeatIds)).withSlots(slots, slots.size() - 1));
    }

    /** Returns the seats of {@code holdId} to sale. Nothing to do if the hold holds no seat here. */
    public BlockDecision release(String holdId, long now, String actor, String reason) {
        int[] seats = seatsOf(holdId);
        if (seats.length == 0) {
            return new BlockDecision.Unchanged();
        }
        return apply(new Change(Transition.Kind.RELEASE, now, actor, reason, seats, new SeatState.Available()));
    }

    /** Returns every seat whose hold lapsed ({@code expiresAt + grace <= now}) to sale. */
    public BlockDecision expire(long now, long graceMillis) {
        int[] seats = seatsWhere(i -> statuses[i] == SeatState.Status.HELD.ordinal()
                && HoldPolicy.lapsed(holds.get((int) refs[i]).expiresAt(), graceMillis, now));
        if (seats.length == 0) {
            return new BlockDecision.Unchanged();
        }
        return apply(new Change(Transition.Kind.EXPIRE, now, "system:sweeper", "expired", seats, new SeatState.Available()));
    }

    /**
     * Moves {@code holdId}'s seats here to a new expiry, only while the hold is active. Used once
     * when a payment starts so a slow payer keeps the seats while money may be moving.
     */
    public BlockDecision extend(String holdId, long newExpiresAt, long now, long graceMillis) {
        int slot = slotIndex(holdId);
        if (slot < 0) {
            return new BlockDecision.Rejected(Rejection.HOLD_NOT_FOUND, new int[0]);
        }
        HoldSlot current = holds.get(slot);
        if (HoldPolicy.lapsed(current.expiresAt(), graceMillis, now)) {
            return new BlockDecision.Rejected(Rejection.HOLD_EXPIRED, seatsOf(holdId));
        }
        if (current.expiresAt() >= newExpiresAt) {
            return new BlockDecision.Unchanged();
        }
        List<HoldSlot> slots = new ArrayList<>(holds);
        slots.set(slot, new HoldSlot(holdId, current.accountId(), newExpiresAt));
        SeatState.Held target = new SeatState.Held(holdId, current.accountId(), current.expiresAt())
                .extendTo(newExpiresAt);
        return apply(new Change(Transition.Kind.EXTEND, now, current.accountId(), "payment started", seatsOf(holdId), target)
                .of(new Owner(holdId, current.accountId(), 0, NO_IDS)).withSlots(slots, slot));
    }

    /**
     * Sells the seats of {@code holdId} to {@code bookingId}: only the matching hold, only while it
     * has not lapsed. A retry for the same booking is {@link BlockDecision.Unchanged}.
     *
     * @param seats the seats (indexes) the hold must hold here; a hold that lost any is rejected
     */
    public BlockDecision confirm(String holdId, int[] seats, long bookingId, long now, long graceMillis) {
        int[] sorted = sortedDistinct(seats);
        if (sorted == null) {
            return new BlockDecision.Rejected(Rejection.UNKNOWN_SEAT, seats.clone());
        }
        if (Arrays.equals(seatsSoldTo(bookingId), sorted) && sorted.length > 0) {
            return new BlockDecision.Unchanged();
        }
        int slot = slotIndex(holdId);
        if (slot < 0 || !Arrays.equals(seatsOf(holdId), sorted)) {
            return new BlockDecision.Rejected(Rejection.HOLD_NOT_FOUND, sorted);
        }
        HoldSlot h = holds.get(slot);
        if (HoldPolicy.lapsed(h.expiresAt(), graceMillis, now)) {
            return new BlockDecision.Rejected(Rejection.HOLD_EXPIRED, sorted);
        }
        SeatState.Sold target = new SeatState.Held(holdId, h.accountId(), h.expiresAt()).confirm(bookingId);
        return apply(new Change(Transition.Kind.CONFIRM, now, h.accountId(), "payment captured", sorted, target)
                .of(new Owner(holdId, h.accountId(), bookingId, NO_IDS)));
    }

    /** Returns the seats sold to {@code bookingId} to sale (after the refund). */
    public BlockDecision cancel(long bookingId, long now, String actor, String reason) {
        int[] seats = seatsSoldTo(bookingId);
        if (seats.length == 0) {
            return new BlockDecision.Unchanged();
        }
        return apply(new Change(Transition.Kind.CANCEL, now, actor, reason, seats, new SeatState.Sold(bookingId).cancel())
                .of(new Owner(null, null, bookingId, NO_IDS)));
    }

    /** Takes seats off sale (admin). Sold seats cannot be blocked; held ones can (the hold loses them). */
    public BlockDecision block(int[] seats, long now, String actor, String reason) {
        int[] sorted = sortedDistinct(seats);
        if (sorted == null) {
            return new BlockDecision.Rejected(Rejection.UNKNOWN_SEAT, seats.clone());
        }
        int[] sold = Arrays.stream(sorted).filter(i -> status(i) == SeatState.Status.SOLD).toArray();
        if (sold.length > 0) {
            return new BlockDecision.Rejected(Rejection.NOT_ALLOWED, sold);
        }
        int[] change = Arrays.stream(sorted).filter(i -> status(i) != SeatState.Status.BLOCKED).toArray();
        if (change.length == 0) {
            return new BlockDecision.Unchanged();
        }
        return apply(new Change(Transition.Kind.BLOCK, now, actor, reason, change, new SeatState.Available().block()));
    }

    /** Puts blocked seats back on sale (admin). */
    public BlockDecision unblock(int[] seats, long now, String actor, String reason) {
        int[] sorted = sortedDistinct(seats);
        if (sorted == null) {
            return new BlockDecision.Rejected(Rejection.UNKNOWN_SEAT, seats.clone());
        }
        int[] change = Arrays.stream(sorted).filter(i -> status(i) == SeatState.Status.BLOCKED).toArray();
        if (change.length == 0) {
            return new BlockDecision.Unchanged();
        }
        return apply(new Change(Transition.Kind.UNBLOCK, now, actor, reason, change, new SeatState.Blocked().unblock()));
    }

    // ---------------------------------------------------------------- mechanics

    private int[] sortedDistinct(int[] seats) {
        int[] sorted = seats.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < sorted.length; i++) {
            if (sorted[i] < 0 || sorted[i] >= statuses.length || (i > 0 && sorted[i] == sorted[i - 1])) {
                return null;
            }
        }
        return sorted;
    }

    /**
     * Builds the next value: copies the per-seat arrays, moves {@code seats} to {@code target},
     * bumps their versions, drops hold slots no seat refers to any more and records the transition.
     */
    private BlockDecision apply(Change change) {
        int[] seats = change.seats();
        SeatState target = change.target();
        List<HoldSlot> slots = change.slots() == null ? holds : change.slots();
        int targetSlot = change.targetSlot();
        byte[] nextStatuses = statuses.clone();
        int[] nextVersions = versions.clone();
        long[] nextRefs = refs.clone();
        int[] expected = new int[seats.length];
        SeatState.Status[] oldStatuses = new SeatState.Status[seats.length];
        String[] oldHolds = new String[seats.length];
        for (int k = 0; k < seats.length; k++) {
            int i = seats[k];
            expected[k] = versions[i];
            oldStatuses[k] = STATUSES[statuses[i]];
            oldHolds[k] = statuses[i] == SeatState.Status.HELD.ordinal() ? holds.get((int) refs[i]).holdId() : null;
            nextStatuses[i] = (byte) target.status().ordinal();
            nextVersions[i] = versions[i] + 1;
            nextRefs[i] = switch (target) {
                case SeatState.Held h -> targetSlot;
                case SeatState.Sold s -> s.bookingId();
                default -> 0;
            };
        }
        List<HoldSlot> compacted = compact(nextStatuses, nextRefs, slots);
        Owner owner = change.owner();
        long expiresAt = target instanceof SeatState.Held h ? h.expiresAt() : 0;
        Transition t = new Transition(change.kind(), change.now(), change.actor(), change.reason(), seats, expected,
                oldStatuses, oldHolds, target.status(), owner.holdId(), owner.accountId(), expiresAt, owner.bookingId(),
                owner.holdSeatIds());
        return new BlockDecision.Changed(new SeatBlock(showId, blockId, revision + seats.length,
                nextStatuses, nextVersions, nextRefs, compacted, t));
    }

    private static final String[] NO_IDS = new String[0];

    /**
     * Whom a change is for: the hold (HOLD, EXTEND, CONFIRM) and the booking (CONFIRM, CANCEL) the
     * transition names; {@link #NOBODY} for releases, expiries and blocking.
     *
     * @param holdSeatIds for HOLD, every seat id of the whole hold (it may span blocks)
     */
    private record Owner(String holdId, String accountId, long bookingId, String[] holdSeatIds) {
        static final Owner NOBODY = new Owner(null, null, 0, NO_IDS);
    }

    /**
     * One change asked of this block: every seat of {@code seats} (ascending) moves to
     * {@code target}, for {@code owner}; {@code slots} are the hold slots after the change when they
     * differ from the block's (a new hold, a new expiry), else null, and {@code targetSlot} the one
     * a seat moving to HELD refers to.
     */
    private record Change(Transition.Kind kind, long now, String actor, String reason, int[] seats, SeatState target,
                          Owner owner, List<HoldSlot> slots, int targetSlot) {
        Change(Transition.Kind kind, long now, String actor, String reason, int[] seats, SeatState target) {
            this(kind, now, actor, reason, seats, target, Owner.NOBODY, null, 0);
        }

        Change of(Owner by) {
            return new Change(kind, now, actor, reason, seats, target, by, slots, targetSlot);
        }

        Change withSlots(List<HoldSlot> next, int slot) {
            return new Change(kind, now, actor, reason, seats, target, owner, next, slot);
        }
    }

    /** Keeps only the slots some HELD seat refers to, renumbering the references in place. */
    private static List<HoldSlot> compact(byte[] statuses, long[] refs, List<HoldSlot> slots) {
        int[] remap = new int[slots.size()];
        Arrays.fill(remap, -1);
        List<HoldSlot> kept = new ArrayList<>();
        for (int i = 0; i < statuses.length; i++) {
            if (statuses[i] == SeatState.Status.HELD.ordinal()) {
                int old = (int) refs[i];
                if (remap[old] < 0) {
                    remap[old] = kept.size();
                    kept.add(slots.get(old));
                }
                refs[i] = remap[old];
            }
        }
        return kept;
    }

    @Override
    public String toString() {
        return "SeatBlock[" + showId + "/" + blockId + " rev " + revision + ", " + statuses.length
                + " seats, " + holds.size() + " holds]";
    }
}
