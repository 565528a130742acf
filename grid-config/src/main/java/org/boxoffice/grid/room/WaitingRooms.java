package org.boxoffice.grid.room;

import org.boxoffice.grid.Daemons;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;

import java.security.SecureRandom;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Waiting rooms on the grid. Joins and admissions run as processors on the room's partition;
 * reads of the room's counters are served from a per-member cache at most {@code cacheMillis}
 * old, so a million long-polling waiters do not queue on one partition. Every member ticks the
 * rooms it owns: admission follows the rate and the seats left ({@code availableSeats}).
 */
public final class WaitingRooms implements AutoCloseable {

    public static final String MAP = "waiting-rooms";
    private static final Logger LOG = Logger.getLogger(WaitingRooms.class.getName());

    private final IMap<String, WaitingRoom> map;
    private final LongSupplier clock;
    private final ToIntFunction<String> availableSeats;
    private final long cacheMillis;
    private final SecureRandom seeds = new SecureRandom();
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();
    /** Conversions this member reported ("position@show"), so a buyer's later holds skip the room. */
    private final Map<String, Boolean> reported = new ConcurrentHashMap<>();
    private static final int REPORTED_MEMO = 100_000;
    private final ScheduledExecutorService ticker;
    private final RoomLedger ledger;
    /** Checked here, not on the map: map-level protection would also refuse the room loader's bookkeeping. */
    private final com.hazelcast.splitbrainprotection.SplitBrainProtection quorum;
    /** Shows whose ledger had no room, until when this member does not ask again. */
    private final Map<String, Long> noRoomUntil = new ConcurrentHashMap<>();
    private static final long NO_ROOM_MILLIS = 5_000;
    /** The latest admission this member wrote to the ledger, per show it ticks. */
    private final Map<String, Long> recordedUpTo = new ConcurrentHashMap<>();

    private record Cached(RoomView view, long at) {
    }

    /** How much older than a tick a member's view of a room may be while the read that renews it is held up. */
    public static final long STALE_WHILE_READING_MILLIS = 5_000;
    /** How long a request with a view left unrenewed a while waits for the read before it takes the last one. */
    static final long FRESH_WAIT_MILLIS = 20;
    /** Per show, the read under way that renews this member's view. */
    private final Map<String, CompletableFuture<Optional<RoomView>>> reading = new ConcurrentHashMap<>();

    public WaitingRooms(HazelcastInstance hz, LongSupplier clock, ToIntFunction<String> availableSeats, long tickMillis) {
        this(hz, clock, availableSeats, tickMillis, RoomLedger.NONE);
    }

    /** @param ledger where every acknowledged place and admission is written before anyone relies on it */
    public WaitingRooms(HazelcastInstance hz, LongSupplier clock, ToIntFunction<String> availableSeats, long tickMillis,
                        RoomLedger ledger) {
        this.ledger = ledger;
        this.map = hz.getMap(MAP);
        this.quorum = hz.getConfig().getSplitBrainProtectionConfigs().containsKey(org.boxoffice.grid.GridMaps.QUORUM)
                ? hz.getSplitBrainProtectionService().getSplitBrainProtection(org.boxoffice.grid.GridMaps.QUORUM) : null;
        this.clock = clock;
        this.availableSeats = availableSeats;
        this.cacheMillis = tickMillis;
        this.ticker = Daemons.scheduler("waiting-room-ticker");
        ticker.scheduleWithFixedDelay(this::tickOwnedRooms, tickMillis, tickMillis, TimeUnit.MILLISECONDS);
    }

    /** Creates or changes a show's room, with no challenge at its door. */
    public RoomView configure(String showId, WaitingRoom.Mode mode, long opensAt, double ratePerSecond,
                              double seatsPerBuyer, long passMillis) {
        return configure(showId, mode, opensAt, ratePerSecond, seatsPerBuyer, passMillis, 0);
    }

    /** Creates or changes a show's room; {@code challengeDifficulty} 0 lets fans join without a challenge. */
    public RoomView configure(String showId, WaitingRoom.Mode mode, long opensAt, double ratePerSecond,
                              double seatsPerBuyer, long passMillis, int challengeDifficulty) {
        requireQuorum();
        RoomView v = map.executeOnKey(showId, new RoomProcessor(new RoomCommand.Configure(showId, mode, opensAt,
                ratePerSecond, seatsPerBuyer, passMillis, challengeDifficulty)));
        ledger.configured(v);
        cache.put(showId, new Cached(v, clock.getAsLong()));
        return v;
    }

