package org.boxoffice.grid;

import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.Show;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps a {@link ShowSnapshot} per show that someone looked at recently, rebuilt from the grid
 * every {@code refreshMillis} by one background thread. Readers never wait for the grid except
 * for a show's very first snapshot. Seat maps are never drawn by running a processor over a show.
 */
public final class ShowSnapshots implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ShowSnapshots.class.getName());
    private static final long FORGET_AFTER_MILLIS = 10 * 60_000;

    private final Inventory inventory;
    private final LongSupplier clock;
    private final ScheduledExecutorService refresher;
    private final Map<String, Watched> watched = new ConcurrentHashMap<>();

    private static final class Watched {
        final Show show;
        volatile ShowSnapshot snapshot;
        volatile long lastAccess;

        Watched(Show show, ShowSnapshot snapshot, long now) {
            this.show = show;
            this.snapshot = snapshot;
            this.lastAccess = now;
        }
    }

    public ShowSnapshots(Inventory inventory, LongSupplier clock, long refreshMillis) {
        this.inventory = inventory;
        this.clock = clock;
        this.refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "snapshot-refresher");
            t.setDaemon(true);
            return t;
        });
        refresher.scheduleWithFixedDelay(this::refreshAll, refreshMillis, refreshMillis, TimeUnit.MILLISECONDS);
    }

    /** The show's current snapshot; the first call for a show reads the grid. */
    public ShowSnapshot get(Show show) {
        long now = clock.getAsLong();
        Watched w = watched.computeIfAbsent(show.showId(), id -> new Watched(show, build(show, now), now));
        w.lastAccess = now;
        return w.snapshot;
    }

    /** Writes seats this member just changed into the current snapshot (if the show is watched). */
    public void record(Show show, int blockId, int[] seats, SeatState.Status status) {
        Watched w = watched.get(show.showId());
        if (w != null) {
            int offset = show.layout().offset(blockId);
            for (int seat : seats) {
                w.snapshot.set(offset + seat, status);
            }
        }
    }

    /** Rebuilds one show's snapshot now (after an admin change, or in tests). */
    public ShowSnapshot refresh(Show show) {
        long now = clock.getAsLong();
        ShowSnapshot fresh = build(show, now);
        Watched w = watched.computeIfAbsent(show.showId(), id -> new Watched(show, fresh, now));
        w.snapshot = fresh;
        return fresh;
    }

    private void refreshAll() {
        long now = clock.getAsLong();
        for (Watched w : watched.values()) {
            if (now - w.lastAccess > FORGET_AFTER_MILLIS) {
                watched.remove(w.show.showId(), w);
                continue;
            }
            try {
                w.snapshot = build(w.show, now);
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "snapshot of " + w.show.showId() + " not refreshed; keeping the last one", e);
            }
        }
    }

    private ShowSnapshot build(Show show, long now) {
        byte[] statuses = new byte[show.layout().totalSeats()];
        long version = 0;
        long grace = show.policy().graceMillis();
        for (Map.Entry<BlockKey, SeatBlock> e : inventory.blocks(show).entrySet()) {
            SeatBlock block = e.getValue();
            int offset = show.layout().offset(block.blockId());
            version += block.revision();
            for (int i = 0; i < block.size(); i++) {
                statuses[offset + i] = (byte) block.effectiveStatus(i, now, grace).ordinal();
            }
        }
        return new ShowSnapshot(show.showId(), version, now, statuses);
    }

    @Override
    public void close() {
        refresher.shutdownNow();
    }
}
