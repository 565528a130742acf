package org.boxoffice.grid;

import org.boxoffice.domain.SeatState;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A show's seat statuses in layout order, at most a refresh interval behind what this member has
 * heard of the grid (and a full re-read behind, if a change event was lost). Lapsed holds already
 * show as AVAILABLE. {@link ShowSnapshots} replaces a snapshot only when its content changes, so
 * the same object, with its version and cached encoding, may serve for a long time. Used to draw seat maps and as the fast gate in front of claims: a seat the
 * snapshot shows as taken is refused without a trip to its partition (a stale "taken" costs the
 * buyer a 409 with alternatives; a stale "free" costs one trip to the processor, which decides).
 *
 * <p>The member's own claim outcomes are written into the array as they happen so this member's
 * view is current; those writes race benignly with readers (a reader sees either status).
 */
public final class ShowSnapshot {

    private static final SeatState.Status[] STATUSES = SeatState.Status.values();

    private final String showId;
    private final long gridVersion;
    private final long builtAt;
    private final byte[] statuses;
    private final AtomicLong localEdits = new AtomicLong();
    /** AVAILABLE seats, kept by {@link #set}: lets a sold-out show answer "no alternatives" without a scan. */
    private final java.util.concurrent.atomic.AtomicInteger available = new java.util.concurrent.atomic.AtomicInteger();
    private volatile byte[] packed;

    public ShowSnapshot(String showId, long gridVersion, long builtAt, byte[] statuses) {
        this.showId = showId;
        this.gridVersion = gridVersion;
        this.builtAt = builtAt;
        this.statuses = statuses;
        int free = 0;
        for (byte b : statuses) {
            if (b == SeatState.Status.AVAILABLE.ordinal()) {
                free++;
            }
        }
        available.set(free);
    }

    /**
     * How many seats this snapshot shows as available. With fewer than a request's seats free there
     * is no alternative and no best-available pick to look for, which after a sell-out is every request.
     */
    public int available() {
        return available.get();
    }

    public String showId() {
        return showId;
    }

    /**
     * When this content was built from the grid (epoch millis). A snapshot is kept while no change
     * is heard, so this may be much older than the refresh interval while the content is current.
     */
    public long builtAt() {
        return builtAt;
    }

    /** Changes whenever the content changes: the grid's revision sum plus this member's edits since. */
    public String version() {
        return gridVersion + "." + localEdits.get();
    }

    /**
     * The grid's revision sum when this snapshot was read: the seat-map version clients cache by.
     * It moves at most once per refresh, so a polling seat map gets 304s between refreshes.
     */
    public long gridVersion() {
        return gridVersion;
    }

    /**
     * Two bits per seat in layout order (the status ordinal), four seats per byte, first seat in
     * the lowest bits. Computed once per snapshot, on first use.
     */
    public byte[] packed() {
        byte[] p = packed;
        if (p == null) {
            p = pack(statuses);
            packed = p;
        }
        return p;
    }

    /** The seat-map encoding of {@code statuses} (status ordinals in layout order): see {@link #packed()}. */
    public static byte[] pack(byte[] statuses) {
        byte[] p = new byte[(statuses.length + 3) / 4];
        for (int g = 0; g < statuses.length; g++) {
            p[g >> 2] |= (byte) ((statuses[g] & 3) << ((g & 3) * 2));
        }
        return p;
    }

    public int size() {
        return statuses.length;
    }

    public SeatState.Status status(int globalIndex) {
        return STATUSES[statuses[globalIndex]];
    }

    public boolean free(int globalIndex) {
        return statuses[globalIndex] == SeatState.Status.AVAILABLE.ordinal();
    }

    /** A copy of the statuses, one byte (status ordinal) per seat in layout order. */
    public byte[] statuses() {
        return statuses.clone();
    }

    /** Counts per status, indexed by {@link SeatState.Status#ordinal()}. */
    public int[] counts() {
        int[] counts = new int[STATUSES.length];
        for (byte s : statuses) {
            counts[s]++;
        }
        return counts;
    }

    /** Whether a change was {@link #set} into this snapshot since it was built. */
    boolean edited() {
        return localEdits.get() > 0;
    }

    /** Records a change this member made (or learned of) before the next refresh. */
    public void set(int globalIndex, SeatState.Status status) {
        int before = statuses[globalIndex];
        if (before != status.ordinal()) {
            statuses[globalIndex] = (byte) status.ordinal();
            localEdits.incrementAndGet();
            if (before == SeatState.Status.AVAILABLE.ordinal()) {
                available.decrementAndGet();
            } else if (status == SeatState.Status.AVAILABLE) {
                available.incrementAndGet();
            }
        }
    }
}
