package org.boxoffice.bench.load;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.bench.check.AckedHold;
import org.boxoffice.bench.check.SoldOutAnswer;
import org.boxoffice.bench.http.HttpConnection;
import org.boxoffice.bench.http.HttpResponse;
import org.boxoffice.bench.http.NioHttpClient;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A stampede against one system, open loop: hold attempts arrive at an offered rate (a Poisson
 * process, {@link Arrivals}) whether or not the system keeps up, and each attempt's latency runs
 * from its intended send time, so time spent waiting for a free connection counts (no coordinated
 * omission). One thread drives every connection through {@link NioHttpClient}.
 *
 * <p>Who arrives: a fan retrying after a 409 (with one of the offered alternatives, else seats
 * picked afresh from the generator's map) goes first, else the next fan of the crowd who has not
 * tried yet. Each fan tries at most {@code 1 + retries} times and stops at its first hold. A fan
 * picks adjacent seats the generator's map shows free in its preferred section (a share ask for
 * the best available first); once the map shows none, the fan clicks seats anyway, as on a stale
 * map: after the sell-out every attempt is a refusal, which is what most of a real on-sale is. The
 * map is one for the whole crowd, redrawn by seat-map reads that arrive at {@code rate / readEvery}
 * (If-None-Match) and corrected by the answers.
 *
 * <p>With a waiting room ({@link LoadRun.Room}) fans hold only after the room admitted their place
 * and they fetched their pass, in queue order; an arrival with nobody admitted is not sent (counted
 * as waiting). The bench follows the room's public summary, asks for each admitted place's pass at
 * once, asks the next place not yet admitted as well, and counts as an <em>inversion</em> every
 * "wait" answer given to a place after a pass for a later place had already come back. Every
 * {@value #WITHOUT_PASS_EVERY}th arrival also sends a hold without a pass from a fan still waiting:
 * each one that succeeds is a hold made without a pass.
 *
 * <p>A general-admission sale ({@link Target#area()} set) asks for admissions by count instead:
 * each fan asks for its quantity of the area; after a 409 {@code SOLD_OUT} that says fewer are left
 * than it asked for (but some), it asks for what is left, else again for its quantity (a fan
 * pressing the button again). The reads ask for what the area has left. Every {@code SOLD_OUT}
 * answer is noted with the time it arrived ({@link #soldOutAnswers()}), to be compared with the
 * referee's count afterwards.
 */
public final class OpenLoopRun {

    /** One hold without a pass per this many arrivals while fans wait in the room. */
    static final int WITHOUT_PASS_EVERY = 50;
    private static final long SAMPLE_NANOS = 1_000_000_000L;
    private static final JsonFactory JSON = new JsonFactory();
    private static final long ROOM_POLL_NANOS = 100_000_000L;
    /**
     * When the fan's web app sends a hold again after a lost connection, after each loss in turn: a
     * tenth of a second, then backing off, while the load balancer takes a dead member out (the
     * bench's follows readiness every 250 ms); a resend that reaches the dead member is refused at once.
     */
    static final long[] RESEND_AFTER_NANOS = {100_000_000L, 200_000_000L, 400_000_000L, 800_000_000L};
    /** After the schedule ends, answers still outstanding are waited for this long. */
    private static final long DRAIN_NANOS = 10_000_000_000L;

    /**
     * @param attemptsPerSecond offered hold attempts a second
     * @param retries           further attempts per fan after a 409 (each fan tries at most 1 + retries times)
     * @param readEvery         one seat-map read arrives per this many hold attempts (0: none)
     * @param resendLost        every hold carries an {@code Idempotency-Key}, as the fan's web app sends, and a hold
     *                          or a read whose connection is lost before its answer (a member killed, a connection
     *                          refused) is sent again (a hold with the same key) on the web app's schedule
     *                          ({@link #RESEND_AFTER_NANOS}); each resend is counted apart
     *                          ({@link RunResult#errors()} key {@code "transport-resent"}), only a loss after the
     *                          last one as a transport error
     */
    public record Settings(double attemptsPerSecond, Duration limit, int connections, int retries,
                           double bestAvailableShare, int readEvery, long seed, boolean resendLost) {

        public Settings(double attemptsPerSecond, Duration limit, int connections, int retries,
                        double bestAvailableShare, int readEvery, long seed) {
            this(attemptsPerSecond, limit, connections, retries, bestAvailableShare, readEvery, seed, false);
        }
    }

    private static final int HOLD = 0;
    private static final int READ = 1;
    private static final int SUMMARY = 2;
    private static final int STATUS = 3;
    private static final int WITHOUT_PASS = 4;

    /** One request in the backlog or in flight. */
    private static final class Req {
        final int kind;
        final long intended;
        Turn turn;
        long maxPassAtSend;
        /** A request's bytes, kept while it may be sent again after a lost connection. */
        byte[] bytes;
        int resent;
        long resendAt;

        Req(int kind, long intended) {
            this.kind = kind;
            this.intended = intended;
        }
    }

    /** A fan of the crowd and how far it got. */
    private static final class Turn {
        final Buyer buyer;
        final long position;
        final boolean bestAvailableFirst;
        /** Admissions the fan asks for next (general admission). */
        int quantity;
        int attempts;
        int[] next;
        /** The fan's request line, Host and Authorization, encoded at its first attempt. */
        byte[] holdPrefix;

        Turn(Buyer buyer, long position, boolean bestAvailableFirst) {
            this.buyer = buyer;
            this.position = position;
            this.bestAvailableFirst = bestAvailableFirst;
            this.quantity = buyer.quantity();
        }
    }

    private final Target target;
    private final Settings settings;
    private final LoadRun.Room room;
    private final List<Turn> crowd;
    private final SplittableRandom random;
    private final SeatChooser chooser;
    private final SeatMap map;
    private final RunStats stats = new RunStats();
    private final ArrayDeque<Turn> retrying = new ArrayDeque<>();
    /** Per group size: the map (etag, free seats) that last showed no such group; see {@link #pick}. */
    private final String[] noGroupEtag = new String[11];
    private final int[] noGroupFree = new int[11];
    private final ArrayDeque<Req> backlog = new ArrayDeque<>();
    private final ArrayDeque<Req> control = new ArrayDeque<>();
    /** Holds whose connection was lost, in the order they are due to be sent again. */
    private final ArrayDeque<Req> resends = new ArrayDeque<>();
    private final List<AckedHold> acked = new ArrayList<>();
    /** The general-admission sale's {@code SOLD_OUT} answers, in the order they arrived. */
    private final List<SoldOutAnswer> soldOutAnswers = new ArrayList<>();
    private NioHttpClient client;
    private int nextNew;
    private int holdsInFlight;
    private long scheduled;
    private long idleArrivals;
    private long requests;
    private int maxBacklog;
    private boolean soldOut;
    private long lastSuccessNanos;
    private long startNanos;
    private final org.HdrHistogram.Histogram sendLag = new org.HdrHistogram.Histogram(3);

    // waiting room
    private final PriorityQueue<Turn> ready = new PriorityQueue<>(Comparator.comparingLong(t -> t.position));
    private final Map<String, String> passes = new HashMap<>();
    private final Set<String> passRequested = new HashSet<>();
    private long admittedUpTo;
    private int nextToAdmit;
    private long maxPassPosition;
    private long waitingAnswers;
    private long inversions;
    private long withoutPassAttempts;
    private long withoutPassHolds;
    private long roomPolls;
    private long arrivalsSeen;

    public OpenLoopRun(Target target, List<Buyer> buyers, Settings settings, LoadRun.Room room) {
        this.target = target;
        this.settings = settings;
        this.room = room;
        this.random = new SplittableRandom(settings.seed());
        this.chooser = new SeatChooser(target.plan());
        this.map = new SeatMap(target.plan().seatCount());
        List<Turn> turns = new ArrayList<>(buyers.size());
        SplittableRandom wishes = new SplittableRandom(settings.seed() ^ 0x9E3779B97F4A7C15L);
        for (Buyer b : buyers) {
            long position = room == null ? turns.size() + 1 : room.tickets().get(b.accountId()).position();
            turns.add(new Turn(b, position, wishes.nextDouble() < settings.bestAvailableShare()));
        }
        if (room != null) {
            turns.sort(Comparator.comparingLong(t -> t.position));
        }
        this.crowd = turns;
    }

    /** The general-admission sale's {@code SOLD_OUT} answers once {@link #run()} returned; empty for a seated sale. */
    public List<SoldOutAnswer> soldOutAnswers() {
        return List.copyOf(soldOutAnswers);
    }

    private boolean byCount() {
        return target.area() != null;
    }

    public RunResult run() throws IOException {
        readMapBlocking();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        client = new NioHttpClient(target.host(), target.port(), settings.connections(), new NioHttpClient.Listener() {
            @Override
            public void completed(Object tag, HttpResponse response, long at) {
                answered((Req) tag, response, at);
            }

            @Override
            public void failed(Object tag, IOException error, long at) {
                failedReq((Req) tag, at);
            }
        });
        try {
            startNanos = System.nanoTime();
            Arrivals holds = new Arrivals(settings.attemptsPerSecond(), settings.seed(), startNanos);
            Arrivals reads = settings.readEvery() > 0
                    ? new Arrivals(settings.attemptsPerSecond() / settings.readEvery(), settings.seed() + 1, startNanos) : null;
            long endOfSchedule = startNanos + settings.limit().toNanos();
            long nextSample = startNanos + SAMPLE_NANOS;
            long nextRoomPoll = startNanos;
            long stoppedAt = -1;
            while (true) {
                long now = System.nanoTime();
                if (now >= nextSample) {
                    stats.sample((now - startNanos) / 1e9);
                    nextSample += SAMPLE_NANOS;
                }
                if (stoppedAt < 0 && (now >= endOfSchedule || exhausted())) {
                    stoppedAt = now;
                }
                if (stoppedAt < 0) {
                    while (holds.peek() <= now) {
                        backlog.add(new Req(HOLD, holds.take()));
                        scheduled++;
                        if (room != null && ++arrivalsSeen % WITHOUT_PASS_EVERY == 0) {
                            backlog.add(new Req(WITHOUT_PASS, now));
                        }
                    }
                    while (reads != null && reads.peek() <= now) {
                        backlog.add(new Req(READ, reads.take()));
                    }
                    if (room != null && now >= nextRoomPoll) {
                        control.add(new Req(SUMMARY, now));
                        nextRoomPoll += ROOM_POLL_NANOS;
                    }
                }
                while (!resends.isEmpty() && resends.peek().resendAt <= now) {
                    control.add(resends.poll());
                }
                maxBacklog = Math.max(maxBacklog, backlog.size());
                dispatch(now);
                if (stoppedAt >= 0 && ((backlog.isEmpty() && control.isEmpty() && resends.isEmpty() && client.inFlight() == 0)
                        || now - stoppedAt > DRAIN_NANOS)) {
                    break;
                }
                long wake = Math.min(nextSample, stoppedAt >= 0 ? now + 10_000_000L : holds.peek());
                if (stoppedAt < 0 && reads != null) {
                    wake = Math.min(wake, reads.peek());
                }
                if (stoppedAt < 0 && room != null) {
                    wake = Math.min(wake, nextRoomPoll);
                }
                if (!resends.isEmpty()) {
                    wake = Math.min(wake, resends.peek().resendAt);
                }
                client.poll(wake - System.nanoTime());
            }
            long end = System.nanoTime();
            long unanswered = backlog.size() + client.inFlight() + resends.size();
            double elapsed = (end - startNanos) / 1e9;
            stats.sample(elapsed);
            double generatorCpu = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
            Double sellOut = soldOut && lastSuccessNanos > 0 ? (lastSuccessNanos - startNanos) / 1e9 : null;
            RunResult.OpenLoop open = new RunResult.OpenLoop(settings.attemptsPerSecond(), scheduled,
                    stats.attempts.sum() / elapsed, (stoppedAt - startNanos) / 1e9, idleArrivals, unanswered, maxBacklog,
                    Latency.of(sendLag), requests, generatorCpu, client.reconnects(),
                    room == null ? null : new RunResult.Fairness(admittedUpTo, passes.size(), roomPolls, waitingAnswers,
                            inversions, withoutPassAttempts, withoutPassHolds, Set.copyOf(passes.keySet())), startNanos);
            return new RunResult(target.name(), target.showId(), target.plan().seatCount(), settings.connections(),
                    crowd.size(), elapsed, soldOut, sellOut, exhausted(), stats.attempts.sum(), stats.successes.sum(),
                    stats.seatsHeld.sum(), stats.conflicts.sum(), stats.bestAvailableAttempts.sum(), stats.errors(), 0, 0,
                    stats.readCount.sum(), stats.notModified.sum(), Latency.of(stats.totalHolds()),
                    Latency.of(stats.totalSuccessful()), Latency.of(stats.totalReads()), Latency.of(stats.totalReleases()),
                    stats.timeline(), room == null ? null : new RunResult.RoomStats(admittedUpTo, passes.size(), roomPolls, false),
                    List.copyOf(acked), Set.of(), null, List.of(), Set.of(), open);
        } finally {
            client.close();
        }
    }

    /** Every fan has had all its tries and none is in flight (never with a room: fans wait there). */
    private boolean exhausted() {
        return room == null && nextNew >= crowd.size() && retrying.isEmpty() && holdsInFlight == 0;
    }

    private void dispatch(long now) {
        while (client.hasIdle() && !(control.isEmpty() && backlog.isEmpty())) {
            Req r = control.isEmpty() ? backlog.poll() : control.poll();
            if (r.resent > 0) {
                requests++;
                client.send(r.bytes, r, false);
                continue;
            }
            switch (r.kind) {
                case HOLD -> sendHold(r, now);
                case READ -> send(r, byCount() ? client.request("GET", target.areasPath(), null, null, null, null)
                        : client.request("GET", target.availabilityPath(), null, map.etag(), null, null), now);
                case SUMMARY -> send(r, client.request("GET", "/v1/shows/" + target.showId() + "/queue/summary", null, null,
                        null, null), now);
                case STATUS -> {
                    LoadRun.Ticket ticket = room.tickets().get(r.turn.buyer.accountId());
                    r.maxPassAtSend = maxPassPosition;
                    send(r, client.request("GET", "/v1/shows/" + target.showId() + "/queue/status", r.turn.buyer.token(),
                            null, "Queue-Token: " + ticket.queueToken(), null), now);
                }
                case WITHOUT_PASS -> sendWithoutPass(r, now);
                default -> throw new IllegalStateException("kind " + r.kind);
            }
        }
    }

    private void send(Req r, byte[] request, long now) {
        if (settings.resendLost() && r.kind != WITHOUT_PASS) {
            r.bytes = request; // a read is sent again after a lost connection too, as the web app does
        }
        requests++;
        sendLag.recordValue(Math.max(0, now - r.intended) / 1_000);
        client.send(request, r, false);
    }

    private void sendHold(Req r, long now) {
        Turn t = retrying.poll();
        if (t == null) {
            if (room != null) {
                t = ready.poll();
            } else if (nextNew < crowd.size()) {
                t = crowd.get(nextNew++);
            }
        }
        if (t == null) {
            // nobody to send: the crowd is done, or everyone left is waiting in the room
            idleArrivals++;
            return;
        }
        r.turn = t;
        ShowPlan.Section preferred = section(t.buyer);
        String body;
        if (byCount()) {
            body = target.admissionsBody(t.quantity);
        } else if (t.attempts == 0 && t.bestAvailableFirst) {
            body = LoadRun.bestAvailableBody(t.buyer.quantity(), preferred.name());
            stats.bestAvailableAttempts.increment();
        } else {
            int[] seats = t.next != null ? t.next : pick(preferred, t.buyer.quantity());
            body = LoadRun.seatsBody(seats, target.plan());
        }
        t.next = null;
        t.attempts++;
        holdsInFlight++;
        String pass = room == null ? null : passes.get(t.buyer.accountId());
        if (t.holdPrefix == null) {
            t.holdPrefix = client.prefix("POST", target.holdsPath(), t.buyer.token());
        }
        String extra = pass == null ? null : "Queue-Pass: " + pass;
        if (settings.resendLost()) {
            String key = "Idempotency-Key: " + target.showId() + "-" + t.buyer.accountId() + "-" + t.attempts;
            extra = extra == null ? key : extra + "\r\n" + key;
        }
        byte[] bytes = client.request(t.holdPrefix, null, extra, body);
        send(r, bytes, now);
    }

    /** A fan still waiting in the room tries to hold without a pass: the system must refuse it. */
    private void sendWithoutPass(Req r, long now) {
        int waitingFrom = Math.max(nextToAdmit, 0);
        if (waitingFrom >= crowd.size()) {
            return;
        }
        Turn t = crowd.get(waitingFrom + random.nextInt(crowd.size() - waitingFrom));
        if (passes.containsKey(t.buyer.accountId())) {
            return;
        }
        r.turn = t;
        withoutPassAttempts++;
        int[] seats = pick(section(t.buyer), t.buyer.quantity());
        send(r, client.request("POST", target.holdsPath(), t.buyer.token(), null, null, LoadRun.seatsBody(seats, target.plan())), now);
    }

    /**
     * Seats the map shows free together, else seats clicked anyway. Once the map showed no group of
     * a size, it cannot show one again before the next read (the answers only take seats away), so
     * the search over the whole map is skipped until then: after the sell-out, searching every row
     * for every attempt was the generator's largest cost in its profile.
     */
    private int[] pick(ShowPlan.Section preferred, int quantity) {
        boolean knownAbsent = noGroupEtag[quantity] != null && noGroupEtag[quantity].equals(map.etag())
                && map.freeCount() <= noGroupFree[quantity];
        int[] seats = knownAbsent ? null : chooser.pick(map, preferred, quantity, random);
        if (seats == null) {
            noGroupEtag[quantity] = map.etag();
            noGroupFree[quantity] = map.freeCount();
            seats = SeatChooser.anyGroup(preferred, quantity, random);
        }
        return seats;
    }

    private ShowPlan.Section section(Buyer b) {
        ShowPlan.Section s = target.plan().section(b.section());
        return s != null ? s : target.plan().sectionsByRank().get(0);
    }

    private void answered(Req r, HttpResponse response, long at) {
        long micros = Math.max(0, at - r.intended) / 1_000;
        int status = response.status();
        switch (r.kind) {
            case HOLD -> {
                holdsInFlight--;
                stats.attempts.increment();
                stats.holds.recordValue(micros);
                if (r.resent == 0) {
                    stats.firstTryHolds.recordValue(micros);
                }
                Turn t = r.turn;
                switch (status) {
                    case 201 -> {
                        stats.successfulHolds.recordValue(micros);
                        held(t.buyer, response, at);
                    }
                    case 409 -> {
                        stats.conflicts.increment();
                        if (byCount()) {
                            soldOut(t, response);
                            if (t.attempts <= settings.retries()) {
                                retrying.add(t);
                            }
                            return;
                        }
                        int[] next = conflict(response);
                        if (t.attempts <= settings.retries()) {
                            t.next = next;
                            retrying.add(t);
                        }
                    }
                    default -> stats.error(Integer.toString(status));
                }
            }
            case READ -> {
                stats.reads.recordValue(micros);
                stats.readCount.increment();
                if (byCount()) {
                    areaAnswer(response);
                    return;
                }
                readAnswer(response);
            }
            case SUMMARY -> {
                roomPolls++;
                if (status == 200) {
                    long admitted = response.json().path("admittedUpTo").asLong(admittedUpTo);
                    if (admitted > admittedUpTo) {
                        admittedUpTo = admitted;
                    }
                    askForPasses();
                } else {
                    stats.error("room-summary-" + status);
                }
            }
            case STATUS -> {
                roomPolls++;
                passRequested.remove(r.turn.buyer.accountId());
                if (status != 200) {
                    stats.error("queue-status-" + status);
                    return;
                }
                JsonNode json = response.json();
                if (json.hasNonNull("pass")) {
                    passes.put(r.turn.buyer.accountId(), json.get("pass").asText());
                    maxPassPosition = Math.max(maxPassPosition, r.turn.position);
                    ready.add(r.turn);
                } else {
                    waitingAnswers++;
                    if (r.turn.position < r.maxPassAtSend) {
                        inversions++;
                    }
                }
            }
            case WITHOUT_PASS -> {
                if (status == 201) {
                    withoutPassHolds++;
                    held(r.turn.buyer, response, at);
                }
            }
            default -> throw new IllegalStateException("kind " + r.kind);
        }
    }

    private void failedReq(Req r, long at) {
        if (r.bytes != null && r.resent < RESEND_AFTER_NANOS.length) {
            // the fan's app sends it again (a hold with the same key); the wait counts from the first send
            stats.error("transport-resent");
            r.resendAt = at + RESEND_AFTER_NANOS[r.resent++];
            resends.add(r);
            return;
        }
        stats.error("transport");
        if (r.kind == HOLD) {
            holdsInFlight--;
            stats.attempts.increment();
            stats.holds.recordValue(Math.max(0, at - r.intended) / 1_000);
        } else if (r.kind == STATUS) {
            passRequested.remove(r.turn.buyer.accountId());
        }
    }

    /** Asks for the pass of every place the room admitted, and for the next place not yet admitted. */
    private void askForPasses() {
        long now = System.nanoTime();
        while (nextToAdmit < crowd.size() && crowd.get(nextToAdmit).position <= admittedUpTo) {
            Turn t = crowd.get(nextToAdmit++);
            if (passRequested.add(t.buyer.accountId())) {
                Req s = new Req(STATUS, now);
                s.turn = t;
                control.add(s);
            }
        }
        if (nextToAdmit < crowd.size()) {
            Turn probe = crowd.get(nextToAdmit);
            if (passRequested.add(probe.buyer.accountId())) {
                Req s = new Req(STATUS, now);
                s.turn = probe;
                control.add(s);
            }
        }
    }

    /*
     * The answers are read with Jackson's streaming parser, not as a tree: the generator reads
     * thousands a second on the cores the systems under test need, and a tree costs several times
     * the parse (the HashMap puts of the tree's fields were among the generator's top frames).
     */

    private void held(Buyer buyer, HttpResponse response, long at) {
        lastSuccessNanos = Math.max(lastSuccessNanos, at);
        String holdId = null;
        List<String> seatIds = new ArrayList<>(4);
        long expiresAt = 0;
        int quantity = -1;
        try (JsonParser p = JSON.createParser(response.body())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not an object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "holdId" -> holdId = p.getText();
                    case "seatIds" -> {
                        while (p.nextToken() == JsonToken.VALUE_STRING) {
                            seatIds.add(p.getText());
                        }
                    }
                    case "expiresAt" -> expiresAt = value == JsonToken.VALUE_STRING ? Instant.parse(p.getText()).toEpochMilli() : 0;
                    case "quantity" -> quantity = value == JsonToken.VALUE_NUMBER_INT ? p.getIntValue() : -1;
                    default -> p.skipChildren();
                }
            }
        } catch (IOException | RuntimeException e) {
            stats.error("hold-malformed");
        }
        for (String id : seatIds) {
            int index = target.plan().indexOf(id);
            if (index >= 0) {
                map.set(index, SeatMap.HELD);
            }
        }
        int taken = byCount() ? Math.max(quantity, 0) : seatIds.size();
        acked.add(new AckedHold(holdId, buyer.accountId(), seatIds, expiresAt, taken));
        stats.successes.increment();
        stats.seatsHeld.add(taken);
    }

    /**
     * A 409 of a general-admission sale: a {@code SOLD_OUT} is noted with its time; the fan asks
     * next for what the answer says is left, if fewer than it asked for but some.
     */
    private void soldOut(Turn t, HttpResponse response) {
        String error = null;
        int left = -1;
        try (JsonParser p = JSON.createParser(response.body())) {
            if (p.nextToken() == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    JsonToken value = p.nextToken();
                    if (field.equals("error")) {
                        error = p.getText();
                    } else if (field.equals("left") && value == JsonToken.VALUE_NUMBER_INT) {
                        left = p.getIntValue();
                    } else {
                        p.skipChildren();
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            stats.error("sold-out-malformed");
            return;
        }
        if (!"SOLD_OUT".equals(error)) {
            stats.error("409-" + error);
            return;
        }
        soldOutAnswers.add(new SoldOutAnswer(System.currentTimeMillis(), t.quantity, left));
        soldOut |= left == 0;
        if (left > 0 && left < t.quantity) {
            t.quantity = left;
        }
    }

    /** A read of the show's areas: what the sold area has left. */
    private void areaAnswer(HttpResponse response) {
        if (response.status() != 200) {
            stats.error("read-" + response.status());
            return;
        }
        Integer left = areaLeft(response.json(), target.area());
        if (left == null) {
            stats.error("read-malformed");
            return;
        }
        if (left == 0) {
            soldOut = true;
        }
    }

    /** {@code left} of the named area in an areas answer ({@code {"showId":..,"areas":[{"name":..,"left":..},..]}}), or null. */
    public static Integer areaLeft(JsonNode answer, String area) {
        for (JsonNode a : answer.path("areas")) {
            if (area.equals(a.path("name").asText()) && a.path("left").isInt()) {
                return a.path("left").asInt();
            }
        }
        return null;
    }

    /** Notes the seats the 409 names as taken; returns one of the first offered alternatives, or null. */
    private int[] conflict(HttpResponse response) {
        // fans take one of the first three offers, not always the first
        int[][] offers = new int[3][];
        int offered = 0;
        try (JsonParser p = JSON.createParser(response.body())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (field.equals("unavailable") && value == JsonToken.START_ARRAY) {
                    while (p.nextToken() == JsonToken.VALUE_STRING) {
                        int index = target.plan().indexOf(p.getText());
                        if (index >= 0) {
                            map.set(index, SeatMap.HELD);
                        }
                    }
                } else if (field.equals("alternatives") && value == JsonToken.START_ARRAY) {
                    while (p.nextToken() == JsonToken.START_ARRAY) {
                        if (offered == offers.length) {
                            p.skipChildren();
                            continue;
                        }
                        int[] group = new int[4];
                        int n = 0;
                        boolean known = true;
                        while (p.nextToken() == JsonToken.VALUE_STRING) {
                            int index = target.plan().indexOf(p.getText());
                            known &= index >= 0;
                            if (n == group.length) {
                                group = java.util.Arrays.copyOf(group, n * 2);
                            }
                            group[n++] = index;
                        }
                        if (known && n > 0) {
                            offers[offered++] = java.util.Arrays.copyOf(group, n);
                        }
                    }
                } else {
                    p.skipChildren();
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return offered == 0 ? null : offers[random.nextInt(offered)];
    }

    private void readAnswer(HttpResponse response) {
        if (response.status() == 304) {
            stats.notModified.increment();
        } else if (response.status() == 200) {
            try {
                map.replaceFromResponse(response.body(), response.etag());
            } catch (IllegalArgumentException e) {
                stats.error("read-malformed");
                return;
            }
        } else {
            stats.error("read-" + response.status());
            return;
        }
        if (map.freeCount() == 0) {
            soldOut = true;
        }
    }

    private void readMapBlocking() throws IOException {
        if (byCount()) {
            return;
        }
        try (HttpConnection c = new HttpConnection(target.host(), target.port())) {
            HttpResponse r = c.get(target.availabilityPath(), null);
            if (r.status() == 200) {
                map.replaceFromResponse(r.body(), r.etag());
            }
        }
    }
}
