package org.boxoffice.bench.load;

import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.bench.check.AckedHold;
import org.boxoffice.bench.http.ChallengeSolver;
import org.boxoffice.bench.http.HttpConnection;
import org.boxoffice.bench.http.HttpResponse;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The scripted share of an on-sale's crowd: controllers, each running many accounts from one
 * client address, with no think time, never waiting in the room. What they try, in turn:
 * <ul>
 *   <li>holds without a pass (skipping the room), with a forged pass, and with a pass another of
 *       the swarm's accounts was given (sharing) — each refused hold retried at once, and one
 *       account hammered for {@value #BURST} holds before the next (past the per-account limit);</li>
 *   <li>joins without solving the challenge, with a solved challenge used again (replaying) and with
 *       one solved for another account (sharing);</li>
 *   <li>asking the door for {@value #FLOOD} challenges at once (past the per-address limit).</li>
 * </ul>
 * Each controller's first account (its <em>lead</em>) joined the room honestly with the crowd and
 * buys like a fan (in the crowd's run); the swarm polls the leads' status for their passes, to
 * share them. Requests are paced to {@code requestsPerSecond} in all (an open loop: a late slot is
 * sent at once), spread over a few threads with a keep-alive connection each.
 */
public final class BotSwarm {

    public static final int ACCOUNTS_PER_CONTROLLER = 100;
    /** Hold requests one account makes before the controller moves to its next account. */
    static final int BURST = 150;
    static final int WORKERS = 8;
    /** Challenges a controller asks for in one go when it floods the door. */
    static final int FLOOD = 20;
    private static final String FORGED_PASS = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJib3QiLCJ0eXAiOiJwYXNzIn0."
            + "c2lnbmVkLWJ5LW5vYm9keS1hdC1hbGwtYXQtYWxsLWF0LWFsbA";

    /** One controller: its address, its accounts (the first is its lead) and the lead's queue token. */
    public record Controller(String address, List<String> accountIds, List<String> tokens, String leadQueueToken) {
    }

    /**
     * What the swarm did: requests by outcome ({@code "403 PASS_REQUIRED"}, {@code "201"}), the holds it got.
     */
    public record Report(long requests, double seconds, Map<String, Long> outcomes, List<AckedHold> acked) {
        public long seats() {
            return acked.stream().mapToLong(a -> a.seatIds().size()).sum();
        }
    }

    enum Action { HOLD_WITHOUT_PASS, HOLD_FORGED_PASS, HOLD_SHARED_PASS, JOIN_WITHOUT_CHALLENGE, JOIN_REPLAYED_CHALLENGE,
        JOIN_SHARED_CHALLENGE, CHALLENGE_FLOOD }

    private static final Action[] REFUSED = {Action.HOLD_WITHOUT_PASS, Action.HOLD_FORGED_PASS, Action.HOLD_SHARED_PASS,
        Action.JOIN_WITHOUT_CHALLENGE, Action.JOIN_REPLAYED_CHALLENGE, Action.JOIN_SHARED_CHALLENGE};

    private final Target target;
    private final List<Controller> controllers;
    private final long seed;
    private final Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
    private final List<AckedHold> acked = Collections.synchronizedList(new ArrayList<>());
    private final Map<Integer, String> leadPasses = new ConcurrentHashMap<>();
    private final AtomicLong requests = new AtomicLong();
    /**
     * Per controller (each is driven by one thread only): the account hammering holds, the holds it
     * has left, and the one challenge solution the controller spent and keeps replaying and sharing.
     */
    private final int[] burstAccount;
    private final int[] burstLeft;
    private final String[] spentSolution;

    public BotSwarm(Target target, List<Controller> controllers, long seed) {
        this.target = target;
        this.controllers = controllers;
        this.seed = seed;
        this.burstAccount = new int[controllers.size()];
        this.burstLeft = new int[controllers.size()];
        this.spentSolution = new String[controllers.size()];
    }

    /** The same swarm, its leads' queue tokens taken from the room they joined with the crowd. */
    public BotSwarm withLeadTickets(LoadRun.Room room) {
        List<Controller> with = controllers.stream().map(c -> new Controller(c.address(), c.accountIds(), c.tokens(),
                room.tickets().get(c.accountIds().get(0)).queueToken())).toList();
        return new BotSwarm(target, with, seed);
    }

    public int controllers() {
        return controllers.size();
    }

    /** What the swarm's threads send. */
    public enum Mix {
        /** Everything a bot tries, challenges fetched and solved and passes scouted included. */
        BOTS,
        /** Only what the service refuses: holds without, with forged or shared passes; joins without, with replayed or shared challenges. */
        REFUSALS,
        /** A plain request: the public room summary, the cheapest answer the service gives. */
        PLAIN,
        /** A plain request with a bearer token: asking a show without a room for a challenge (409). */
        PLAIN_SIGNED_IN
    }

    /** Runs the swarm's mix for {@code limit} (or until {@code stop} says so) at {@code requestsPerSecond}. */
    public Report run(double requestsPerSecond, Duration limit, java.util.function.BooleanSupplier stop) {
        return drive(requestsPerSecond, limit, stop, Mix.BOTS, null);
    }

    /**
     * Requests of one {@link Mix} at the same pace from the same threads, to price them.
     *
     * @param quietShow a show without a room, for {@link Mix#PLAIN_SIGNED_IN}
     */
    public Report price(Mix mix, double requestsPerSecond, Duration limit, String quietShow) {
        return drive(requestsPerSecond, limit, () -> false, mix, quietShow);
    }

    private Report drive(double requestsPerSecond, Duration limit, java.util.function.BooleanSupplier stop, Mix mix,
                         String quietShow) {
        outcomes.clear();
        acked.clear();
        requests.set(0);
        long interval = (long) (1e9 / requestsPerSecond);
        long start = System.nanoTime();
        long end = start + limit.toNanos();
        AtomicLong nextSlot = new AtomicLong(start);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            int worker = w;
            threads.add(Thread.ofPlatform().name("bench-bot-" + w).daemon().start(() ->
                    work(worker, nextSlot, interval, end, stop, mix, quietShow)));
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        Map<String, Long> counted = new TreeMap<>();
        outcomes.forEach((k, v) -> counted.put(k, v.sum()));
        return new Report(requests.get(), (System.nanoTime() - start) / 1e9, counted, List.copyOf(acked));
    }

    /** One thread: the controllers {@code worker}, {@code worker + WORKERS}, … in turn, one request per slot. */
    private void work(int worker, AtomicLong nextSlot, long interval, long end, java.util.function.BooleanSupplier stop,
                      Mix mix, String quietShow) {
        SplittableRandom random = new SplittableRandom(seed * 31 + worker);
        List<Integer> mine = new ArrayList<>();
        for (int i = worker; i < controllers.size(); i += WORKERS) {
            mine.add(i);
        }
        if (mine.isEmpty()) {
            return;
        }
        Action[] actions = Action.values();
        int turn = 0;
        try (HttpConnection c = new HttpConnection(target.host(), target.port())) {
            while (!stop.getAsBoolean()) {
                long slot = nextSlot.getAndAdd(interval);
                if (slot >= end) {
                    return;
                }
                long wait = slot - System.nanoTime();
                if (wait > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait);
                }
                int ci = mine.get(turn % mine.size());
                Controller ctl = controllers.get(ci);
                String from = "X-Forwarded-For: " + ctl.address();
                try {
                    switch (mix) {
                        case PLAIN -> count(c.send("GET", "/v1/shows/" + target.showId() + "/queue/summary", null, null, from,
                                null));
                        case PLAIN_SIGNED_IN -> count(c.send("GET", "/v1/challenge?showId=" + quietShow,
                                ctl.tokens().get(turn % ctl.tokens().size()), null, from, null));
                        case REFUSALS -> {
                            Action a = REFUSED[turn % REFUSED.length];
                            if (a != Action.JOIN_WITHOUT_CHALLENGE && a.name().startsWith("JOIN") && spentSolution[ci] == null) {
                                a = Action.JOIN_WITHOUT_CHALLENGE;
                            }
                            act(c, a, ci, ctl, from, random);
                        }
                        case BOTS -> {
                            if (turn % 25 == 0 && !leadPasses.containsKey(ci)) {
                                scoutLeadPass(c, ci, ctl, from);
                            } else {
                                act(c, actions[turn % actions.length], ci, ctl, from, random);
                            }
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    outcomes.computeIfAbsent("transport", k -> new LongAdder()).increment();
                }
                turn++;
            }
        }
    }

    private void act(HttpConnection c, Action action, int ci, Controller ctl, String from, SplittableRandom random)
            throws IOException {
        List<String> tokens = ctl.tokens();
        switch (action) {
            case HOLD_WITHOUT_PASS, HOLD_FORGED_PASS, HOLD_SHARED_PASS -> {
                if (burstLeft[ci] <= 0) {
                    burstAccount[ci] = 1 + random.nextInt(tokens.size() - 1);
                    burstLeft[ci] = BURST;
                }
                String token = tokens.get(burstAccount[ci]);
                String pass = switch (action) {
                    case HOLD_FORGED_PASS -> FORGED_PASS;
                    case HOLD_SHARED_PASS -> sharedPass(ci);
                    default -> null;
                };
                // a refused hold is tried again at once, as a script does
                for (int attempt = 0; attempt < 2 && burstLeft[ci] > 0; attempt++) {
                    burstLeft[ci]--;
                    int[] seats = SeatChooser.anyGroup(target.plan().sectionsByRank().get(0), 1, random);
                    HttpResponse r = c.send("POST", target.holdsPath(), token, null,
                            pass == null ? from : from + "\r\nQueue-Pass: " + pass, LoadRun.seatsBody(seats, target.plan()));
                    count(r);
                    if (r.status() == 201) {
                        held(ctl.accountIds().get(burstAccount[ci]), r);
                        break;
                    }
                }
            }
            case JOIN_WITHOUT_CHALLENGE -> count(c.send("POST", queuePath(), tokens.get(1 + random.nextInt(tokens.size() - 1)),
                    null, from, null));
            case JOIN_REPLAYED_CHALLENGE, JOIN_SHARED_CHALLENGE -> {
                if (spentSolution[ci] == null) {
                    // one challenge solved honestly by one account, once; the rest of the script reuses it
                    String token = tokens.get(1);
                    HttpResponse challenge = c.send("GET", "/v1/challenge?showId=" + target.showId(), token, null, from, null);
                    count(challenge);
                    if (challenge.status() != 200) {
                        return;
                    }
                    spentSolution[ci] = ChallengeSolver.solve(challenge.json());
                    count(c.send("POST", queuePath(), token, null, from + "\r\nChallenge-Solution: " + spentSolution[ci], null));
                    return;
                }
                String token = action == Action.JOIN_REPLAYED_CHALLENGE ? tokens.get(1)
                        : tokens.get(2 + random.nextInt(tokens.size() - 2));
                count(c.send("POST", queuePath(), token, null, from + "\r\nChallenge-Solution: " + spentSolution[ci], null));
            }
            case CHALLENGE_FLOOD -> {
                // as many challenges as the door hands out, for one account after another
                for (int i = 0; i < FLOOD; i++) {
                    count(c.send("GET", "/v1/challenge?showId=" + target.showId(),
                            tokens.get(1 + random.nextInt(tokens.size() - 1)), null, from, null));
                }
            }
        }
    }

    /** A pass another controller's lead was given, to share; a forged one while no lead has one yet. */
    private String sharedPass(int ci) {
        for (Map.Entry<Integer, String> e : leadPasses.entrySet()) {
            if (e.getKey() != ci || leadPasses.size() == 1) {
                return e.getValue();
            }
        }
        return FORGED_PASS;
    }

    private void scoutLeadPass(HttpConnection c, int ci, Controller ctl, String from) throws IOException {
        HttpResponse r = c.send("GET", "/v1/shows/" + target.showId() + "/queue/status", ctl.tokens().get(0), null,
                from + "\r\nQueue-Token: " + ctl.leadQueueToken(), null);
        count(r);
        if (r.status() == 200) {
            JsonNode pass = r.json().path("pass");
            if (pass.isTextual()) {
                leadPasses.put(ci, pass.asText());
            }
        }
    }

    private void held(String accountId, HttpResponse r) {
        JsonNode j = r.json();
        List<String> seats = new ArrayList<>();
        j.path("seatIds").forEach(s -> seats.add(s.asText()));
        String expires = j.path("expiresAt").asText();
        acked.add(new AckedHold(j.path("holdId").asText(), accountId, seats,
                expires.isEmpty() ? 0 : java.time.Instant.parse(expires).toEpochMilli()));
    }

    private String queuePath() {
        return "/v1/shows/" + target.showId() + "/queue";
    }

    private void count(HttpResponse r) {
        requests.incrementAndGet();
        String key = Integer.toString(r.status());
        if (r.status() >= 400) {
            String code = r.json().path("error").asText("");
            key = key + (code.isEmpty() ? "" : " " + code);
        }
        outcomes.computeIfAbsent(key, k -> new LongAdder()).increment();
    }
}
