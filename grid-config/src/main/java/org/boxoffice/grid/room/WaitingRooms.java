package org.boxoffice.grid.room;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;

import java.security.SecureRandom;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
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
    private final ScheduledExecutorService ticker;

    private record Cached(RoomView view, long at) {
    }

    public WaitingRooms(HazelcastInstance hz, LongSupplier clock, ToIntFunction<String> availableSeats, long tickMillis) {
        this.map = hz.getMap(MAP);
        this.clock = clock;
        this.availableSeats = availableSeats;
        this.cacheMillis = tickMillis;
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "waiting-room-ticker");
            t.setDaemon(true);
            return t;
        });
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
        RoomView v = map.executeOnKey(showId, new RoomProcessor(new RoomCommand.Configure(showId, mode, opensAt,
                ratePerSecond, seatsPerBuyer, passMillis, challengeDifficulty)));
        cache.put(showId, new Cached(v, clock.getAsLong()));
        return v;
    }

    /** Joins the show's room; one place per account. Empty if the show has no room. */
    public Optional<RoomView> join(String showId, String accountId) {
        return Optional.ofNullable(map.executeOnKey(showId,
                new RoomProcessor(new RoomCommand.Join(accountId, clock.getAsLong(), seeds.nextLong()))));
    }

    /** The account's place, read on the room's partition. */
    public Optional<RoomView> lookup(String showId, String accountId) {
        return Optional.ofNullable(map.executeOnKey(showId, new RoomProcessor(new RoomCommand.Read(accountId))));
    }

    /** The room's counters, from this member's cache (at most one tick old). */
    public Optional<RoomView> summary(String showId) {
        long now = clock.getAsLong();
        Cached c = cache.get(showId);
        if (c == null || now - c.at() >= cacheMillis) {
            RoomView v = map.executeOnKey(showId, new RoomProcessor(new RoomCommand.Read(null)));
            c = new Cached(v, now);
            cache.put(showId, c);
        }
        return Optional.ofNullable(c.view());
    }

    /** Whether holds on the show need a pass now. */
    public boolean active(String showId) {
        return summary(showId).map(v -> v.active(clock.getAsLong())).orElse(false);
    }

    /** An admitted buyer made a hold: one fewer outstanding pass. */
    public void converted(String showId) {
        map.executeOnKey(showId, new RoomProcessor(new RoomCommand.Converted(clock.getAsLong())));
    }

    /** Admits on every room this member owns; public for tests that drive time themselves. */
    public void tickOwnedRooms() {
        try {
            for (String showId : map.localKeySet()) {
                RoomView v = map.executeOnKey(showId, new RoomProcessor(
                        new RoomCommand.Tick(clock.getAsLong(), availableSeats.applyAsInt(showId), seeds.nextLong())));
                if (v != null) {
                    cache.put(showId, new Cached(v, clock.getAsLong()));
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "waiting-room tick failed; trying again on the next one", e);
        }
    }

    @Override
    public void close() {
        ticker.shutdownNow();
    }
}
