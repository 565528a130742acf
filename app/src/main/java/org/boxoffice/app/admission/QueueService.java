package org.boxoffice.app.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.Json;
import org.boxoffice.app.http.Refusal;
import org.boxoffice.app.http.Refusals;
import org.boxoffice.app.ops.OpsMetrics;
import org.boxoffice.domain.Show;
import org.boxoffice.grid.room.RoomView;
import org.boxoffice.grid.room.WaitingRoom;
import org.boxoffice.grid.room.WaitingRooms;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The waiting room over HTTP.
 *
 * <pre>
 * curl -X POST localhost:8080/v1/shows/echoes-berlin-1/queue -H "Authorization: Bearer $TOKEN" -H "Challenge-Solution: $SOLVED"
 * curl 'localhost:8080/v1/shows/echoes-berlin-1/queue/status?wait=20' -H "Authorization: Bearer $TOKEN" -H "Queue-Token: $QT"
 * curl localhost:8080/v1/shows/echoes-berlin-1/queue/summary
 * curl -X PUT localhost:8080/v1/admin/shows/echoes-berlin-1/queue -H "Authorization: Bearer $ADMIN" --json '{"mode":"ON","admissionRate":20}'
 * curl localhost:8080/v1/admin/shows/echoes-berlin-1/queue -H "Authorization: Bearer $ADMIN"
 * </pre>
 */
public final class QueueService implements HttpService {

    public static final HeaderName QUEUE_TOKEN = HeaderNames.create("Queue-Token");
    private static final int MAX_WAIT_SECONDS = 30;
    /** A challenge above this would keep a phone busy for minutes. */
    static final int MAX_DIFFICULTY = 100_000;

    private final Authenticator auth;
    private final ShowDirectory shows;
    private final WaitingRooms rooms;
    private final PassTokens tokens;
    private final long passMillis;
    private final double defaultRate;
    private final double defaultSeatsPerBuyer;
    private final long tickMillis;
    private final LongSupplier clock;
    private final OpsMetrics metrics;
    private final AdmissionGate gate;
    private final int defaultDifficulty;

    /**
     * @param settings the pass lifetime, the room's tick, and the rate, seats per buyer and challenge
     *                 difficulty of a room turned on without its own
     */
    public QueueService(Authenticator auth, ShowDirectory shows, WaitingRooms rooms, PassTokens tokens, AdmissionGate gate,
                        AdmissionSettings settings, LongSupplier clock, OpsMetrics metrics) {
        this.metrics = metrics;
        this.gate = gate;
        this.defaultDifficulty = settings.door().challengeDifficulty();
        this.auth = auth;
        this.shows = shows;
        this.rooms = rooms;
        this.tokens = tokens;
        this.passMillis = settings.passTtl().toMillis();
        this.defaultRate = settings.admissionRate();
        this.defaultSeatsPerBuyer = settings.seatsPerBuyer();
        this.tickMillis = settings.tick().toMillis();
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/shows/{showId}/queue", this::join)
                .get("/shows/{showId}/queue/status", this::status)
                .get("/shows/{showId}/queue/summary", this::summary)
                .get("/admin/shows/{showId}/queue", this::adminView)
                .put("/admin/shows/{showId}/queue", this::configure);
    }

    private Show show(ServerRequest req) {
        String id = req.path().pathParameters().get("showId");
        return shows.find(id).orElseThrow(() -> ApiException.notFound("show " + id));
    }

    private void join(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        Show show = show(req);
        RoomView room = rooms.summary(show.showId()).filter(r -> r.active(clock.getAsLong()))
                .orElseThrow(() -> notActive(show));
        gate.requireSolution(req, caller, show.showId(), room.challengeDifficulty());
        gate.atTheDoor(req, caller, show.showId());
        RoomView v = rooms.join(show.showId(), caller.accountId()).orElseThrow(() -> notActive(show));
        String queueToken = tokens.queueToken(caller.accountId(), show.showId(), v.position(), tokenTtl(show));
        res.header(HeaderNames.CACHE_CONTROL, "private, no-store");
        Json.send(res, 200, statusBody(v, v.position(), queueToken));
    }

