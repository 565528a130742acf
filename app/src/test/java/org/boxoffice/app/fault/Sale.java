package org.boxoffice.app.fault;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A sale in progress: {@code clients} buyers on virtual threads, each with a series of accounts
 * (an account may hold 10 seats of a show), picking 1-4 adjacent seats from a shared seat map
 * (half of them go for the best free seats, so buyers really race for the same seats), holding
 * them on a random live member, and then sometimes releasing or paying; plus one reader drawing
 * the seat map from the members. Every request and its outcome is recorded; every hold answered
 * 201 is an {@link Ack} whose fate the test checks afterwards.
 *
 * <p>A buyer whose request fails in transport (its member died under it) retries the same request
 * with the same {@code Idempotency-Key} on another member, as a real client would.
 */
final class Sale {

    static final Duration WRITE_TIMEOUT = Duration.ofSeconds(45);
    static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

    /** What a request was. */
    enum Kind { HOLD, RELEASE, CHECKOUT, AVAILABILITY, SEATS }

    /** One request and its outcome; status -1 means the transport failed (outcome unknown). */
    record Attempt(Kind kind, String member, long start, long end, int status, String code, String account,
                   List<String> seats, String holdId, boolean retry) {
        long millis() {
            return end - start;
        }
    }

    /** What became of an acknowledged hold, as far as its buyer knows. */
    enum State { HELD, RELEASED, RELEASE_UNKNOWN, BOOKED, CHECKOUT_UNKNOWN }

    /** A hold answered 201. */
    static final class Ack {
        final String holdId;
        final String account;
        final String token;
        final List<String> seats;
        final String member;
        final long at;
        final boolean afterRetry;
        volatile State state = State.HELD;
        volatile long bookingId;

        Ack(String holdId, String account, String token, List<String> seats, String member, long at, boolean afterRetry) {
            this.holdId = holdId;
            this.account = account;
            this.token = token;
            this.seats = seats;
            this.member = member;
            this.at = at;
            this.afterRetry = afterRetry;
        }

        @Override
        public String toString() {
            return holdId + "[" + account + " " + seats + " via " + member + " " + state
                    + (state == State.BOOKED ? " booking " + bookingId : "") + (afterRetry ? " after retry" : "") + "]";
        }
    }

    /**
     * @param clients       buyers
     * @param releaseShare  share of holds released at once (DELETE)
     * @param checkoutShare share of holds paid at once (card_ok); 0 when checkout is not there
     * @param thinkMillis   pause between a buyer's requests
     * @param holdsPerSecond cap on hold requests per second from all buyers together, so the show
     *                      does not sell out before the test is over on a fast machine
     */
    record Options(int clients, double releaseShare, double checkoutShare, long thinkMillis, int holdsPerSecond) {
    }

    private final FaultRig rig;
    private final FaultRig.ShowPlan plan;
    private final List<int[]> rows;
    private final Supplier<List<Member>> targets;
    private final Options options;
    private final String prefix;
    private final Queue<Attempt> attempts = new ConcurrentLinkedQueue<>();
    private final Map<String, Ack> acks = new ConcurrentHashMap<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicInteger accounts = new AtomicInteger();
    private final java.util.concurrent.atomic.AtomicLong nextSlot = new java.util.concurrent.atomic.AtomicLong();
    private volatile String[] view;
    private volatile boolean stopped;
    private volatile long startedAt;

    Sale(FaultRig rig, FaultRig.ShowPlan plan, Supplier<List<Member>> targets, Options options) {
        this.rig = rig;
        this.plan = plan;
        this.rows = plan.rows();
        this.targets = targets;
        this.options = options;
        this.prefix = plan.showId() + "-" + Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        String[] empty = new String[plan.seatOrder().size()];
        java.util.Arrays.fill(empty, "AVAILABLE");
        this.view = empty;
    }

    Sale start() {
        startedAt = System.currentTimeMillis();
        for (int i = 0; i < options.clients(); i++) {
            int client = i;
            threads.add(Thread.ofVirtual().name("buyer-" + i).start(() -> buyer(client)));
        }
        threads.add(Thread.ofVirtual().name("map-reader").start(this::reader));
        rig.log("sale of " + plan.showId() + " started: " + options);
        return this;
    }

