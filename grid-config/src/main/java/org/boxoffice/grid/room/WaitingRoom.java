package org.boxoffice.grid.room;

import org.boxoffice.domain.Admission;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One show's waiting room. The only mutable value on the grid: a join must cost O(1) for a
 * hundred thousand waiters, so operations change this object in place. That is safe here because
 * the room map has no MapStore (nothing can fail after the change), every change runs inside a
 * {@link RoomProcessor} that calls {@code setValue} (so the backup replays it), and every
 * operation is deterministic in its arguments (time and seeds are passed in).
 *
 * <p>Positions start at 1 and are unique. Before the sale opens, joiners wait in a pre-queue
 * without a position. The first operation at or after the opening <em>seals</em> the pre-queue:
 * its n fans will hold positions 1..n, so a fan joining from then on gets n+1 onwards at once,
 * and the seed it carries is recorded for audit. The owner's ticker then writes the shuffled
 * positions to the referee and only then applies them ({@link #applyShuffle}), so no fan is told
 * a position that a loss of members could take back (see {@link RoomLedger}). A room rebuilt
 * from the referee after such a loss may have a gap (a join the referee never saw, never
 * acknowledged): it costs one admission, nobody's place.
 */
public final class WaitingRoom {

    public enum Mode { OFF, ON, AUTO }

    /** How long before the opening AUTO turns the room on, and how long after it stays on. */
    public static final long AUTO_BEFORE_MILLIS = 30 * 60_000L;
    public static final long AUTO_AFTER_MILLIS = 2 * 3_600_000L;

    final String showId;
    Mode mode;
    long opensAt;
    double ratePerSecond;
    double seatsPerBuyer;
    long passMillis;
    /** Key derivations the door's challenge asks of a joining fan on average; 0: joining needs no challenge. */
    int challengeDifficulty;
    final List<String> preQueue;
    final Set<String> preQueued;
    boolean shuffled;
    /** The pre-queue is closed: its fans hold positions 1..preQueue.size() once the shuffle is applied. */
    boolean sealed;
    long seed;
    final Map<String, Long> positions;
    long nextPosition;
    long admittedUpTo;
    double credit;
    long lastTick;
    /**
     * (admittedAt, count) of the admissions of the last pass lifetime, oldest first: each admitted
     * buyer holds exactly one pass, valid from its admission for {@code passMillis}, so these are
     * also the passes outstanding and the time each one was issued.
     */
    final Deque<long[]> admissions;
    /**
     * (convertedAt, position) of the recent conversions, oldest first: an admitted buyer made their
     * first hold. One per buyer, however many holds their pass makes: a buyer who holds and releases
     * again and again still holds one pass, and must not make the room admit others in their place.
     */
    final Deque<long[]> conversions;
    /** The positions in {@link #conversions}. */
    final Set<Long> converted;

    public WaitingRoom(String showId, Mode mode, long opensAt, double ratePerSecond, double seatsPerBuyer, long passMillis) {
        this(showId, mode, opensAt, ratePerSecond, seatsPerBuyer, passMillis, new ArrayList<>(), false, 0,
                new HashMap<>(), 1, 0, 0, 0, new ArrayDeque<>(), new ArrayDeque<>());
    }

    WaitingRoom(String showId, Mode mode, long opensAt, double ratePerSecond, double seatsPerBuyer, long passMillis,
                List<String> preQueue, boolean shuffled, long seed, Map<String, Long> positions, long nextPosition,
                long admittedUpTo, double credit, long lastTick, Deque<long[]> admissions, Deque<long[]> conversions) {
        this.showId = showId;
        this.mode = mode;
        this.opensAt = opensAt;
        this.ratePerSecond = ratePerSecond;
        this.seatsPerBuyer = seatsPerBuyer;
        this.passMillis = passMillis;
        this.preQueue = preQueue;
        this.preQueued = new HashSet<>(preQueue);
        this.shuffled = shuffled;
        this.seed = seed;
        this.positions = positions;
        this.nextPosition = nextPosition;
        this.admittedUpTo = admittedUpTo;
        this.credit = credit;
        this.lastTick = lastTick;
        this.admissions = admissions;
        this.conversions = conversions;
        this.converted = new HashSet<>();
        for (long[] c : conversions) {
            converted.add(c[1]);
        }
        this.sealed = shuffled;
    }

    /**
     * A room rebuilt from the referee after the grid lost it: its settings, every acknowledged
     * place ({@code positions}; fans of a pre-queue not yet shuffled in {@code preQueue}), the
     * shuffle's seed if it was applied, and the admissions as (admitted up to, at) in order. The
     * rate credit and the conversions start again from nothing: the room admits no faster than
     * its rate, and counts passes outstanding from the admissions.
     */
    public static WaitingRoom restore(String showId, Mode mode, long opensAt, double ratePerSecond, double seatsPerBuyer,
                                      long passMillis, int challengeDifficulty, List<String> preQueue,
                                      Map<String, Long> positions, Long shuffleSeed, List<long[]> admittedUpToAt, long now) {
        long next = 1;
        for (long p : positions.values()) {
            next = Math.max(next, p + 1);
        }
        Deque<long[]> admissions = new ArrayDeque<>();
        long upTo = 0;
        for (long[] row : admittedUpToAt) {
            if (row[0] > upTo) {
                if (row[1] + passMillis > now) {
                    admissions.addLast(new long[] {row[1], row[0] - upTo});
                }
                upTo = row[0];
            }
        }
        boolean shuffled = shuffleSeed != null;
        List<String> pre = new ArrayList<>(shuffled ? List.of() : preQueue);
        Map<String, Long> places = new HashMap<>(positions);
        if (shuffled) {
            // a pre-queue row without its position cannot outlive the shuffle's write; defensively, a place at the end
            for (String account : preQueue) {
                places.putIfAbsent(account, next++);
            }
        }
        WaitingRoom room = new WaitingRoom(showId, mode, opensAt, ratePerSecond, seatsPerBuyer, passMillis, pre, shuffled,
                shuffled ? shuffleSeed : 0, places, next, upTo, 0, now, admissions, new ArrayDeque<>());
        room.challengeDifficulty = challengeDifficulty;
        return room;
    }

    /** Whether holds on the show need a pass at {@code now}. */
    public boolean active(long now) {
        return switch (mode) {
            case OFF -> false;
            case ON -> true;
            case AUTO -> now >= opensAt - AUTO_BEFORE_MILLIS && now < opensAt + AUTO_AFTER_MILLIS;
        };
    }

    /** Changes the room's settings; the queue itself is kept. */
    void configure(Mode mode, long opensAt, double ratePerSecond, double seatsPerBuyer, long passMillis,
                   int challengeDifficulty) {
        this.mode = mode;
        this.challengeDifficulty = challengeDifficulty;
        this.opensAt = opensAt;
        this.ratePerSecond = ratePerSecond;
        this.seatsPerBuyer = seatsPerBuyer;
        this.passMillis = passMillis;
    }

    /** Seals the pre-queue once the sale has opened: positions 1..n are its fans'. */
    void openIfDue(long now, long seedIfOpening) {
        if (sealed || now < opensAt) {
            return;
        }
        seed = seedIfOpening;
        sealed = true;
        nextPosition = Math.max(nextPosition, preQueue.size() + 1L);
        lastTick = now;
    }

    /** Whether the pre-queue is sealed and its shuffle waits to be written and applied. */
    public boolean shuffleDue() {
        return sealed && !shuffled;
    }

    /** The pre-queue's fans in the order of their positions (1, 2, ...), by the seal's seed. */
    public List<String> shuffledPreQueue() {
        int[] order = Admission.permutation(seed, preQueue.size());
        List<String> out = new ArrayList<>(order.length);
        for (int i : order) {
            out.add(preQueue.get(i));
        }
        return out;
    }

    public long seed() {
        return seed;
    }

    /** Gives the sealed pre-queue its positions; {@code sealSeed} must be the seal's (a later seal after a rebuild differs). */
    boolean applyShuffle(long sealSeed) {
        if (!shuffleDue() || sealSeed != seed) {
            return false;
        }
        long p = 1;
        for (String account : shuffledPreQueue()) {
            positions.put(account, p++);
        }
        shuffled = true;
        return true;
    }

    /** Joins (or re-joins) {@code accountId}; returns its position, or 0 while it waits in the pre-queue. */
    long join(String accountId, long now, long seedIfOpening) {
        openIfDue(now, seedIfOpening);
        Long position = positions.get(accountId);
        if (position != null) {
            return position;
        }
        if (!sealed) {
            if (preQueued.add(accountId)) {
                preQueue.add(accountId);
            }
            return 0;
        }
        if (!shuffled && preQueued.contains(accountId)) {
            return 0;
        }
        long p = nextPosition++;
        positions.put(accountId, p);
        return p;
    }

    /** Admits the next buyers by rate and seats; returns how many. */
    long tick(long now, int availableSeats, long seedIfOpening) {
        openIfDue(now, seedIfOpening);
        if (!shuffled) {
            return 0;
        }
        credit = Admission.accrue(credit, ratePerSecond, lastTick == 0 ? 0 : now - lastTick);
        lastTick = now;
        while (!admissions.isEmpty() && admissions.peekFirst()[0] + passMillis <= now) {
            admissions.removeFirst();
        }
        while (!conversions.isEmpty() && conversions.peekFirst()[0] + passMillis <= now) {
            converted.remove(conversions.removeFirst()[1]);
        }
        long recent = admissions.stream().mapToLong(a -> a[1]).sum();
        long outstanding = Math.max(0, recent - conversions.size());
        long waiting = (nextPosition - 1) - admittedUpTo;
        long admit = Admission.admitNow(credit, waiting, availableSeats, seatsPerBuyer, outstanding);
        if (admit > 0) {
            admittedUpTo += admit;
            credit -= admit;
            admissions.addLast(new long[] {now, admit});
        }
        return admit;
    }

    /**
     * The buyer at {@code position} made a hold; false if they had converted already (within the
     * last pass lifetime, which covers their pass's), and nothing changed.
     */
    boolean converted(long position, long now) {
        if (!converted.add(position)) {
            return false;
        }
        conversions.addLast(new long[] {now, position});
        return true;
    }

    /** Passes outstanding: buyers admitted within the last pass lifetime (as of the last tick), one pass each. */
    long validPasses() {
        return admissions.stream().mapToLong(a -> a[1]).sum();
    }

    /**
     * When {@code position} was admitted, so its one pass is the same on every request; 0 if it is
     * not admitted, or was admitted longer than a pass lifetime ago (its pass has expired).
     */
    long admittedAt(long position) {
        if (position <= 0 || position > admittedUpTo) {
            return 0;
        }
        long upper = admittedUpTo;
        for (java.util.Iterator<long[]> it = admissions.descendingIterator(); it.hasNext(); ) {
            long[] batch = it.next();
            long lower = upper - batch[1];
            if (position > lower) {
                return batch[0];
            }
            upper = lower;
        }
        return 0;
    }

    public RoomView view(String accountId) {
        Long position = accountId == null ? null : positions.get(accountId);
        boolean pre = accountId != null && position == null && preQueued.contains(accountId);
        long p = position == null ? 0 : position;
        long length = nextPosition - 1 - (shuffleDue() ? preQueue.size() : 0);
        return new RoomView(showId, mode, opensAt, ratePerSecond, seatsPerBuyer, passMillis, shuffled, seed,
                length, preQueue.size(), admittedUpTo, validPasses(), p, pre, admittedAt(p), challengeDifficulty);
    }

    public String showId() {
        return showId;
    }
}