    private void status(ServerRequest req, ServerResponse res) {
        Principal caller = auth.require(req);
        Show show = show(req);
        int wait = waitSeconds(req);
        String token = req.headers().first(QUEUE_TOKEN).or(() -> req.query().first("token").asOptional())
                .orElseThrow(() -> ApiException.badRequest("send the queue token in the Queue-Token header"));
        PassTokens.Check check = tokens.verify(token, "queue");
        if (!check.ok() || !check.claims().accountId().equals(caller.accountId()) || !check.claims().showId().equals(show.showId())) {
            throw Refusals.of(Refusal.QUEUE_TOKEN_INVALID, "this queue token is not valid for this account and show");
        }
        long deadline = clock.getAsLong() + wait * 1000L;
        long position = check.claims().position();
        while (true) {
            RoomView summary = rooms.summary(show.showId()).orElseThrow(() -> notActive(show));
            if (position == 0 && summary.shuffled()) {
                position = rooms.lookup(show.showId(), caller.accountId()).map(RoomView::position).orElse(0L);
                token = tokens.queueToken(caller.accountId(), show.showId(), position, tokenTtl(show));
            }
            boolean admitted = position > 0 && position <= summary.admittedUpTo();
            if (admitted || clock.getAsLong() >= deadline) {
                Map<String, Object> body = statusBody(summary, position, token);
                if (admitted) {
                    // one admission, one pass: signed from the admission itself, so every poll gets the same one
                    long admittedAt = rooms.lookup(show.showId(), caller.accountId()).map(RoomView::admittedAt).orElse(0L);
                    if (admittedAt == 0) {
                        body.put("status", "PASS_EXPIRED");
                        body.put("pass", null);
                    } else {
                        body.put("pass", tokens.pass(caller.accountId(), show.showId(), position, admittedAt, passMillis));
                        body.put("passExpiresAt", Instant.ofEpochMilli(admittedAt + passMillis));
                    }
                }
                res.header(HeaderNames.CACHE_CONTROL, "private, no-store");
                Json.send(res, 200, body);
                return;
            }
            sleep(Math.min(tickMillis, Math.max(1, deadline - clock.getAsLong())));
        }
    }

    /** Public counters: a CDN may cache them briefly; a waiting page computes its progress from its token's position. */
    private void summary(ServerRequest req, ServerResponse res) {
        Show show = show(req);
        RoomView v = rooms.summary(show.showId()).orElse(null);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("showId", show.showId());
        m.put("active", v != null && v.active(clock.getAsLong()));
        if (v != null) {
            m.put("opensAt", Instant.ofEpochMilli(v.opensAt()));
            m.put("length", v.length() + (v.shuffled() ? 0 : v.preQueueSize()));
            m.put("admittedUpTo", v.admittedUpTo());
            m.put("admissionRate", v.ratePerSecond());
            m.put("challengeDifficulty", v.challengeDifficulty());
        }
        // public, as every public read is, unless the request carries a token (then nobody keeps it)
        res.header(HeaderNames.CACHE_CONTROL, req.headers().contains(HeaderNames.AUTHORIZATION)
                ? org.boxoffice.app.http.HttpCaching.PRIVATE : new org.boxoffice.app.http.HttpCaching.Policy(1, 2).header());
        Json.send(res, 200, m);
    }

    private void adminView(ServerRequest req, ServerResponse res) {
        admin(req);
        Show show = show(req);
        RoomView v = rooms.lookup(show.showId(), null).orElseThrow(() -> ApiException.notFound("waiting room of " + show.showId()));
        Json.send(res, 200, adminBody(v));
    }

    private void configure(ServerRequest req, ServerResponse res) {
        admin(req);
        Show show = show(req);
        JsonNode b = Json.body(req);
        b.fieldNames().forEachRemaining(f -> {
            if (!Set.of("mode", "admissionRate", "seatsPerBuyer", "challengeDifficulty").contains(f)) {
                throw ApiException.badRequest("unknown field '" + f + "'");
            }
        });
        JsonNode modeNode = b.get("mode");
        WaitingRoom.Mode mode;
        try {
            mode = WaitingRoom.Mode.valueOf(modeNode == null ? "" : modeNode.asText());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("'mode' is ON, OFF or AUTO (on from 30 minutes before the sale opens until 2 hours after)");
        }
        double rate = number(b, "admissionRate", defaultRate, 0.1, 100_000);
        double seatsPerBuyer = number(b, "seatsPerBuyer", defaultSeatsPerBuyer, 1, 100);
        JsonNode d = b.get("challengeDifficulty");
        if (d != null && !d.isNull() && (!d.isIntegralNumber() || !d.canConvertToInt() || d.asInt() < 0 || d.asInt() > MAX_DIFFICULTY)) {
            throw ApiException.badRequest("'challengeDifficulty' is a whole number from 0 (no challenge) to " + MAX_DIFFICULTY);
        }
        int difficulty = d == null || d.isNull() ? defaultDifficulty : d.asInt();
        RoomView v = rooms.configure(show.showId(), mode, show.sale().opensAt(), rate, seatsPerBuyer, passMillis, difficulty);
        meter(show.showId());
        Json.send(res, 200, adminBody(v));
    }