    /** Stops every buyer after its current request and waits for them. */
    void stop() {
        stopped = true;
        for (Thread t : threads) {
            try {
                if (!t.join(WRITE_TIMEOUT.plusSeconds(15))) {
                    throw new AssertionError(t.getName() + " did not finish its last request");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        rig.log("sale stopped: " + summary());
        dump(rig.dir.resolve("requests.csv"));
    }

    /** Every request as CSV (times relative to the start of the sale), for reading after a failure. */
    void dump(java.nio.file.Path file) {
        StringBuilder b = new StringBuilder("kind,member,start_ms,millis,status,code,account,seats,hold,retry\n");
        for (Attempt a : attempts()) {
            b.append(a.kind()).append(',').append(a.member()).append(',').append(a.start() - startedAt).append(',')
                    .append(a.millis()).append(',').append(a.status()).append(',').append(a.code()).append(',')
                    .append(a.account()).append(',').append(String.join(" ", a.seats())).append(',')
                    .append(a.holdId() == null ? "" : a.holdId()).append(',').append(a.retry()).append('\n');
        }
        try {
            java.nio.file.Files.writeString(file, b);
        } catch (IOException e) {
            rig.log("could not write " + file + ": " + e);
        }
    }

    long startedAt() {
        return startedAt;
    }

    List<Attempt> attempts() {
        List<Attempt> out = new ArrayList<>(attempts);
        out.sort(Comparator.comparingLong(Attempt::start));
        return out;
    }

    Collection<Ack> acks() {
        return acks.values();
    }

    List<Attempt> attempts(Predicate<Attempt> filter) {
        return attempts().stream().filter(filter).toList();
    }

    long count(Predicate<Attempt> filter) {
        return attempts.stream().filter(filter).count();
    }

    /** 5xx answers other than 503: each one is a bug (an unmapped failure). */
    List<Attempt> serverErrors() {
        return attempts(a -> a.status() >= 500 && a.status() != 503);
    }

    /** Counts by kind and outcome, e.g. {@code HOLD 201=812 409=1204 503=40 io=3}. */
    String summary() {
        Map<Kind, Map<String, Integer>> by = new TreeMap<>();
        for (Attempt a : attempts) {
            String outcome = a.status() < 0 ? "io" : a.status() + (a.code().isEmpty() || a.status() < 300 ? "" : ":" + a.code());
            by.computeIfAbsent(a.kind(), k -> new TreeMap<>()).merge(outcome, 1, Integer::sum);
        }
        Map<State, Integer> states = new TreeMap<>();
        acks.values().forEach(a -> states.merge(a.state, 1, Integer::sum));
        Map<String, Integer> retries = new TreeMap<>();
        attempts.stream().filter(Attempt::retry).forEach(a -> retries.merge(a.status() < 0 ? "io"
                : a.status() + (a.code().isEmpty() || a.status() < 300 ? "" : ":" + a.code()), 1, Integer::sum));
        return by + " acknowledged holds " + acks.size() + " " + states + ", accounts " + accounts.get()
                + (retries.isEmpty() ? "" : ", hold retries with the same Idempotency-Key after a transport failure " + retries);
    }

    // ---------------------------------------------------------------- the buyers

    private final class Buyer {
        final String account;
        final String token;
        int seats;

        Buyer(String account, String token) {
            this.account = account;
            this.token = token;
        }
    }

    private void buyer(int client) {
        Buyer buyer = null;
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!stopped) {
            try {
                int n = 1 + random.nextInt(4);
                if (buyer == null || buyer.seats + n > 10) {
                    buyer = newBuyer(client);
                    if (buyer == null) {
                        continue;
                    }
                }
                List<Integer> picked = pick(n, random);
                if (picked.isEmpty()) {
                    FaultRig.sleep(100);
                    continue;
                }
                List<String> seatIds = picked.stream().map(plan.seatOrder()::get).toList();
                pace();
                HoldResult held = hold(buyer, seatIds);
                if (held.ack != null) {
                    buyer.seats += n;
                    String[] v = view;
                    for (int g : picked) {
                        v[g] = "HELD";
                    }
                    double r = random.nextDouble();
                    if (r < options.checkoutShare()) {
                        checkout(held.ack);
                    } else if (r < options.checkoutShare() + options.releaseShare()) {
                        release(held.ack);
                    }
                } else if (held.status == 422 && "ACCOUNT_LIMIT".equals(held.code)) {
                    buyer = null;
                } else if (held.status == 503 || held.status < 0) {
                    FaultRig.sleep(250);
                }
                FaultRig.sleep(options.thinkMillis());
            } catch (RuntimeException e) {
                rig.log("buyer " + client + " failed: " + e);
                FaultRig.sleep(200);
            }
        }
    }

    /** Waits for this buyer's slot: hold requests leave at most {@code holdsPerSecond} a second. */
    private void pace() {
        long interval = 1_000_000_000L / Math.max(1, options.holdsPerSecond());
        long now = System.nanoTime();
        long slot = nextSlot.getAndUpdate(next -> Math.max(next, now) + interval);
        long wait = Math.max(slot, now) - now;
        if (wait > 0) {
            FaultRig.sleep(wait / 1_000_000);
        }
    }

    private Buyer newBuyer(int client) {
        String account = prefix + "-b" + client + "-" + accounts.incrementAndGet();
        String body = "{\"accountId\":" + Http.quote(account) + "}";
        for (int attempt = 0; attempt < 20 && !stopped; attempt++) {
            Member m = target(null);
            if (m == null) {
                FaultRig.sleep(100);
                continue;
            }
            try {
                Http.Reply r = rig.http.post(m.base, "/v1/dev/tokens", null, body, null, READ_TIMEOUT);
                if (r.status() == 201) {
                    return new Buyer(account, r.json().get("token").asText());
                }
            } catch (IOException e) {
                // that member is going away; ask another
            }
            FaultRig.sleep(100);
        }
        return null;
    }

    private record HoldResult(int status, String code, Ack ack) {
    }

    private HoldResult hold(Buyer buyer, List<String> seatIds) {
        StringBuilder body = new StringBuilder("{\"seatIds\":[");
        for (int i = 0; i < seatIds.size(); i++) {
            body.append(i > 0 ? "," : "").append('"').append(seatIds.get(i)).append('"');
        }
        body.append("]}");
        String key = UUID.randomUUID().toString();
        Member previous = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            Member m = target(previous);
            if (m == null) {
                return new HoldResult(-1, "", null);
            }
            previous = m;
            long start = System.currentTimeMillis();
            try {
                Http.Reply r = rig.http.post(m.base, "/v1/shows/" + plan.showId() + "/holds", buyer.token,
                        body.toString(), key, WRITE_TIMEOUT);
                long end = System.currentTimeMillis();
                String code = r.status() == 201 ? "" : r.code();
                Ack ack = null;
                String holdId = null;
                if (r.status() == 201) {
                    JsonNode j = r.json();
                    holdId = j.get("holdId").asText();
                    List<String> heldSeats = new ArrayList<>();
                    j.get("seatIds").forEach(s -> heldSeats.add(s.asText()));
                    ack = new Ack(holdId, buyer.account, buyer.token, List.copyOf(heldSeats), m.name, end, attempt > 0);
                    Ack before = acks.putIfAbsent(holdId, ack);
                    if (before != null) {
                        ack = before;
                    }
                }
                attempts.add(new Attempt(Kind.HOLD, m.name, start, end, r.status(), code, buyer.account, seatIds,
                        holdId, attempt > 0));
                return new HoldResult(r.status(), code, ack);
            } catch (IOException e) {
                attempts.add(new Attempt(Kind.HOLD, m.name, start, System.currentTimeMillis(), -1,
                        e.getClass().getSimpleName(), buyer.account, seatIds, null, attempt > 0));
                FaultRig.sleep(100);
            }
        }
        return new HoldResult(-1, "", null);
    }

    private void checkout(Ack ack) {
        String key = UUID.randomUUID().toString();
        Member m = target(null);
        if (m == null) {
            return;
        }
        long start = System.currentTimeMillis();
        try {
            Http.Reply r = rig.http.post(m.base, "/v1/holds/" + ack.holdId + "/checkout", ack.token,
                    "{\"paymentMethod\":\"card_ok\"}", key, WRITE_TIMEOUT);
            if (r.status() == 200 && "BOOKED".equals(r.json().path("status").asText())) {
                ack.bookingId = r.json().get("bookingId").asLong();
                ack.state = State.BOOKED;
            } else if (r.status() != 402) {
                // 402 leaves the hold as it was; anything else may or may not have booked it
                ack.state = State.CHECKOUT_UNKNOWN;
            }
            attempts.add(new Attempt(Kind.CHECKOUT, m.name, start, System.currentTimeMillis(), r.status(),
                    r.status() < 300 ? "" : r.code(), ack.account, ack.seats, ack.holdId, false));
        } catch (IOException e) {
            ack.state = State.CHECKOUT_UNKNOWN;
            attempts.add(new Attempt(Kind.CHECKOUT, m.name, start, System.currentTimeMillis(), -1,
                    e.getClass().getSimpleName(), ack.account, ack.seats, ack.holdId, false));
        }
    }

    private void release(Ack ack) {
        Member m = target(null);
        if (m == null) {
            return;
        }
        long start = System.currentTimeMillis();
        try {
            Http.Reply r = rig.http.delete(m.base, "/v1/holds/" + ack.holdId, ack.token, WRITE_TIMEOUT);
            ack.state = r.status() == 204 ? State.RELEASED : State.RELEASE_UNKNOWN;
            attempts.add(new Attempt(Kind.RELEASE, m.name, start, System.currentTimeMillis(), r.status(),
                    r.status() < 300 ? "" : r.code(), ack.account, ack.seats, ack.holdId, false));
        } catch (IOException e) {
            ack.state = State.RELEASE_UNKNOWN;
            attempts.add(new Attempt(Kind.RELEASE, m.name, start, System.currentTimeMillis(), -1,
                    e.getClass().getSimpleName(), ack.account, ack.seats, ack.holdId, false));
        }
    }

    /**
     * 1-4 adjacent seats that the shared map shows as free: half the time among the first free
     * runs of the show (everyone wants the best seats), otherwise in a random row; one pick in
     * ten ignores the map (a stale map, a typing buyer).
     */
    private List<Integer> pick(int n, ThreadLocalRandom random) {
        String[] v = view;
        if (random.nextInt(10) == 0) {
            int[] row = rows.get(random.nextInt(rows.size()));
            int len = row[1] - row[0];
            if (len < n) {
                return List.of();
            }
            int from = row[0] + random.nextInt(len - n + 1);
            return range(from, n);
        }
        if (random.nextBoolean()) {
            List<Integer> candidates = new ArrayList<>();
            for (int[] row : rows) {
                for (int g = row[0]; g + n <= row[1] && candidates.size() < 6; g++) {
                    if (free(v, g, n)) {
                        candidates.add(g);
                        g += n - 1;
                    }
                }
                if (candidates.size() >= 6) {
                    break;
                }
            }
            return candidates.isEmpty() ? List.of() : range(candidates.get(random.nextInt(candidates.size())), n);
        }
        for (int tries = 0; tries < 20; tries++) {
            int[] row = rows.get(random.nextInt(rows.size()));
            int len = row[1] - row[0];
            if (len < n) {
                continue;
            }
            int offset = random.nextInt(len);
            for (int i = 0; i <= len - n; i++) {
                int g = row[0] + (offset + i) % (len - n + 1);
                if (free(v, g, n)) {
                    return range(g, n);
                }
            }
        }
        return List.of();
    }

    private static boolean free(String[] v, int from, int n) {
        for (int g = from; g < from + n; g++) {
            if (!"AVAILABLE".equals(v[g])) {
                return false;
            }
        }
        return true;
    }

    private static List<Integer> range(int from, int n) {
        List<Integer> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(from + i);
        }
        return out;
    }

