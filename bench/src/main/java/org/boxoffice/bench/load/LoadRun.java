package org.boxoffice.bench.load;

import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.bench.check.AckedHold;
import org.boxoffice.bench.http.HttpConnection;
import org.boxoffice.bench.http.HttpResponse;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * One flash sale against one system: {@code connections} threads, each with its own keep-alive
 * connection and its own seat map, serve a queue of buyers until the show is sold out, the time
 * limit passes or every buyer has what it came for.
 *
 * <p>A buyer's turn: pick seats from the connection's map (or, for a share of buyers, ask for the
 * best available in their section), try to hold them, and on a 409 try one of the alternatives the
 * system offered, up to {@code retries} more times. A buyer who still has nothing goes to the back
 * of the queue and comes back later, as fans do. A share of successful buyers abandon their hold
 * (DELETE), which returns seats to the sale; of those who keep it, a share pay for it at once
 * ({@link Checkouts}). Every {@code readEvery} hold attempts the connection
 * redraws its map with If-None-Match, like a browser polling the seat map.
 *
 * <p>The show is sold out when a fresh map shows no free seat.
 *
 * <p>Through a waiting room ({@link Room}): buyers wait in the order they joined; one thread follows
 * the room's public summary, a buyer whose place has been admitted fetches its pass once, and every
 * hold then carries it. Buyers not yet admitted are not served (they are waiting, not requesting).
 */
public final class LoadRun {

    /** How long a room may admit nobody while everyone left waits before the run ends. */
    private static final long ROOM_STALL_NANOS = 3_000_000_000L;
    /** How often the room's public summary is read, as a waiting page would. */
    private static final long ROOM_POLL_MS = 100;

    /**
     * @param limit          stop after this long even if seats are left
     * @param retries        further attempts per turn after a 409
     * @param readEvery      one seat-map read per this many hold attempts, per connection
     * @param payShare       share of the buyers who keep their hold that pay for it at once (0: nobody pays)
     * @param recycleBuyers  put buyers back in the queue even after a success (warm-up: never runs dry)
     */
    public record Settings(int connections, Duration limit, int retries, double bestAvailableShare,
                           double abandonShare, double payShare, int readEvery, long seed, boolean recycleBuyers) {
    }

    /**
     * The show's waiting room, when the sale goes through one.
     *
     * @param tickets per account id: the queue token and place the buyer got when it joined
     */
    public record Room(Map<String, Ticket> tickets) {
    }

    /** Every buyer joins the show's waiting room; their tickets by account, for a {@link Room}. */
    public static Room joinQueue(org.boxoffice.bench.http.BoxofficeApi api, String showId, List<Buyer> buyers,
                                 int parallelism) throws InterruptedException {
        List<org.boxoffice.bench.http.BoxofficeApi.QueuePlace> places =
                api.joinQueue(showId, buyers.stream().map(Buyer::token).toList(), parallelism);
        java.util.Map<String, Ticket> tickets = new java.util.HashMap<>();
        for (int i = 0; i < buyers.size(); i++) {
            tickets.put(buyers.get(i).accountId(), new Ticket(places.get(i).queueToken(), places.get(i).position()));
        }
        return new Room(tickets);
    }

    /** What joining the queue gave a buyer. */
    public record Ticket(String queueToken, long position) {
    }

    private final Target target;
    private final List<Buyer> buyers;
    private final Room room;
    private final Map<String, String> passes = new ConcurrentHashMap<>();
    private final LongAdder queuePolls = new LongAdder();
    private final LongAdder passesFetched = new LongAdder();
    private volatile long admittedUpTo;
    private volatile long admittedChangedNanos = System.nanoTime();
    private final Settings settings;
    private final SeatChooser chooser;
    private final RunStats stats = new RunStats();
    /** Null when nobody pays. */
    private final Checkouts checkouts;
    private final Queue<Buyer> queue;
    private final Queue<AckedHold> acked = new ConcurrentLinkedQueue<>();
    private final Set<String> released = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicBoolean soldOut = new AtomicBoolean();
    private final AtomicBoolean exhausted = new AtomicBoolean();
    private final AtomicBoolean roomClosed = new AtomicBoolean();
    private final AtomicLong lastSuccessNanos = new AtomicLong();
    private long startNanos;

    public LoadRun(Target target, List<Buyer> buyers, Settings settings) {
        this(target, buyers, settings, null);
    }

