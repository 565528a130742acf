package org.boxoffice.app.web;

import org.boxoffice.grid.Daemons;

import org.boxoffice.app.http.Json;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.Show;
import org.boxoffice.grid.ShowSnapshot;
import org.boxoffice.grid.ShowSnapshots;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Live seat-map changes for the fans looking at a show, fanned out from one poller per member.
 *
 * <p>One background thread looks at the {@link ShowSnapshots snapshot} of every show that has
 * subscribers every {@code pollEvery} (the snapshot is rebuilt from the grid every 250 ms and takes
 * this member's own outcomes at once, so looking at it is an array copy, never a grid read). When
 * the statuses differ from the last published state it publishes the next state, numbered by a
 * per-show sequence, and offers one event with the changed seats to every subscriber of the show.
 *
 * <p>Each subscriber drains its own bounded queue on its own request thread, so a slow client holds
 * up neither the poller nor the other clients: when its queue overflows, the missed changes are
 * dropped and it is sent the whole current map instead. A subscriber always starts with the whole
 * map, so a reconnecting client needs no replay.
 *
 * <p>Thread-safe. States are immutable once published; the whole map of a state is encoded once
 * and shared by every subscriber that needs it.
 */
public final class ShowEvents implements AutoCloseable {

    /** Event name of the whole map: 2 bits per seat in layout order, as {@code GET .../availability}. */
    public static final String AVAILABILITY = "availability";
    /** Event name of a list of changed seats, {@code [[seatIndex, status], ...]}. */
    public static final String CHANGES = "changes";
    /**
     * Event name of a notice for the pages of one fan: the page that follows a hold (its hold lapsed,
     * its offer is about to), and the pages the fan opened with their key (a waitlist offer was made
     * for them, or one of their holds lapsed). The JSON is the notice's, and its id the last map event's.
     */
    public static final String NOTICE = "notice";

    private static final Logger LOG = Logger.getLogger(ShowEvents.class.getName());
    private static final int QUEUE_CAPACITY = 64;
    private static final List<String> STATUSES = Arrays.stream(SeatState.Status.values()).map(Enum::name).toList();

    private final ShowSnapshots snapshots;
    private final int queueCapacity;
    private final Map<String, Channel> channels = new ConcurrentHashMap<>();
    private final ScheduledExecutorService poller;
    private volatile boolean closed;

    public ShowEvents(ShowSnapshots snapshots, Duration pollEvery) {
        this(snapshots, pollEvery, QUEUE_CAPACITY);
    }

    /** With {@code pollEvery} null nothing polls by itself: tests call {@link #pollNow()}. */
    ShowEvents(ShowSnapshots snapshots, Duration pollEvery, int queueCapacity) {
        this.snapshots = snapshots;
        this.queueCapacity = queueCapacity;
        if (pollEvery == null) {
            this.poller = null;
            return;
        }
        this.poller = Daemons.scheduler("show-events");
        long millis = Math.max(10, pollEvery.toMillis());
        poller.scheduleWithFixedDelay(this::pollNow, millis, millis, TimeUnit.MILLISECONDS);
    }

    /** One event to send: its SSE name, its id (the show's sequence number) and its JSON data. */
    public record Event(String name, long seq, String json) {
    }

    /**
     * Starts following {@code show}. The first {@link Subscription#next} answers the whole map;
     * later ones the changes after it. Close the subscription when the client goes away.
     */
    public Subscription subscribe(Show show) {
        return subscribe(show, null);
    }

    /**
     * Starts following {@code show} for the page that holds {@code holdId} (null: none): it is also
     * sent that hold's {@link #notice notices}.
     */
    public Subscription subscribe(Show show, String holdId) {
        return subscribe(show, holdId, null);
    }

    /**
     * Starts following {@code show} for the page that holds {@code holdId} (null: none) and that
     * {@code accountId} opened (null: an anonymous page; the caller has verified it): it is also sent
     * the {@link #notice notices} of that hold and those addressed to that account.
     */
    public Subscription subscribe(Show show, String holdId, String accountId) {
        ShowSnapshot first = snapshots.get(show);
        Subscription sub = new Subscription(show.showId(), holdId, accountId);
        Channel channel = channels.compute(show.showId(), (id, existing) -> {
            Channel ch = existing != null ? existing : new Channel(show, first);
            ch.subscribers.add(sub);
            return ch;
        });
        // read after registering: every change published from here on is also in the queue
        sub.start(channel);
        return sub;
    }

    /**
     * Sends {@code json} as a {@value #NOTICE} event to the pages on this member that follow
     * {@code showId} for {@code holdId} or were opened by {@code accountId} (either may be null);
     * nobody else hears of it, and a page that is both hears it once.
     */
    public void notice(String showId, String holdId, String accountId, String json) {
        Channel ch = channels.get(showId);
        if (ch == null || (holdId == null && accountId == null)) {
            return;
        }
        for (Subscription sub : ch.subscribers) {
            if ((holdId != null && holdId.equals(sub.holdId)) || (accountId != null && accountId.equals(sub.accountId))) {
                sub.offer(new Event(NOTICE, -1, json));
            }
        }
    }

    /** How many clients follow {@code showId} on this member. */
    public int subscribers(String showId) {
        Channel ch = channels.get(showId);
        return ch == null ? 0 : ch.subscribers.size();
    }

    private void unsubscribe(Subscription sub) {
        channels.computeIfPresent(sub.showId, (id, ch) -> {
            ch.subscribers.remove(sub);
            return ch.subscribers.isEmpty() ? null : ch;
        });
    }

    /** Looks at every followed show once and publishes what changed. */
    void pollNow() {
        for (Channel ch : channels.values()) {
            try {
                ch.poll();
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "seat-map changes of " + ch.show.showId() + " not published this time", e);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        if (poller != null) {
            poller.shutdownNow();
        }
        for (Channel ch : channels.values()) {
            ch.subscribers.forEach(Subscription::wake);
        }
    }

    /** A published state of a show's map; {@code statuses} is never written after publication. */
    private static final class State {
        final long seq;
        /** The seat-map version clients cache by, as {@code GET .../availability} gives it (the grid's). */
        final String version;
        final long asOf;
        final byte[] statuses;
        private volatile Event whole;

        State(long seq, ShowSnapshot snapshot, byte[] statuses) {
            this.seq = seq;
            this.version = Long.toString(snapshot.gridVersion());
            this.asOf = snapshot.builtAt();
            this.statuses = statuses;
        }

        Event whole(String showId) {
            Event e = whole;
            if (e == null) {
                Map<String, Object> m = header(showId, this);
                m.put("asOf", java.time.Instant.ofEpochMilli(asOf));
                m.put("seatCount", statuses.length);
                m.put("encoding", "2bit-base64");
                m.put("statuses", STATUSES);
                m.put("data", Base64.getEncoder().encodeToString(org.boxoffice.grid.ShowSnapshot.pack(statuses)));
                e = new Event(AVAILABILITY, seq, Json.write(m));
                whole = e;
            }
            return e;
        }
    }

    /** The subscribers of one show and what they were last told. Polled by the poller thread only. */
    private final class Channel {
        final Show show;
        final Set<Subscription> subscribers = ConcurrentHashMap.newKeySet();
        volatile State state;
        private ShowSnapshot lastSnapshot;
        private String lastVersion;

        Channel(Show show, ShowSnapshot first) {
            this.show = show;
            this.lastSnapshot = first;
            this.lastVersion = first.version();
            this.state = new State(1, first, first.statuses());
        }

        void poll() {
            ShowSnapshot snapshot = snapshots.get(show);
            String version = snapshot.version();
            // the same snapshot with the same version has the same content; a rebuilt one may not
            // (a lapsed hold turns free without a new revision), so it is compared seat by seat
            if (snapshot == lastSnapshot && version.equals(lastVersion)) {
                return;
            }
            lastSnapshot = snapshot;
            lastVersion = version;
            State previous = state;
            byte[] now = snapshot.statuses();
            if (now.length != previous.statuses.length) {
                return;
            }
            // beyond this many changes the whole map (a third of a byte per seat) is the smaller event
            int limit = Math.max(16, now.length / 30);
            List<int[]> changes = new ArrayList<>();
            boolean whole = false;
            for (int i = 0; i < now.length; i++) {
                if (now[i] != previous.statuses[i]) {
                    if (changes.size() == limit) {
                        whole = true;
                        break;
                    }
                    changes.add(new int[] {i, now[i]});
                }
            }
            if (changes.isEmpty()) {
                return;
            }
            State next = new State(previous.seq + 1, snapshot, now);
            state = next;
            Event event;
            if (whole) {
                event = next.whole(show.showId());
            } else {
                Map<String, Object> m = header(show.showId(), next);
                m.put("changes", changes);
                event = new Event(CHANGES, next.seq, Json.write(m));
            }
            for (Subscription sub : subscribers) {
                sub.offer(event);
            }
        }
    }

    /** One client's view of a show's changes. {@link #next} is called by that client's request thread only. */
    public final class Subscription implements AutoCloseable {
        private final String showId;
        private final String holdId;
        private final String accountId;
        private final BlockingQueue<Event> queue = new ArrayBlockingQueue<>(queueCapacity);
        private volatile boolean overflowed;
        private Channel channel;
        private long sentSeq = -1;

        private Subscription(String showId, String holdId, String accountId) {
            this.showId = showId;
            this.holdId = holdId;
            this.accountId = accountId;
        }

        private void start(Channel ch) {
            this.channel = ch;
        }

        private void offer(Event e) {
            if (!queue.offer(e)) {
                overflowed = true;
                queue.clear();
            }
        }

        private void wake() {
            queue.offer(new Event("", Long.MAX_VALUE, ""));
        }

        /** Whether the service is closing and the stream should end. */
        public boolean ended() {
            return closed;
        }

        /**
         * The next event to send: the whole map first (and again after an overflow), then each
         * change after it, in order. Null if nothing changed within {@code timeout} or the service
         * is closing.
         */
        public Event next(Duration timeout) throws InterruptedException {
            if (closed) {
                return null;
            }
            if (sentSeq < 0 || overflowed) {
                overflowed = false;
                queue.clear();
                State s = channel.state;
                sentSeq = s.seq;
                return s.whole(showId);
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                Event e = queue.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (e == null || closed) {
                    return null;
                }
                if (overflowed) {
                    return next(timeout);
                }
                if (e.name().equals(NOTICE)) {
                    return new Event(NOTICE, sentSeq, e.json()); // outside the map's sequence
                }
                if (e.seq() > sentSeq) {
                    sentSeq = e.seq();
                    return e;
                }
                // already part of the whole map sent before it
            }
        }

        @Override
        public void close() {
            unsubscribe(this);
        }
    }

    private static Map<String, Object> header(String showId, State s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("showId", showId);
        m.put("seq", s.seq);
        m.put("version", s.version);
        return m;
    }
}