    /** A random live member, another than {@code not} when there is one. */
    private Member target(Member not) {
        List<Member> live = targets.get();
        if (live.isEmpty()) {
            return null;
        }
        if (not != null && live.size() > 1) {
            List<Member> others = live.stream().filter(m -> m != not).toList();
            if (!others.isEmpty()) {
                return others.get(ThreadLocalRandom.current().nextInt(others.size()));
            }
        }
        return live.get(ThreadLocalRandom.current().nextInt(live.size()));
    }

    // ---------------------------------------------------------------- the seat-map reader

    /** Draws the seat map (availability, and one section's seat list now and then) from the members. */
    private void reader() {
        long i = 0;
        while (!stopped) {
            Member m = target(null);
            if (m == null) {
                FaultRig.sleep(100);
                continue;
            }
            Kind kind = i++ % 4 == 3 ? Kind.SEATS : Kind.AVAILABILITY;
            String path = "/v1/shows/" + plan.showId() + (kind == Kind.SEATS ? "/seats?section=A" : "/availability");
            long start = System.currentTimeMillis();
            try {
                Http.Reply r = rig.http.get(m.base, path, null, READ_TIMEOUT);
                attempts.add(new Attempt(kind, m.name, start, System.currentTimeMillis(), r.status(),
                        r.status() < 300 ? "" : r.code(), "", List.of(), null, false));
                if (r.status() == 200 && kind == Kind.AVAILABILITY) {
                    view = FaultRig.decodeAvailability(r.json());
                }
            } catch (IOException e) {
                attempts.add(new Attempt(kind, m.name, start, System.currentTimeMillis(), -1,
                        e.getClass().getSimpleName(), "", List.of(), null, false));
            }
            FaultRig.sleep(200);
        }
    }
}
