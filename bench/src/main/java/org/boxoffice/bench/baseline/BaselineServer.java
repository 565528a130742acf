package org.boxoffice.bench.baseline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.helidon.http.HeaderNames;
import io.helidon.logging.common.LogConfig;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.bench.load.SeatMap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

/**
 * The PostgreSQL-only designs behind the same HTTP API shape as Boxoffice, on the same web server
 * (Helidon SE, virtual thread per request), so a comparison measures the claim path and not the
 * HTTP stack. Run by the bench as a child process of its own, like the service.
 *
 * <pre>
 * java -cp boxoffice-bench.jar org.boxoffice.bench.baseline.BaselineServer --port 8090 \
 *      --db-url jdbc:postgresql://localhost:5432/boxoffice --db-user postgres --pool 16 --secret ...
 * curl -X POST localhost:8090/v1/shows/bl-cond-1/holds -H "Authorization: Bearer $T" -d '{"seatIds":["A-1-1"]}'
 * curl -X DELETE localhost:8090/v1/holds/$HOLD -H "Authorization: Bearer $T"
 * curl -i localhost:8090/v1/shows/bl-cond-1/availability
 * </pre>
 *
 * <p>Holds: {@code seatIds} are claimed with the show's {@link ClaimStrategy} in one transaction;
 * {@code bestAvailable} reads free seats of the section in stage order, picks the first adjacent
 * group and claims it (three tries). A refusal answers 409 with the seats found taken and up to
 * three free groups of the same size nearby (one more query). The seat map is read from the seat
 * rows at most every {@value #MAP_REFRESH_MS} ms (Boxoffice's snapshot interval) and served with
 * an ETag. What these designs do not do, and Boxoffice does: per-account limits, idempotency keys,
 * audit rows, hold expiry. All of that favours the baseline.
 *
 * <p>General admission: {@code {"area":"FLOOR","quantity":n}} claims n admissions of the area with
 * its {@link CountStrategy} in one transaction with the hold row, all or nothing; while the area
 * still has enough left by its committed count (a striped claim skipped stripes others had locked),
 * the claim tries again under a new hold id, up to {@value #ADMISSION_TRIES} times as Boxoffice
 * does; then 409 {@code SOLD_OUT} with {@code left}. {@code GET /v1/shows/{id}/areas} answers what
 * each area has left (read at most every {@value #MAP_REFRESH_MS} ms). Holds by count are not
 * released (the stampede never releases).
 *
 * <pre>
 * curl -X POST localhost:8090/v1/shows/bl-area-1/holds -H "Authorization: Bearer $T" -d '{"area":"FLOOR","quantity":2}'
 * curl localhost:8090/v1/shows/bl-area-1/areas
 * </pre>
 */
public final class BaselineServer {

    static final long MAP_REFRESH_MS = 250;
    private static final int MAX_SEATS = 10;
    private static final int BEST_AVAILABLE_TRIES = 3;
    private static final int ALTERNATIVES = 3;
    static final int ADMISSION_TRIES = 8;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HikariDataSource db;
    private final Hs256 tokens;
    private final Map<String, ShowInfo> shows = new ConcurrentHashMap<>();
    private final Map<String, MapCache> maps = new ConcurrentHashMap<>();
    private final Map<String, AreaInfo> areas = new ConcurrentHashMap<>();
    private final Map<String, AreasView> areaViews = new ConcurrentHashMap<>();
    private final String holdPrefix = "B" + Long.toString(System.currentTimeMillis(), 36).toUpperCase() + "-";
    private final AtomicLong holdSequence = new AtomicLong();

    /** What the server needs to know about a show; read once. */
    private record ShowInfo(String showId, ClaimStrategy strategy, long holdMillis, List<String> sections, int seatCount) {
    }

    /** A general-admission area: how it is claimed; read once. */
    private record AreaInfo(String showId, String area, CountStrategy strategy, int stripes, long holdMillis) {
    }

    /** A show's areas answer as last read. */
    private record AreasView(long builtAt, byte[] json) {
    }

    private static final class MapCache {
        final AtomicBoolean refreshing = new AtomicBoolean();
        volatile SeatMapView view;
    }

    private record SeatMapView(long builtAt, String etag, byte[] json) {
    }

