package org.boxoffice.grid;

import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.Show;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.IntStream;

/**
 * Keeps a {@link ShowSnapshot} per show that someone looked at recently. Readers never wait for
 * the grid except for a show's very first snapshot. Seat maps are never drawn by running a
 * processor over a show.
 *
 * <p>One background thread refreshes every {@code refreshMillis}, at a cost that follows what
 * changed rather than the number and size of the watched shows:
 * <ul>
 *   <li>it keeps the last value it read of every block of a watched show (values are immutable);
 *   <li>one entry listener on the inventory map hears of blocks written, loaded or evicted on any
 *       member, with their new values: seats a change took (held, sold, blocked) are written into
 *       the current snapshot the moment the event arrives, so a seat another member just sold is
 *       refused here within milliseconds instead of at the next refresh (a claim that cannot win
 *       costs the account's allowance, the block's processor and their backups); seats a change
 *       freed wait for the refresh, so an event never undoes this member's own claims in flight;
 *   <li>a refresh takes the blocks heard to have changed from those events' values, and reads from
 *       the grid only the blocks it heard of without one (removed, evicted), in one call per show;
 *   <li>a hold lapses without any write (the sweeper releases it later), so a refresh also
 *       repaints, from the kept value, each block whose earliest hold deadline has passed;
 *   <li>change events are best effort (lost with a member, or while partitions move), so a show
 *       is read whole every {@code fullReadEveryMillis} (30 s), and within 2.5 s (at most half that
 *       interval) after a data member joins or leaves (each show at a moment of its own, so the members do not all
 *       read every show in the same refresh; a lite member moves no data and changes nothing): a
 *       snapshot may be stale, but it converges.
 * </ul>
 * A new snapshot is built only when a block's revision moved or a hold lapsed; otherwise the same
 * object stays, with its version and its cached encoding.
 *
 * <p>Thread-safe. Builds of one show run one at a time. {@link #record} writes this member's own
 * outcomes into the current snapshot at once, and into the one a build under way will publish, so
 * a build that read a block before the change cannot undo it; the block is read again at the next
 * refresh, and from then on the grid's value stands.
 */