    /** @param room the show's waiting room, or null to hold directly */
    public LoadRun(Target target, List<Buyer> buyers, Settings settings, Room room) {
        this.target = target;
        this.buyers = buyers;
        this.settings = settings;
        this.room = room;
        this.chooser = new SeatChooser(target.plan());
        this.checkouts = settings.payShare() > 0 ? new Checkouts(target) : null;
        if (room == null) {
            this.queue = new ConcurrentLinkedQueue<>(buyers);
        } else {
            this.queue = new PriorityBlockingQueue<>(Math.max(1, buyers.size()),
                    Comparator.comparingLong(b -> room.tickets().get(b.accountId()).position()));
            this.queue.addAll(buyers);
        }
    }

    public RunResult run() throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bench-sampler");
            t.setDaemon(true);
            return t;
        });
        startNanos = System.nanoTime();
        long limitNanos = settings.limit().toNanos();
        sampler.scheduleAtFixedRate(() -> {
            long now = System.nanoTime();
            stats.sample((now - startNanos) / 1e9);
            if (now - startNanos >= limitNanos) {
                stop.set(true);
            }
        }, 1, 1, TimeUnit.SECONDS);
        Thread roomWatcher = room == null ? null : Thread.ofPlatform().name("bench-room-watcher").daemon().start(this::watchRoom);
        Thread pendingWatcher = checkouts == null ? null
                : Thread.ofPlatform().name("bench-pending-payments").daemon().start(checkouts::watchPending);
        for (int i = 0; i < settings.connections(); i++) {
            int id = i;
            Thread t = Thread.ofPlatform().name("load-" + target.name() + "-" + i).start(() -> new Worker(id).run());
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        long end = System.nanoTime();
        if (roomWatcher != null) {
            roomWatcher.interrupt();
            roomWatcher.join();
        }
        sampler.shutdownNow();
        sampler.awaitTermination(5, TimeUnit.SECONDS);
        if (pendingWatcher != null) {
            // the last buyers answered 202 get their bounded wait; the sale's clock has stopped
            checkouts.saleOver();
            pendingWatcher.join();
        }
        double elapsed = (end - startNanos) / 1e9;
        stats.sample(elapsed);
        Double sellOut = soldOut.get() && lastSuccessNanos.get() > 0 ? (lastSuccessNanos.get() - startNanos) / 1e9 : null;
        return new RunResult(target.name(), target.showId(), target.plan().seatCount(), settings.connections(),
                buyers.size(), elapsed, soldOut.get(), sellOut, exhausted.get(), stats.attempts.sum(),
                stats.successes.sum(), stats.seatsHeld.sum(), stats.conflicts.sum(), stats.bestAvailableAttempts.sum(),
                stats.errors(), stats.releaseCount.sum(), stats.seatsReleased.sum(), stats.readCount.sum(),
                stats.notModified.sum(), Latency.of(stats.totalHolds()), Latency.of(stats.totalSuccessful()),
                Latency.of(stats.totalReads()), Latency.of(stats.totalReleases()), stats.timeline(),
                room == null ? null : new RunResult.RoomStats(admittedUpTo, passesFetched.sum(), queuePolls.sum(), roomClosed.get()),
                List.copyOf(acked), Set.copyOf(released), checkouts == null ? null : checkouts.summary(),
                checkouts == null ? List.of() : checkouts.bookings(), checkouts == null ? Set.of() : checkouts.paidHolds(),
                null);
    }

    /** Follows the room's public counters, as a waiting page does, until the run ends. */
    private void watchRoom() {
        try (HttpConnection c = new HttpConnection(target.host(), target.port())) {
            while (!stop.get()) {
                try {
                    HttpResponse r = c.get("/v1/shows/" + target.showId() + "/queue/summary", null);
                    queuePolls.increment();
                    if (r.status() == 200) {
                        long admitted = r.json().path("admittedUpTo").asLong(admittedUpTo);
                        if (admitted != admittedUpTo) {
                            admittedUpTo = admitted;
                            admittedChangedNanos = System.nanoTime();
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    stats.error("room-summary");
                }
                Thread.sleep(ROOM_POLL_MS);
            }
        } catch (InterruptedException e) {
            // the run is over
        }
    }

    /** One connection and its client state. */
    private final class Worker {

        private final SplittableRandom random;
        private final SeatMap map;
        private final HttpConnection connection;
        private int sinceRead;
        private long lastReadNanos;
        /** Free seats in the last map the server sent; -1 before the first. */
        private int lastReadFree = -1;

        Worker(int id) {
            random = new SplittableRandom(settings.seed() * 1_000_003L + id);
            map = new SeatMap(target.plan().seatCount());
            connection = new HttpConnection(target.host(), target.port());
        }

        void run() {
            try (connection) {
                readMap();
                while (!stop.get()) {
                    Buyer buyer = queue.poll();
                    if (buyer == null) {
                        exhausted.set(true);
                        stop.set(true);
                        break;
                    }
                    if (room != null && !admitted(buyer)) {
                        queue.offer(buyer);
                        // a waiting fan keeps an eye on the seat map now and then: that is how the
                        // bench learns the show sold out while everyone left is still waiting
                        if (System.nanoTime() - lastReadNanos > 1_000_000_000L) {
                            readMap();
                        }
                        // the room admits no more than the seats left can serve: when it stops and
                        // only the not-admitted wait, the sale is over for them
                        if (System.nanoTime() - admittedChangedNanos > ROOM_STALL_NANOS) {
                            roomClosed.set(true);
                            stop.set(true);
                        }
                        sleepQuietly();
                        continue;
                    }
                    boolean done = serve(buyer);
                    if (!done || settings.recycleBuyers()) {
                        queue.offer(buyer);
                    }
                }
            }
        }

        /** Whether the buyer may hold now: its place was admitted and it has fetched its pass. */
        private boolean admitted(Buyer buyer) {
            if (passes.containsKey(buyer.accountId())) {
                return true;
            }
            Ticket ticket = room.tickets().get(buyer.accountId());
            if (ticket.position() > admittedUpTo) {
                return false;
            }
            try {
                HttpResponse r = connection.send("GET", "/v1/shows/" + target.showId() + "/queue/status", buyer.token(),
                        null, "Queue-Token: " + ticket.queueToken(), null);
                queuePolls.increment();
                JsonNode json = r.status() == 200 ? r.json() : null;
                if (json != null && json.hasNonNull("pass")) {
                    passes.put(buyer.accountId(), json.get("pass").asText());
                    passesFetched.increment();
                    return true;
                }
                if (r.status() != 200) {
                    stats.error("queue-" + r.status());
                }
            } catch (IOException | RuntimeException e) {
                stats.error("transport");
            }
            return false;
        }

        private void sleepQuietly() {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop.set(true);
            }
        }

        /** One buyer's turn; true when the buyer is done (holds seats, abandoned them, or cannot buy). */
        private boolean serve(Buyer buyer) {
            ShowPlan.Section preferred = target.plan().section(buyer.section());
            if (preferred == null) {
                preferred = target.plan().sectionsByRank().get(0);
            }
            boolean bestAvailable = random.nextDouble() < settings.bestAvailableShare();
            int[] next = null;
            for (int attempt = 0; attempt <= settings.retries() && !stop.get(); attempt++) {
                if (++sinceRead >= settings.readEvery()) {
                    readMap();
                }
                String body;
                if (attempt == 0 && bestAvailable) {
                    body = bestAvailableBody(buyer.quantity(), preferred.name());
                } else {
                    int[] seats = next != null ? next : chooser.pick(map, preferred, buyer.quantity(), random);
                    if (seats != null) {
                        body = seatsBody(seats);
                    } else {
                        // the map shows no such group: take what is left together, wherever it is
                        int run = chooser.longestFreeRun(map);
                        if (run == 0) {
                            readMap();
                            if (soldOut.get()) {
                                return false;
                            }
                            run = chooser.longestFreeRun(map);
                        }
                        if (run == 0) {
                            continue;
                        }
                        body = bestAvailableBody(Math.min(run, buyer.quantity()), null);
                    }
                }
                if (body.startsWith("{\"best")) {
                    stats.bestAvailableAttempts.increment();
                }
                next = null;
                HttpResponse response;
                long t0 = System.nanoTime();
                try {
                    String pass = room == null ? null : passes.get(buyer.accountId());
                    response = pass == null ? connection.post(target.holdsPath(), buyer.token(), body)
                            : connection.send("POST", target.holdsPath(), buyer.token(), null, "Queue-Pass: " + pass, body);
                } catch (IOException | RuntimeException e) {
                    stats.attempts.increment();
                    stats.error("transport");
                    return false;
                }
                long micros = (System.nanoTime() - t0) / 1_000;
                stats.attempts.increment();
                stats.holds.recordValue(micros);
                stats.firstTryHolds.recordValue(micros); // a closed loop sends nothing again
                switch (response.status()) {
                    case 201 -> {
                        stats.successfulHolds.recordValue(micros);
                        held(buyer, response);
                        return true;
                    }
                    case 409 -> {
                        stats.conflicts.increment();
                        next = conflict(response);
                    }
                    case 422 -> {
                        // ACCOUNT_LIMIT and the like: this buyer cannot buy more, retrying is pointless
                        stats.error("422");
                        return true;
                    }
                    default -> {
                        stats.error(Integer.toString(response.status()));
                        return false;
                    }
                }
            }
            return false;
        }

        private void held(Buyer buyer, HttpResponse response) {
            lastSuccessNanos.accumulateAndGet(System.nanoTime(), Math::max);
            JsonNode json = response.json();
            String holdId = json.path("holdId").asText();
            List<String> seatIds = new ArrayList<>();
            for (JsonNode id : json.path("seatIds")) {
                seatIds.add(id.asText());
                int index = target.plan().indexOf(id.asText());
                if (index >= 0) {
                    map.set(index, SeatMap.HELD);
                }
            }
            long expiresAt = json.hasNonNull("expiresAt") ? Instant.parse(json.get("expiresAt").asText()).toEpochMilli() : 0;
            acked.add(new AckedHold(holdId, buyer.accountId(), seatIds, expiresAt));
            stats.successes.increment();
            stats.seatsHeld.add(seatIds.size());
            if (random.nextDouble() < settings.abandonShare()) {
                release(buyer, holdId, seatIds);
            } else if (checkouts != null && random.nextDouble() < settings.payShare()) {
                checkouts.pay(connection, buyer, holdId, seatIds);
            }
        }

        private void release(Buyer buyer, String holdId, List<String> seatIds) {
            long t0 = System.nanoTime();
            HttpResponse response;
            try {
                response = connection.delete("/v1/holds/" + holdId, buyer.token());
            } catch (IOException | RuntimeException e) {
                stats.error("transport");
                return;
            }
            stats.releases.recordValue((System.nanoTime() - t0) / 1_000);
            if (response.status() != 204) {
                stats.error("release-" + response.status());
                return;
            }
            released.add(holdId);
            stats.releaseCount.increment();
            stats.seatsReleased.add(seatIds.size());
            for (String id : seatIds) {
                int index = target.plan().indexOf(id);
                if (index >= 0) {
                    map.set(index, SeatMap.AVAILABLE);
                }
            }
        }

        /** Notes the seats the 409 names as taken; returns one of the offered alternatives, or null. */
        private int[] conflict(HttpResponse response) {
            JsonNode json;
            try {
                json = response.json();
            } catch (RuntimeException e) {
                return null;
            }
            for (JsonNode id : json.path("unavailable")) {
                int index = target.plan().indexOf(id.asText());
                if (index >= 0) {
                    map.set(index, SeatMap.HELD);
                }
            }
            JsonNode alternatives = json.path("alternatives");
            if (!alternatives.isArray() || alternatives.isEmpty()) {
                return null;
            }
            // fans take one of the first offers, not always the first
            JsonNode choice = alternatives.get(random.nextInt(Math.min(3, alternatives.size())));
            int[] seats = new int[choice.size()];
            for (int i = 0; i < seats.length; i++) {
                seats[i] = target.plan().indexOf(choice.get(i).asText());
                if (seats[i] < 0) {
                    return null;
                }
            }
            return seats.length > 0 ? seats : null;
        }

        private void readMap() {
            sinceRead = 0;
            lastReadNanos = System.nanoTime();
            long t0 = System.nanoTime();
            HttpResponse response;
            try {
                response = connection.get(target.availabilityPath(), map.etag());
            } catch (IOException | RuntimeException e) {
                stats.error("transport");
                return;
            }
            stats.reads.recordValue((System.nanoTime() - t0) / 1_000);
            stats.readCount.increment();
            if (response.status() == 304) {
                stats.notModified.increment();
            } else if (response.status() == 200) {
                try {
                    map.replaceFromResponse(response.body(), response.etag());
                } catch (IllegalArgumentException e) {
                    stats.error("read-malformed");
                    return;
                }
                lastReadFree = map.freeCount();
            } else {
                stats.error("read-" + response.status());
                return;
            }
            if (lastReadFree == 0 && !settings.recycleBuyers()) {
                soldOut.set(true);
                stop.set(true);
            }
        }
    }

    /** The JSON body of a hold attempt for seats (indexes into {@code plan}). */
    public static String seatsBody(int[] seats, ShowPlan plan) {
        StringBuilder sb = new StringBuilder(24 + seats.length * 12).append("{\"seatIds\":[");
        for (int i = 0; i < seats.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append('"').append(plan.seatId(seats[i])).append('"');
        }
        return sb.append("]}").toString();
    }

    private String seatsBody(int[] seats) {
        return seatsBody(seats, target.plan());
    }

    static String bestAvailableBody(int quantity, String section) {
        return "{\"bestAvailable\":{\"quantity\":" + quantity
                + (section == null ? "" : ",\"section\":\"" + section + "\"") + "}}";
    }
}
