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
 * <p>Positions start at 1, are unique and gapless. Before the sale opens, joiners wait in a
 * pre-queue without a position; the first operation at or after the opening shuffles it once
 * with the seed it carries, recorded for audit.
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
    /** times of recent conversions (an admitted buyer made a hold). */
    final Deque<Long> conversions;

    public WaitingRoom(String showId, Mode mode, long opensAt, double ratePerSecond, double seatsPerBuyer, long passMillis) {
        this(showId, mode, opensAt, ratePerSecond, seatsPerBuyer, passMillis, new ArrayList<>(), false, 0,
                new HashMap<>(), 1, 0, 0, 0, new ArrayDeque<>(), new ArrayDeque<>());
    }

    WaitingRoom(String showId, Mode mode, long opensAt, double ratePerSecond, double seatsPerBuyer, long passMillis,
                List<String> preQueue, boolean shuffled, long seed, Map<String, Long> positions, long nextPosition,
                long admittedUpTo, double credit, long lastTick, Deque<long[]> admissions, Deque<Long> conversions) {
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

    /** Shuffles the pre-queue once the sale has opened. */
    void openIfDue(long now, long seedIfOpening) {
        if (shuffled || now < opensAt) {
            return;
        }
        int[] order = Admission.permutation(seedIfOpening, preQueue.size());
        for (int i : order) {
            positions.put(preQueue.get(i), nextPosition++);
        }
        seed = seedIfOpening;
        shuffled = true;
        lastTick = now;
    }

    /** Joins (or re-joins) {@code accountId}; returns its position, or 0 while it waits in the pre-queue. */
    long join(String accountId, long now, long seedIfOpening) {
        openIfDue(now, seedIfOpening);
        Long position = positions.get(accountId);
        if (position != null) {
            return position;
        }
        if (!shuffled) {
            if (preQueued.add(accountId)) {
                preQueue.add(accountId);
            }
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
        while (!conversions.isEmpty() && conversions.peekFirst() + passMillis <= now) {
            conversions.removeFirst();
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

    void converted(long now) {
        conversions.addLast(now);
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
        return new RoomView(showId, mode, opensAt, ratePerSecond, seatsPerBuyer, passMillis, shuffled, seed,
                nextPosition - 1, preQueue.size(), admittedUpTo, validPasses(), p, pre, admittedAt(p), challengeDifficulty);
    }

    public String showId() {
        return showId;
    }
}