    private static final class ApiError extends RuntimeException {
        final int status;
        final Map<String, Object> body;

        ApiError(int status, String code, String message, Map<String, Object> details) {
            super(message, null, false, false);
            this.status = status;
            this.body = new LinkedHashMap<>();
            body.put("error", code);
            body.put("message", message);
            body.putAll(details);
        }

        ApiError(int status, String code, String message) {
            this(status, code, message, Map.of());
        }
    }

    BaselineServer(HikariDataSource db, Hs256 tokens) {
        this.db = db;
        this.tokens = tokens;
    }

    public static void main(String[] args) {
        LogConfig.configureRuntime();
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i], args[i + 1]);
        }
        HikariConfig config = new HikariConfig();
        config.setPoolName("baseline-pg");
        config.setJdbcUrl(required(options, "--db-url"));
        config.setUsername(options.getOrDefault("--db-user", "postgres"));
        config.setPassword(options.getOrDefault("--db-password", ""));
        int pool = Integer.parseInt(options.getOrDefault("--pool", "16"));
        config.setMaximumPoolSize(pool);
        config.setMinimumIdle(pool);
        config.setConnectionTimeout(10_000);
        config.addDataSourceProperty("ApplicationName", "baseline-pg");
        HikariDataSource db = new HikariDataSource(config);
        BaselineServer server = new BaselineServer(db, new Hs256(required(options, "--secret")));
        WebServer web = WebServer.builder()
                .host("127.0.0.1")
                .port(Integer.parseInt(options.getOrDefault("--port", "0")))
                // as the service: an answer's headers and body must not wait for a delayed ACK
                .connectionOptions(o -> o.tcpNoDelay(true))
                .routing(r -> r.register(server::routing))
                .build()
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            web.stop();
            db.close();
        }, "baseline-shutdown"));
        System.out.println("baseline server listening on " + web.port() + " with a pool of " + pool);
    }

    private static String required(Map<String, String> options, String name) {
        String v = options.get(name);
        if (v == null) {
            throw new IllegalArgumentException(name + " is required");
        }
        return v;
    }

    void routing(HttpRules rules) {
        rules.post("/v1/shows/{showId}/holds", (req, res) -> handle(res, () -> hold(req)))
                .delete("/v1/holds/{holdId}", (req, res) -> handle(res, () -> release(req)))
                .get("/v1/shows/{showId}/availability", this::availability)
                .get("/v1/shows/{showId}/areas", (req, res) -> handle(res, () -> areas(req.path().pathParameters().get("showId"))))
                .get("/health", (req, res) -> res.send("ok"));
    }

    private interface Handler {
        Reply handle() throws SQLException, IOException;
    }

    private record Reply(int status, Object body) {
    }

    private static void handle(ServerResponse res, Handler handler) {
        Reply reply;
        try {
            reply = handler.handle();
        } catch (ApiError e) {
            reply = new Reply(e.status, e.body);
        } catch (SQLException e) {
            reply = new Reply(503, Map.of("error", "DATABASE", "message", String.valueOf(e.getMessage())));
        } catch (IOException e) {
            reply = new Reply(400, Map.of("error", "BAD_REQUEST", "message", "malformed JSON"));
        }
        res.status(reply.status());
        if (reply.body() == null) {
            res.send();
            return;
        }
        try {
            res.header(HeaderNames.CONTENT_TYPE, "application/json");
            // a body already encoded (the areas answer) goes as it is
            res.send(reply.body() instanceof byte[] encoded ? encoded : JSON.writeValueAsBytes(reply.body()));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private String account(ServerRequest req) {
        Optional<String> header = req.headers().first(HeaderNames.AUTHORIZATION);
        String account = header.filter(h -> h.startsWith("Bearer "))
                .map(h -> tokens.verify(h.substring(7), System.currentTimeMillis() / 1000))
                .orElse(null);
        if (account == null) {
            throw new ApiError(401, "UNAUTHORIZED", "a valid bearer token is required");
        }
        return account;
    }

    private ShowInfo show(String showId) throws SQLException {
        ShowInfo cached = shows.get(showId);
        if (cached != null) {
            return cached;
        }
        try (Connection c = db.getConnection();
             PreparedStatement show = c.prepareStatement("SELECT strategy, hold_millis FROM baseline.shows WHERE show_id = ?");
             PreparedStatement sections = c.prepareStatement("""
                     SELECT section, count(*) FROM baseline.seats WHERE show_id = ? GROUP BY section ORDER BY min(idx)""")) {
            show.setString(1, showId);
            ClaimStrategy strategy;
            long holdMillis;
            try (ResultSet rs = show.executeQuery()) {
                if (!rs.next()) {
                    throw new ApiError(404, "NOT_FOUND", "no show " + showId);
                }
                strategy = ClaimStrategy.valueOf(rs.getString(1));
                holdMillis = rs.getLong(2);
            }
            List<String> names = new ArrayList<>();
            int seats = 0;
            sections.setString(1, showId);
            try (ResultSet rs = sections.executeQuery()) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                    seats += rs.getInt(2);
                }
            }
            ShowInfo info = new ShowInfo(showId, strategy, holdMillis, List.copyOf(names), seats);
            shows.put(showId, info);
            return info;
        }
    }

    private Reply hold(ServerRequest req) throws SQLException, IOException {
        String account = account(req);
        String showId = req.path().pathParameters().get("showId");
        JsonNode body = JSON.readTree(req.content().as(byte[].class));
        if (body == null || !body.isObject()) {
            throw new ApiError(400, "BAD_REQUEST", "the body must be a JSON object");
        }
        if (body.hasNonNull("area")) {
            return admissions(showId, body.get("area").asText(), body.path("quantity").asInt(0), account);
        }
        ShowInfo show = show(showId);
        if (body.has("seatIds")) {
            TreeSet<String> ids = new TreeSet<>();
            for (JsonNode id : body.get("seatIds")) {
                ids.add(id.asText());
            }
            if (ids.isEmpty() || ids.size() > MAX_SEATS || ids.size() != body.get("seatIds").size()) {
                throw new ApiError(422, "TOO_MANY_SEATS", "a hold takes 1 to " + MAX_SEATS + " distinct seats");
            }
            String[] seatIds = ids.toArray(String[]::new);
            try (Connection c = db.getConnection()) {
                Object outcome = claim(c, show, seatIds, account);
                if (outcome instanceof Reply held) {
                    return held;
                }
                @SuppressWarnings("unchecked")
                List<String> refused = (List<String>) outcome;
                return refusal(c, show, seatIds, refused);
            }
        }
        JsonNode best = body.path("bestAvailable");
        int quantity = best.path("quantity").asInt(0);
        if (quantity < 1 || quantity > MAX_SEATS) {
            throw new ApiError(422, "TOO_MANY_SEATS", "a hold takes 1 to " + MAX_SEATS + " seats");
        }
        String section = best.hasNonNull("section") ? best.get("section").asText() : null;
        if (section != null && !show.sections().contains(section)) {
            throw new ApiError(422, "UNKNOWN_SECTION", "this show has no section " + section);
        }
        try (Connection c = db.getConnection()) {
            int tries = 0;
            for (String s : section != null ? List.of(section) : show.sections()) {
                while (tries < BEST_AVAILABLE_TRIES) {
                    String[] group = firstFreeGroup(c, show.showId(), s, quantity);
                    if (group == null) {
                        break;
                    }
                    tries++;
                    if (claim(c, show, group, account) instanceof Reply held) {
                        return held;
                    }
                }
            }
        }
        throw new ApiError(409, "SEATS_UNAVAILABLE", "no " + quantity + " adjacent seats are available",
                Map.of("unavailable", List.of(), "alternatives", List.of()));
    }

    private AreaInfo area(String showId, String name) throws SQLException {
        String key = showId + "/" + name;
        AreaInfo cached = areas.get(key);
        if (cached != null) {
            return cached;
        }
        try (Connection c = db.getConnection();
             PreparedStatement read = c.prepareStatement(
                     "SELECT strategy, stripes, hold_millis FROM baseline.areas WHERE show_id = ? AND area = ?")) {
            read.setString(1, showId);
            read.setString(2, name);
            try (ResultSet rs = read.executeQuery()) {
                if (!rs.next()) {
                    throw new ApiError(422, "UNKNOWN_AREA", "show " + showId + " has no area " + name);
                }
                AreaInfo info = new AreaInfo(showId, name, CountStrategy.valueOf(rs.getString(1)), rs.getInt(2), rs.getLong(3));
                areas.put(key, info);
                return info;
            }
        }
    }

    /** A hold of {@code quantity} admissions: 201, or 409 SOLD_OUT once the committed count has fewer left. */
    private Reply admissions(String showId, String name, int quantity, String account) throws SQLException {
        AreaInfo area = area(showId, name);
        if (quantity < 1 || quantity > MAX_SEATS) {
            throw new ApiError(422, "TOO_MANY_SEATS", "a hold takes 1 to " + MAX_SEATS + " admissions");
        }
        int left = 0;
        try (Connection c = db.getConnection()) {
            for (int attempt = 0; attempt < ADMISSION_TRIES; attempt++) {
                String holdId = holdPrefix + holdSequence.incrementAndGet();
                long expiresAt = System.currentTimeMillis() + area.holdMillis();
                int start = ThreadLocalRandom.current().nextInt(area.stripes());
                c.setAutoCommit(false);
                try {
                    if (area.strategy().claim(c, showId, name, quantity, area.stripes(), start, holdId, account,
                            new Timestamp(expiresAt))) {
                        c.commit();
                        Map<String, Object> out = new LinkedHashMap<>();
                        out.put("holdId", holdId);
                        out.put("showId", showId);
                        out.put("accountId", account);
                        out.put("seatIds", List.of());
                        out.put("area", name);
                        out.put("quantity", quantity);
                        out.put("status", "HELD");
                        out.put("expiresAt", Instant.ofEpochMilli(expiresAt).toString());
                        return new Reply(201, out);
                    }
                    c.rollback();
                } catch (SQLException e) {
                    c.rollback();
                    throw e;
                } finally {
                    c.setAutoCommit(true);
                }
                left = remaining(c, showId, name);
                if (left < quantity) {
                    break;
                }
            }
        }
        throw new ApiError(409, "SOLD_OUT", "area " + name + " has " + left + " admissions left, fewer than the "
                + quantity + " asked for", Map.of("left", left));
    }

    /** What the area has left by its committed count. */
    private static int remaining(Connection c, String showId, String area) throws SQLException {
        try (PreparedStatement read = c.prepareStatement(
                "SELECT coalesce(sum(remaining), 0) FROM baseline.area_counters WHERE show_id = ? AND area = ?")) {
            read.setString(1, showId);
            read.setString(2, area);
            try (ResultSet rs = read.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** Every area of the show with its capacity and what it has left, read at most every {@value #MAP_REFRESH_MS} ms. */
    private Reply areas(String showId) throws SQLException, IOException {
        AreasView view = areaViews.get(showId);
        long now = System.currentTimeMillis();
        if (view == null || now - view.builtAt() >= MAP_REFRESH_MS) {
            List<Map<String, Object>> out = new ArrayList<>();
            try (Connection c = db.getConnection();
                 PreparedStatement read = c.prepareStatement("""
                         SELECT area, sum(capacity), sum(remaining) FROM baseline.area_counters
                         WHERE show_id = ? GROUP BY area ORDER BY area""")) {
                read.setString(1, showId);
                try (ResultSet rs = read.executeQuery()) {
                    while (rs.next()) {
                        Map<String, Object> a = new LinkedHashMap<>();
                        a.put("name", rs.getString(1));
                        a.put("capacity", rs.getInt(2));
                        a.put("left", rs.getInt(3));
                        out.add(a);
                    }
                }
            }
            if (out.isEmpty()) {
                throw new ApiError(404, "NOT_FOUND", "no areas in show " + showId);
            }
            // the service's shape: {"showId": ..., "areas": [{"name", "capacity", "left"}, ...]}
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("showId", showId);
            answer.put("areas", out);
            view = new AreasView(now, JSON.writeValueAsBytes(answer));
            areaViews.put(showId, view);
        }
        return new Reply(200, view.json());
    }

    /** A {@link Reply} when held; otherwise the seats the strategy found taken. */
    private Object claim(Connection c, ShowInfo show, String[] seatIds, String account) throws SQLException {
        String holdId = holdPrefix + holdSequence.incrementAndGet();
        long expiresAt = System.currentTimeMillis() + show.holdMillis();
        c.setAutoCommit(false);
        try {
            List<String> refused = show.strategy().claim(c, show.showId(), seatIds, holdId, account, new Timestamp(expiresAt));
            if (refused == null) {
                c.commit();
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("holdId", holdId);
                out.put("showId", show.showId());
                out.put("accountId", account);
                out.put("seatIds", List.of(seatIds));
                out.put("status", "HELD");
                out.put("expiresAt", Instant.ofEpochMilli(expiresAt).toString());
                return new Reply(201, out);
            }
            c.rollback();
            return refused;
        } catch (SQLException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    record Place(String seatId, int row, int number, boolean free) {
    }

    /** 409 with the requested seats found taken and free groups of the same size in nearby rows. */
    private Reply refusal(Connection c, ShowInfo show, String[] seatIds, List<String> refused) throws SQLException {
        String[] first = seatIds[0].split("-");
        List<String> unavailable = new ArrayList<>(refused);
        List<List<String>> alternatives = new ArrayList<>();
        if (first.length == 3) {
            int row = Integer.parseInt(first[1]);
            int number = Integer.parseInt(first[2]);
            List<Place> places = new ArrayList<>();
            try (PreparedStatement near = c.prepareStatement("""
                    SELECT seat_id, row_no, number, state = 'AVAILABLE' FROM baseline.seats
                    WHERE show_id = ? AND section = ? AND row_no BETWEEN ? AND ? ORDER BY row_no, number""")) {
                near.setString(1, show.showId());
                near.setString(2, first[0]);
                near.setInt(3, row - 2);
                near.setInt(4, row + 2);
                try (ResultSet rs = near.executeQuery()) {
                    while (rs.next()) {
                        places.add(new Place(rs.getString(1), rs.getInt(2), rs.getInt(3), rs.getBoolean(4)));
                    }
                }
            }
            if (unavailable.isEmpty()) {
                List<String> requested = Arrays.asList(seatIds);
                places.stream().filter(p -> !p.free() && requested.contains(p.seatId())).forEach(p -> unavailable.add(p.seatId()));
            }
            alternatives = nearestGroups(places, seatIds.length, row, number);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", "SEATS_UNAVAILABLE");
        body.put("message", "some of these seats were just taken");
        body.put("unavailable", unavailable);
        body.put("alternatives", alternatives);
        return new Reply(409, body);
    }

    /** Non-overlapping runs of {@code size} free adjacent seats, nearest the requested place first. */
    static List<List<String>> nearestGroups(List<Place> places, int size, int row, int number) {
        record Group(List<String> seats, int distance) {
        }
        List<Group> groups = new ArrayList<>();
        List<Place> run = new ArrayList<>();
        Place previous = null;
        for (Place p : places) {
            boolean continues = previous != null && p.row() == previous.row() && p.number() == previous.number() + 1;
            if (!p.free() || !continues) {
                run.clear();
            }
            if (p.free()) {
                run.add(p);
                if (run.size() == size) {
                    Place start = run.get(0);
                    groups.add(new Group(run.stream().map(Place::seatId).toList(),
                            Math.abs(start.row() - row) * 1000 + Math.abs(start.number() - number)));
                    run.clear();
                    // the next seat starts a new run only if it is adjacent to this one
                }
            }
            previous = p;
        }
        return groups.stream().sorted(Comparator.comparingInt(Group::distance)).limit(ALTERNATIVES)
                .map(Group::seats).toList();
    }

    /** The first {@code size} adjacent free seats of a section, front rows first; null if none. */
    private static String[] firstFreeGroup(Connection c, String showId, String section, int size) throws SQLException {
        try (PreparedStatement free = c.prepareStatement("""
                SELECT seat_id, row_no, number FROM baseline.seats
                WHERE show_id = ? AND section = ? AND state = 'AVAILABLE' ORDER BY row_no, number LIMIT 1000""")) {
            free.setString(1, showId);
            free.setString(2, section);
            List<String> run = new ArrayList<>();
            int lastRow = -1;
            int lastNumber = -1;
            try (ResultSet rs = free.executeQuery()) {
                while (rs.next()) {
                    int row = rs.getInt(2);
                    int number = rs.getInt(3);
                    if (row != lastRow || number != lastNumber + 1) {
                        run.clear();
                    }
                    run.add(rs.getString(1));
                    if (run.size() == size) {
                        return run.stream().sorted().toArray(String[]::new);
                    }
                    lastRow = row;
                    lastNumber = number;
                }
            }
        }
        return null;
    }

    private Reply release(ServerRequest req) throws SQLException {
        String account = account(req);
        String holdId = req.path().pathParameters().get("holdId");
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement end = c.prepareStatement("""
                    UPDATE baseline.holds SET status = 'RELEASED'
                    WHERE hold_id = ? AND account_id = ? AND status = 'ACTIVE' AND area IS NULL RETURNING show_id, seat_ids""");
                 PreparedStatement free = c.prepareStatement("""
                         UPDATE baseline.seats SET state = 'AVAILABLE', hold_id = NULL, holder = NULL, held_until = NULL,
                                version = version + 1
                         WHERE show_id = ? AND seat_id = ANY (?) AND hold_id = ?""")) {
                end.setString(1, holdId);
                end.setString(2, account);
                String showId;
                Array seats;
                try (ResultSet rs = end.executeQuery()) {
                    if (!rs.next()) {
                        c.rollback();
                        throw new ApiError(404, "NOT_FOUND", "no active hold " + holdId);
                    }
                    showId = rs.getString(1);
                    seats = rs.getArray(2);
                }
                free.setString(1, showId);
                free.setArray(2, seats);
                free.setString(3, holdId);
                free.executeUpdate();
                c.commit();
                return new Reply(204, null);
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
    }

    private void availability(ServerRequest req, ServerResponse res) {
        String showId = req.path().pathParameters().get("showId");
        SeatMapView view;
        try {
            ShowInfo show = show(showId);
            view = seatMap(show);
        } catch (ApiError e) {
            res.status(e.status).send(e.getMessage());
            return;
        } catch (SQLException e) {
            res.status(503).send(e.getMessage());
            return;
        }
        res.header(HeaderNames.ETAG, view.etag());
        Optional<String> ifNoneMatch = req.headers().first(HeaderNames.IF_NONE_MATCH);
        if (ifNoneMatch.isPresent() && ifNoneMatch.get().equals(view.etag())) {
            res.status(304).send();
            return;
        }
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(view.json());
    }

    /** The cached map; one request at a time redraws it once it is older than the refresh interval. */
    private SeatMapView seatMap(ShowInfo show) throws SQLException {
        MapCache cache = maps.computeIfAbsent(show.showId(), k -> new MapCache());
        SeatMapView view = cache.view;
        long now = System.currentTimeMillis();
        if (view != null && now - view.builtAt() < MAP_REFRESH_MS) {
            return view;
        }
        if (view != null && !cache.refreshing.compareAndSet(false, true)) {
            return view;
        }
        try {
            byte[] statuses = new byte[show.seatCount()];
            try (Connection c = db.getConnection();
                 PreparedStatement read = c.prepareStatement(
                         "SELECT idx, state FROM baseline.seats WHERE show_id = ? ORDER BY idx")) {
                read.setString(1, show.showId());
                try (ResultSet rs = read.executeQuery()) {
                    while (rs.next()) {
                        statuses[rs.getInt(1)] = switch (rs.getString(2)) {
                            case "AVAILABLE" -> SeatMap.AVAILABLE;
                            case "HELD" -> SeatMap.HELD;
                            case "SOLD" -> SeatMap.SOLD;
                            default -> SeatMap.BLOCKED;
                        };
                    }
                }
            }
            CRC32 crc = new CRC32();
            crc.update(statuses);
            String version = Long.toHexString(crc.getValue());
            String json = "{\"showId\":\"" + show.showId() + "\",\"version\":\"" + version + "\",\"seatCount\":"
                    + statuses.length + ",\"encoding\":\"2bit-base64\",\"data\":\"" + SeatMap.encode(statuses) + "\"}";
            SeatMapView fresh = new SeatMapView(now, "\"" + show.showId() + "-" + version + "\"",
                    json.getBytes(StandardCharsets.UTF_8));
            cache.view = fresh;
            return fresh;
        } finally {
            cache.refreshing.set(false);
        }
    }
}