    /** Exports a waiting room's counters once an admin has configured it. */
    private void meter(String showId) {
        metrics.gauge("boxoffice_queue_length", "positions handed out by the show's waiting room", "show", showId,
                () -> rooms.summary(showId).map(v -> v.length() + (v.shuffled() ? 0 : v.preQueueSize())).orElse(0L));
        metrics.gauge("boxoffice_queue_admitted", "positions admitted by the show's waiting room", "show", showId,
                () -> rooms.summary(showId).map(v -> v.admittedUpTo()).orElse(0L));
        metrics.gauge("boxoffice_admission_rate", "configured admissions per second", "show", showId,
                () -> rooms.summary(showId).map(v -> v.ratePerSecond()).orElse(0.0));
    }

    private Map<String, Object> statusBody(RoomView v, long position, String queueToken) {
        Map<String, Object> m = new LinkedHashMap<>();
        boolean admitted = position > 0 && position <= v.admittedUpTo();
        m.put("status", position == 0 ? "PRE_QUEUE" : admitted ? "ADMITTED" : "WAITING");
        m.put("position", position == 0 ? null : position);
        long ahead = position == 0 ? v.preQueueSize() : Math.max(0, position - v.admittedUpTo() - 1);
        m.put("ahead", admitted ? 0 : ahead);
        m.put("admitted", admitted);
        long untilOpen = Math.max(0, v.opensAt() - clock.getAsLong());
        m.put("estimatedWaitSeconds", admitted ? 0 : (long) Math.ceil(untilOpen / 1000.0 + ahead / Math.max(0.1, v.ratePerSecond())));
        m.put("opensAt", Instant.ofEpochMilli(v.opensAt()));
        m.put("queueToken", queueToken);
        return m;
    }

    private Map<String, Object> adminBody(RoomView v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("showId", v.showId());
        m.put("mode", v.mode().name());
        m.put("active", v.active(clock.getAsLong()));
        m.put("opensAt", Instant.ofEpochMilli(v.opensAt()));
        m.put("length", v.length());
        m.put("preQueue", v.preQueueSize());
        m.put("admitted", v.admittedUpTo());
        m.put("admissionRate", v.ratePerSecond());
        m.put("seatsPerBuyer", v.seatsPerBuyer());
        m.put("passes", v.validPasses());
        m.put("shuffled", v.shuffled());
        m.put("shuffleSeed", v.shuffled() ? Long.toString(v.seed()) : null);
        m.put("challengeDifficulty", v.challengeDifficulty());
        return m;
    }

    private long tokenTtl(Show show) {
        return Math.max(24 * 3_600_000L, show.sale().opensAt() - clock.getAsLong() + 24 * 3_600_000L);
    }

    private void admin(ServerRequest req) {
        if (!auth.require(req).isAdmin()) {
            throw Refusals.of(Refusal.FORBIDDEN, "this needs the admin role");
        }
    }

    private static int waitSeconds(ServerRequest req) {
        Optional<String> w = req.query().first("wait").asOptional();
        if (w.isEmpty()) {
            return 0;
        }
        try {
            int v = Integer.parseInt(w.get());
            if (v < 0 || v > MAX_WAIT_SECONDS) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("'wait' is a number of seconds from 0 to " + MAX_WAIT_SECONDS);
        }
    }

    private static double number(JsonNode b, String field, double fallback, double min, double max) {
        JsonNode n = b.get(field);
        if (n == null || n.isNull()) {
            return fallback;
        }
        if (!n.isNumber() || n.asDouble() < min || n.asDouble() > max) {
            throw ApiException.badRequest("'" + field + "' must be a number from " + min + " to " + max);
        }
        return n.asDouble();
    }

    private static ApiException notActive(Show show) {
        return Refusals.of(Refusal.QUEUE_NOT_ACTIVE, "show " + show.showId() + " is not selling through a waiting room now; hold seats directly");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