public final class ShowSnapshots implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ShowSnapshots.class.getName());
    private static final long FORGET_AFTER_MILLIS = 10 * 60_000;
    /**
     * A watched show is read whole this often, in case a change event was lost without a member
     * leaving (a member's departure or arrival has every show read within {@link #MISSED_SPREAD_MILLIS}).
     * Every read copies every block of the show from its owners: at every 5 s, with the few dozen
     * shows a member watches after a busy hour, those copies were the largest background cost of a
     * member in a cluster. A snapshot only advises (the block processors decide), and a block's
     * next change brings its value with the event, so a lost event leaves at most the blocks that
     * do not change again stale until this read.
     */
    static final long FULL_READ_MILLIS = 30_000;
    /** After a data member joins or leaves, every watched show is read whole within this time, each at a moment of its own. */
    static final long MISSED_SPREAD_MILLIS = 2_500;
    private static final byte AVAILABLE = (byte) SeatState.Status.AVAILABLE.ordinal();

    private final Inventory inventory;
    private final LongSupplier clock;
    private final long fullReadEveryMillis;
    private final Map<String, Watched> watched = new ConcurrentHashMap<>();
    private final AtomicLong blocksRead = new AtomicLong();
    private final Inventory.Subscription changes;
    private final ScheduledExecutorService refresher;
    private volatile boolean loseChangeEvents;

    public ShowSnapshots(Inventory inventory, LongSupplier clock, long refreshMillis) {
        this(inventory, clock, refreshMillis, Math.max(FULL_READ_MILLIS, refreshMillis));
    }

    ShowSnapshots(Inventory inventory, LongSupplier clock, long refreshMillis, long fullReadEveryMillis) {
        this.inventory = inventory;
        this.clock = clock;
        this.fullReadEveryMillis = fullReadEveryMillis;
        this.changes = inventory.onChanges(this::heard, this::missed);
        this.refresher = Daemons.scheduler("snapshot-refresher");
        refresher.scheduleWithFixedDelay(this::refreshAll, refreshMillis, refreshMillis, TimeUnit.MILLISECONDS);
    }

    /** A change this member made, replayed onto a snapshot built while it happened. */
    private record Edit(int offset, int[] seats, SeatState.Status status) {
        void applyTo(ShowSnapshot snapshot) {
            for (int seat : seats) {
                snapshot.set(offset + seat, status);
            }
        }
    }

    /** A watched show: the grid as last read, the statuses painted from it, and the current snapshot. */
    private static final class Watched {
        final Show show;
        final long grace;
        /** Blocks that changed, as far as this member heard, since they were last read. */
        final Set<Integer> changed = ConcurrentHashMap.newKeySet();
        /** Set when this member's copy of the show cannot be trusted (the first build, a failed read): the next build reads every block. */
        volatile boolean readAll = true;
        /**
         * When changes may have gone unheard (a member left), the time by which the show is read whole;
         * {@link Long#MAX_VALUE} when none is due.
         */
        volatile long readAllAt = Long.MAX_VALUE;
        volatile ShowSnapshot snapshot;
        volatile long lastAccess;

        // Guarded by this (one build at a time).
        /** The last value read per block id; null while the block is absent. */
        final SeatBlock[] blocks;
        /** Per block, when one of its holds lapses next, as of its last painting. */
        final long[] lapses;
        /** Effective statuses painted from {@link #blocks}, without this member's edits. */
        final byte[] statuses;
        long gridVersion;
        long nextLapse = Long.MAX_VALUE;
        long nextFullRead;

        // Guarded by editLock.
        private final Object editLock = new Object();
        /** This member's edits since the build under way began; null when none is. */
        private List<Edit> editsDuringBuild;
        /** Per block, the newest value a change event carried (null: none, or the block went away since). */
        private final SeatBlock[] heardValues;
        /**
         * Per block, the revision this member's own change left it at ({@link #record(Show, int, int[],
         * SeatState.Status, long)}): an event with an older value arrives late and is not taken.
         */
        private final long[] ownRevisions;

        Watched(Show show, long now) {
            this.show = show;
            this.grace = show.policy().graceMillis();
            int n = show.layout().blocks().size();
            this.blocks = new SeatBlock[n];
            this.heardValues = new SeatBlock[n];
            this.ownRevisions = new long[n];
            this.lapses = new long[n];
            Arrays.fill(lapses, Long.MAX_VALUE);
            this.statuses = new byte[show.layout().totalSeats()];
            this.lastAccess = now;
        }

        void heard(int blockId) {
            if (blockId >= 0 && blockId < blocks.length) {
                changed.add(blockId);
            }
        }

        /**
         * A change event's value for {@code blockId} (null: the block went away): the seats it shows
         * taken go into the current snapshot now, unless an event already brought a newer revision.
         */
        void heard(int blockId, SeatBlock value, long now) {
            if (blockId < 0 || blockId >= blocks.length) {
                return;
            }
            synchronized (editLock) {
                SeatBlock last = heardValues[blockId];
                if (value != null && value.revision() <= ownRevisions[blockId]) {
                    // older than a change this member made and recorded: a late event (a hold's, arriving
                    // after this member released it) must not mark the freed seats taken again
                    return;
                }
                if (value == null) {
                    heardValues[blockId] = null; // the refresh reads it
                } else if (last == null || value.revision() > last.revision()) {
                    heardValues[blockId] = value;
                    int offset = show.layout().offset(blockId);
                    for (Edit e : taken(offset, value, now)) {
                        record(e);
                    }
                }
            }
            changed.add(blockId);
        }

        /** The seats {@code block} shows held, sold or blocked at {@code now}, one edit per status. */
        private List<Edit> taken(int offset, SeatBlock block, long now) {
            int n = block.size();
            int[][] byStatus = new int[SeatState.Status.values().length][n];
            int[] counts = new int[byStatus.length];
            for (int i = 0; i < n; i++) {
                int status = block.effectiveStatus(i, now, grace).ordinal();
                if (status != AVAILABLE) {
                    byStatus[status][counts[status]++] = i;
                }
            }
            List<Edit> edits = new ArrayList<>(2);
            for (int st = 0; st < counts.length; st++) {
                if (counts[st] > 0) {
                    edits.add(new Edit(offset, Arrays.copyOf(byStatus[st], counts[st]), SeatState.Status.values()[st]));
                }
            }
            return edits;
        }

        void ownRevision(int blockId, long revision) {
            if (blockId >= 0 && blockId < blocks.length) {
                synchronized (editLock) {
                    ownRevisions[blockId] = Math.max(ownRevisions[blockId], revision);
                }
            }
        }

        /** The value an event brought for {@code blockId} if it is newer than the one last taken, else null. */
        SeatBlock heardNewer(int blockId) {
            synchronized (editLock) {
                SeatBlock v = heardValues[blockId];
                return v != null && v.revision() > revision(blocks[blockId]) && v.revision() > ownRevisions[blockId] ? v : null;
            }
        }

        /** Takes a block as read; true if its revision moved (or it appeared or went away). */
        boolean take(int blockId, SeatBlock fresh, long now) {
            SeatBlock old = blocks[blockId];
            if (fresh == null ? old == null : old != null && old.revision() == fresh.revision()) {
                return false;
            }
            gridVersion += revision(fresh) - revision(old);
            blocks[blockId] = fresh;
            paint(blockId, now);
            return true;
        }

        /** Repaints the blocks whose next hold lapse has come; true if any did. */
        boolean repaintLapsed(long now) {
            if (now < nextLapse) {
                return false;
            }
            for (int b = 0; b < blocks.length; b++) {
                if (lapses[b] <= now) {
                    paint(b, now);
                }
            }
            return true;
        }

        private void paint(int blockId, long now) {
            int offset = show.layout().offset(blockId);
            SeatBlock block = blocks[blockId];
            if (block == null) {
                Arrays.fill(statuses, offset, offset + show.layout().blocks().get(blockId).size(), AVAILABLE);
                lapses[blockId] = Long.MAX_VALUE;
                return;
            }
            for (int i = 0; i < block.size(); i++) {
                statuses[offset + i] = (byte) block.effectiveStatus(i, now, grace).ordinal();
            }
            lapses[blockId] = block.nextLapseAfter(now, grace);
        }

        void updateNextLapse() {
            long min = Long.MAX_VALUE;
            for (long lapse : lapses) {
                min = Math.min(min, lapse);
            }
            nextLapse = min;
        }

        void beginBuild() {
            synchronized (editLock) {
                editsDuringBuild = new ArrayList<>();
            }
        }

        /** Ends the build under way, publishing {@code fresh} (with the edits made meanwhile) unless null. */
        void endBuild(ShowSnapshot fresh) {
            synchronized (editLock) {
                if (fresh != null) {
                    editsDuringBuild.forEach(e -> e.applyTo(fresh));
                    snapshot = fresh;
                }
                editsDuringBuild = null;
            }
        }

        void record(Edit edit) {
            synchronized (editLock) {
                ShowSnapshot current = snapshot;
                if (current != null) {
                    edit.applyTo(current);
                }
                if (editsDuringBuild != null) {
                    editsDuringBuild.add(edit);
                }
            }
        }

        /** Records {@code edits} unless a seat in them is taken on the current snapshot; atomic with other edits. */
        boolean recordIfFree(List<Edit> edits) {
            synchronized (editLock) {
                ShowSnapshot current = snapshot;
                if (current == null) {
                    return true; // no map to consult yet: the grid decides alone
                }
                for (Edit e : edits) {
                    for (int seat : e.seats()) {
                        if (!current.free(e.offset() + seat)) {
                            return false;
                        }
                    }
                }
                edits.forEach(this::record);
                return true;
            }
        }

        private static long revision(SeatBlock block) {
            return block == null ? 0 : block.revision();
        }
    }

    /** The show's current snapshot; the first call for a show reads the grid. */
    public ShowSnapshot get(Show show) {
        long now = clock.getAsLong();
        Watched w = watched.computeIfAbsent(show.showId(), id -> new Watched(show, now));
        w.lastAccess = now;
        ShowSnapshot current = w.snapshot;
        if (current != null) {
            return current;
        }
        synchronized (w) {
            current = w.snapshot;
            return current != null ? current : update(w, now, true);
        }
    }

    /**
     * Writes seats this member just changed into the current snapshot (if the show is watched).
     * The block is read again at the next refresh.
     */
    public void record(Show show, int blockId, int[] seats, SeatState.Status status) {
        Watched w = watched.get(show.showId());
        if (w != null) {
            w.heard(blockId);
            w.record(new Edit(show.layout().offset(blockId), seats.clone(), status));
        }
    }

    /**
     * As {@link #record(Show, int, int[], SeatState.Status)}, for a change that left the block at
     * {@code revision}: change events with older values, still on their way, are not taken from now on.
     */
    public void record(Show show, int blockId, int[] seats, SeatState.Status status, long revision) {
        Watched w = watched.get(show.showId());
        if (w != null) {
            w.ownRevision(blockId, revision);
            w.heard(blockId);
            w.record(new Edit(show.layout().offset(blockId), seats.clone(), status));
        }
    }

    /**
     * Marks {@code seatsByBlock} as held on this member's map if every one of them is free there,
     * in one step with every other change to the map: of two requests on this member for a seat,
     * only the first finds it free. False (and nothing marked) if a seat is taken on the map; true
     * without marking anything if the show has no map on this member yet (the grid decides alone).
     * The blocks are read again at the next refresh.
     */
    public boolean markHeldIfFree(Show show, SortedMap<Integer, int[]> seatsByBlock) {
        Watched w = watched.get(show.showId());
        if (w == null) {
            return true;
        }
        List<Edit> edits = new ArrayList<>(seatsByBlock.size());
        seatsByBlock.forEach((block, seats) -> {
            w.heard(block);
            edits.add(new Edit(show.layout().offset(block), seats.clone(), SeatState.Status.HELD));
        });
        return w.recordIfFree(edits);
    }

    /** Reads the whole show from the grid now (after an admin change, or in tests). */
    public ShowSnapshot refresh(Show show) {
        long now = clock.getAsLong();
        Watched w = watched.computeIfAbsent(show.showId(), id -> new Watched(show, now));
        return update(w, now, true);
    }

    /** One refresh of every watched show; runs on the refresher thread (tests may call it too). */
    void refreshAll() {
        long now = clock.getAsLong();
        for (Watched w : watched.values()) {
            if (now - w.lastAccess > FORGET_AFTER_MILLIS) {
                watched.remove(w.show.showId(), w);
                continue;
            }
            if (w.snapshot == null) {
                continue; // a reader is building its first snapshot
            }
            try {
                update(w, now, false);
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "snapshot of " + w.show.showId() + " not refreshed; keeping the last one", e);
            }
        }
    }

    /**
     * Brings one show up to date and returns its current snapshot. Edits are kept from before the
     * change marks are taken, and {@link #record} marks before it edits: so an edit either has its
     * mark taken here, and the read sees it (the processor answered before record() was called),
     * or it is replayed onto the snapshot this build publishes.
     */
    private ShowSnapshot update(Watched w, long now, boolean readAll) {
        synchronized (w) {
            w.beginBuild();
            ShowSnapshot fresh = null;
            try {
                fresh = rebuild(w, now, readAll);
            } finally {
                w.endBuild(fresh);
            }
            return w.snapshot;
        }
    }

    /**
     * Reads the blocks heard to have changed (all of them if {@code readAll} or the show is due a
     * full read) and repaints blocks whose holds lapsed: a new snapshot if anything moved, else null.
     */
    private ShowSnapshot rebuild(Watched w, long now, boolean readAll) {
        boolean full = readAll || w.readAll || now >= w.nextFullRead || now >= w.readAllAt;
        // marks are taken before the read, so a change heard during it is read next time
        List<Integer> toRead;
        if (full) {
            w.readAll = false;
            w.readAllAt = Long.MAX_VALUE;
            w.changed.clear();
            toRead = IntStream.range(0, w.blocks.length).boxed().toList();
        } else {
            toRead = drain(w.changed);
        }
        ShowSnapshot current = w.snapshot;
        if (toRead.isEmpty() && now < w.nextLapse && current != null && !current.edited()) {
            return null;
        }
        // a block heard with a newer value needs no read; a full read asks the grid for every block
        Map<Integer, SeatBlock> fromEvents = new java.util.HashMap<>();
        List<Integer> fromGrid = toRead;
        if (!full) {
            fromGrid = new ArrayList<>(toRead.size());
            for (int b : toRead) {
                SeatBlock v = w.heardNewer(b);
                if (v != null) {
                    fromEvents.put(b, v);
                } else {
                    fromGrid.add(b);
                }
            }
        }
        Map<BlockKey, SeatBlock> read;
        try {
            read = fromGrid.isEmpty() ? Map.of() : inventory.blocks(w.show, fromGrid);
        } catch (RuntimeException e) {
            w.readAll = true; // the marks taken above are gone
            throw e;
        }
        blocksRead.addAndGet(fromGrid.size());
        if (full) {
            // the first interval is drawn from its second half, so shows watched together do not
            // all come due in the same refresh
            w.nextFullRead = now + fullReadEveryMillis
                    - (current == null ? ThreadLocalRandom.current().nextLong(fullReadEveryMillis / 2 + 1) : 0);
        }
        boolean moved = false;
        for (int b : toRead) {
            SeatBlock heard = fromEvents.get(b);
            moved |= w.take(b, heard != null ? heard : read.get(Inventory.key(w.show, b)), now);
        }
        moved |= w.repaintLapsed(now);
        if (moved) {
            w.updateNextLapse();
        }
        // a snapshot this member wrote into is replaced even if the grid did not move: the grid's word stands
        if (!moved && current != null && !current.edited()) {
            return null;
        }
        return new ShowSnapshot(w.show.showId(), w.gridVersion, now, w.statuses.clone());
    }

    private static List<Integer> drain(Set<Integer> marks) {
        List<Integer> out = new ArrayList<>();
        for (Iterator<Integer> it = marks.iterator(); it.hasNext(); ) {
            out.add(it.next());
            it.remove();
        }
        return out;
    }

    private void heard(BlockKey key, SeatBlock value) {
        if (loseChangeEvents) {
            return;
        }
        deliver(key, value);
    }

    /** Takes one change event (tests deliver late ones by hand). */
    void deliver(BlockKey key, SeatBlock value) {
        Watched w = watched.get(key.showId());
        if (w != null) {
            w.heard(key.blockId(), value, clock.getAsLong());
        }
    }

    /**
     * Changes may have gone unheard: every watched show is read whole within the next half of a
     * full-read interval, each at a moment of its own. Read all at the next refresh, the shows of
     * every member would be read at once, in the same quarter of a second on every member, and the
     * claims queue behind those reads on the partition threads just when the cluster is moving. A
     * snapshot only advises (the block processors decide), so a show read a little later costs at
     * most a claim refused by the grid instead of by the map.
     */
    private void missed() {
        if (loseChangeEvents) {
            return;
        }
        long now = clock.getAsLong();
        long spread = Math.min(MISSED_SPREAD_MILLIS, fullReadEveryMillis / 2);
        watched.values().forEach(w -> w.readAllAt = Math.min(w.readAllAt,
                now + ThreadLocalRandom.current().nextLong(spread + 1)));
    }

    /** How many block values refreshes have read from the grid so far (tests). */
    long blocksRead() {
        return blocksRead.get();
    }

    /** Tests: drops change events from now on (or stops dropping them), as a lost member or a migration can. */
    void loseChangeEvents(boolean lose) {
        this.loseChangeEvents = lose;
    }

    @Override
    public void close() {
        refresher.shutdownNow();
        changes.close();
    }
}