    /**
     * Joins the show's room; one place per account. Empty if the show has no room. The place is in
     * the ledger before this returns, so a fan is never told a place a loss of members could take.
     */
    public Optional<RoomView> join(String showId, String accountId) {
        requireQuorum();
        RoomView v = onRoom(showId, new RoomCommand.Join(accountId, clock.getAsLong(), seeds.nextLong()));
        if (v != null) {
            ledger.joined(showId, accountId, v.position());
        }
        return Optional.ofNullable(v);
    }

    /** The account's place, read on the room's partition. */
    public Optional<RoomView> lookup(String showId, String accountId) {
        return Optional.ofNullable(onRoom(showId, new RoomCommand.Read(accountId)));
    }

    /**
     * The room's counters, from this member's cache: one tick old, or older while the read that
     * renews it is held up. Every hold of every show asks, so a read of the room's entry must never
     * hold them all: once the cache is a tick old, one read per show and member renews it (not one
     * per request). While requests keep it renewed (the view is less than two ticks old) they take the
     * last view at once and the read renews it in the background: on members in a slice of a core,
     * where a read waits for its owner's next period, most holds of a tick waited for it. An older view
     * (a member without requests a while, or reads held up) waits for the read at most
     * {@value #FRESH_WAIT_MILLIS} ms, then takes the last view, for up to
     * {@value #STALE_WHILE_READING_MILLIS} ms more, so a room switched on or off elsewhere is not missed
     * by the first hold after a quiet spell. A read is held up while the entry's partition moves (a member joins, leaves or is
     * promoted) or its owner was lost and the partition table is repaired: every request on every
     * member would otherwise wait for that one partition. A view's {@link RoomView#active} is
     * computed from the clock, so a room still opens on time from an older view; only a change
     * made meanwhile on another member (a room configured, a tick's admissions) is seen that much
     * later. Without a view young enough, the request waits for the read, as the first one does.
     */
    public Optional<RoomView> summary(String showId) {
        long now = clock.getAsLong();
        Cached c = cache.get(showId);
        if (c != null && now - c.at() < cacheMillis) {
            return Optional.ofNullable(c.view());
        }
        CompletableFuture<Optional<RoomView>> reading = read(showId);
        if (c != null && now - c.at() < Math.min(2 * cacheMillis, cacheMillis + STALE_WHILE_READING_MILLIS)) {
            // renewed every tick while requests come: the read renews it for the requests after this one
            return Optional.ofNullable(c.view());
        }
        if (c != null && now - c.at() < cacheMillis + STALE_WHILE_READING_MILLIS) {
            // a view left unrenewed a while (no requests, or reads held up): a read that answers at
            // once gives its view, one held up the last view
            try {
                return reading.get(FRESH_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                return Optional.ofNullable(c.view());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.ofNullable(c.view());
            }
        }
        try {
            return reading.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    /** The read of the room that renews this member's cache: the one under way, or a new one. */
    private CompletableFuture<Optional<RoomView>> read(String showId) {
        CompletableFuture<Optional<RoomView>> mine = new CompletableFuture<>();
        CompletableFuture<Optional<RoomView>> running = reading.putIfAbsent(showId, mine);
        if (running != null) {
            return running;
        }
        Thread.ofVirtual().name("room-read-" + showId).start(() -> {
            try {
                long at = clock.getAsLong();
                RoomView v = onRoom(showId, new RoomCommand.Read(null));
                // a tick or a configuration while this read ran put a newer view: it stays
                cache.compute(showId, (k, old) -> old != null && old.at() > at ? old : new Cached(v, at));
                mine.complete(Optional.ofNullable(v));
            } catch (Throwable e) {
                mine.completeExceptionally(e);
            } finally {
                reading.remove(showId, mine);
            }
        });
        return mine;
    }

    /** Whether holds on the show need a pass now. */
    public boolean active(String showId) {
        return summary(showId).map(v -> v.active(clock.getAsLong())).orElse(false);
    }

    /**
     * The admitted buyer at {@code position} made a hold: one fewer outstanding pass, once per buyer
     * (the room ignores their later holds). This member remembers whom it reported, so a buyer's
     * later holds here cost no call to the room's entry; the memo is bounded and only saves calls.
     */
    public void converted(String showId, long position) {
        String key = position + "@" + showId;
        if (reported.size() >= REPORTED_MEMO) {
            reported.clear();
        }
        if (reported.putIfAbsent(key, Boolean.TRUE) != null) {
            return;
        }
        try {
            onRoom(showId, new RoomCommand.Converted(position, clock.getAsLong()));
        } catch (RuntimeException e) {
            reported.remove(key);
            throw e;
        }
    }

    /** Admits on every room this member owns; public for tests that drive time themselves. */
    public void tickOwnedRooms() {
        java.util.Set<String> owned;
        try {
            // most members own no room most of the time: the local count costs no grid operation, the key set a
            // query on every partition this member owns, four times a second
            if (map.getLocalMapStats().getOwnedEntryCount() == 0) {
                recordedUpTo.clear();
                return;
            }
            owned = map.localKeySet();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "waiting-room tick failed; trying again on the next one", e);
            return;
        }
        recordedUpTo.keySet().retainAll(owned);
        for (String showId : owned) {
            try {
                tick(showId);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "waiting-room tick of " + showId + " failed; trying again on the next one", e);
            }
        }
    }

    private void tick(String showId) {
        if (quorum != null && !quorum.hasMinimumSize()) {
            return; // a minority side admits nobody
        }
        long now = clock.getAsLong();
        RoomView v = map.executeOnKey(showId, new RoomProcessor(
                new RoomCommand.Tick(now, availableSeats.applyAsInt(showId), seeds.nextLong())));
        if (v == null) {
            return;
        }
        if (!v.shuffled() && now >= v.opensAt()) {
            v = shuffle(showId, v);
        }
        if (v.admittedUpTo() > recordedUpTo.getOrDefault(showId, 0L)) {
            // at most one tick of admissions can be lost with the room; the fans they reached keep
            // their places and are admitted again on the rebuilt room's first ticks
            ledger.admitted(showId, v.admittedUpTo(), now);
            recordedUpTo.put(showId, v.admittedUpTo());
        }
        cache.put(showId, new Cached(v, clock.getAsLong()));
    }

    /** Writes the sealed pre-queue's positions to the ledger, then lets fans see them. */
    private RoomView shuffle(String showId, RoomView v) {
        WaitingRoom room = map.get(showId);
        if (room == null || !room.shuffleDue()) {
            return v;
        }
        ledger.shuffled(showId, room.seed(), room.shuffledPreQueue());
        RoomView applied = map.executeOnKey(showId, new RoomProcessor(new RoomCommand.Shuffle(room.seed())));
        return applied == null ? v : applied;
    }

    /**
     * Runs {@code command} on the show's room; a room the grid does not hold (lost with more
     * members than its backups, or a cluster started cold) is first rebuilt from the ledger, if
     * the ledger has it. Null if the show has no room.
     */
    private RoomView onRoom(String showId, RoomCommand command) {
        RoomView v = map.executeOnKey(showId, new RoomProcessor(command));
        if (v != null || !rebuild(showId)) {
            return v;
        }
        return map.executeOnKey(showId, new RoomProcessor(command));
    }

    private boolean rebuild(String showId) {
        long now = clock.getAsLong();
        Long until = noRoomUntil.get(showId);
        if (until != null && now < until) {
            return false;
        }
        WaitingRoom room = ledger.load(showId);
        if (room == null) {
            noRoomUntil.put(showId, now + NO_ROOM_MILLIS);
            return false;
        }
        noRoomUntil.remove(showId);
        if (map.putIfAbsent(showId, room) == null) {
            LOG.info(() -> "rebuilt the waiting room of " + showId + " from the ledger: " + room.view(null));
        }
        return true;
    }

    private void requireQuorum() {
        if (quorum != null && !quorum.hasMinimumSize()) {
            throw new com.hazelcast.splitbrainprotection.SplitBrainProtectionException(
                    "split brain protection: the grid is below its quorum of members; waiting rooms take no joins");
        }
    }

    @Override
    public void close() {
        ticker.shutdownNow();
    }
}
