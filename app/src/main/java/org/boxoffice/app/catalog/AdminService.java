package org.boxoffice.app.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.Json;
import org.boxoffice.app.http.Refusal;
import org.boxoffice.app.http.Refusals;
import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.AdmissionRepository;
import org.boxoffice.domain.CatalogRepository;
import org.boxoffice.domain.Event;
import org.boxoffice.domain.HoldPolicy;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.SaleWindow;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.domain.Venue;
import org.boxoffice.grid.Admissions;
import org.boxoffice.grid.BlockOutcome;
import org.boxoffice.grid.Seats;
import org.boxoffice.grid.ShowSnapshots;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * Admin operations (role {@code admin}): create a show from a regular seating plan (or with no
 * seats at all, for a show sold by count only), take seats off sale or put them back, and give a
 * show general-admission areas (sold by count) and change their capacity.
 *
 * <pre>
 * curl -X POST localhost:8080/v1/admin/shows -H "Authorization: Bearer $ADMIN" --json '{"eventId":"midnight-echoes",
 *   "startsAt":"2027-06-01T20:00:00Z","sections":[{"name":"A","price":"99.00","rows":20,"seatsPerRow":25}]}'
 * curl -X POST localhost:8080/v1/admin/shows/echoes-berlin-1/seats/block -H "Authorization: Bearer $ADMIN" \
 *   --json '{"seatIds":["A-1-1"],"reason":"camera platform"}'
 * curl -X POST localhost:8080/v1/admin/shows/echoes-berlin-1/areas -H "Authorization: Bearer $ADMIN" \
 *   --json '{"name":"FLOOR","capacity":2000,"price":"59.00"}'
 * curl -X PUT localhost:8080/v1/admin/shows/echoes-berlin-1/areas/FLOOR/capacity -H "Authorization: Bearer $ADMIN" \
 *   --json '{"capacity":2500}'
 * </pre>
 */
public final class AdminService implements HttpService {

    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");
    /** A price: whole units and up to two decimals, small enough that its cents fit any long. */
    private static final Pattern PRICE = Pattern.compile("[0-9]{1,9}(\\.[0-9]{1,2})?");

    private final Authenticator auth;
    private final CatalogRepository catalog;
    private final ShowDirectory shows;
    private final Seats seats;
    private final ShowSnapshots snapshots;
    private final HoldDefaults defaults;
    private final Consumer<Show> announce;
    private final Admissions admissions;
    private final LongSupplier clock;

    public AdminService(Authenticator auth, CatalogRepository catalog, ShowDirectory shows, Seats seats,
                        ShowSnapshots snapshots, HoldDefaults defaults, Consumer<Show> announce,
                        Admissions admissions, LongSupplier clock) {
        this.admissions = admissions;
        this.auth = auth;
        this.catalog = catalog;
        this.shows = shows;
        this.seats = seats;
        this.snapshots = snapshots;
        this.defaults = defaults;
        this.announce = announce;
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/admin/shows", this::createShow)
                .post("/admin/shows/{showId}/seats/block", (req, res) -> changeSeats(req, res, true))
                .post("/admin/shows/{showId}/seats/unblock", (req, res) -> changeSeats(req, res, false))
                .post("/admin/shows/{showId}/areas", this::createArea)
                .put("/admin/shows/{showId}/areas/{area}/capacity", this::changeCapacity);
    }

    /** A general-admission area: a name no section or area of the show has, a capacity, a price per admission. */
    private void createArea(ServerRequest req, ServerResponse res) {
        admin(req);
        String showId = req.path().pathParameters().get("showId");
        Show show = shows.find(showId).orElseThrow(() -> ApiException.notFound("show " + showId));
        JsonNode b = Json.body(req);
        allowOnly(b, Set.of("name", "capacity", "price", "stripes"));
        String name = text(b, "name", true);
        if (!name.matches(AdmissionArea.NAME_PATTERN)) {
            throw ApiException.badRequest("'name' is 1-16 letters or digits");
        }
        if (show.layout().section(name).isPresent()) {
            throw Refusals.of(Refusal.AREA_EXISTS, "show " + showId + " has a seated section " + name);
        }
        int capacity = integer(b, "capacity", 0, 1, AdmissionArea.MAX_CAPACITY);
        long priceCents = priceCents(text(b, "price", true));
        int stripes = integer(b, "stripes", Math.min(AdmissionArea.defaultStripes(capacity), capacity), 1,
                Math.min(AdmissionArea.MAX_STRIPES, capacity));
        AdmissionArea area = new AdmissionArea(showId, name, capacity, priceCents, stripes);
        if (!admissions.create(area)) {
            throw Refusals.of(Refusal.AREA_EXISTS, "show " + showId + " has an area " + name + " already");
        }
        res.header("Location", "/v1/shows/" + showId + "/areas");
        Json.send(res, 201, areaAnswer(area, capacity, 0));
    }

    /** An area's new capacity: never below the admissions held and sold in it. */
    private void changeCapacity(ServerRequest req, ServerResponse res) {
        admin(req);
        String showId = req.path().pathParameters().get("showId");
        String name = req.path().pathParameters().get("area");
        shows.find(showId).orElseThrow(() -> ApiException.notFound("show " + showId));
        JsonNode b = Json.body(req);
        allowOnly(b, Set.of("capacity"));
        int capacity = integer(b, "capacity", -1, 0, AdmissionArea.MAX_CAPACITY);
        AdmissionArea area = admissions.area(showId, name)
                .orElseThrow(() -> ApiException.notFound("area " + name + " of show " + showId));
        switch (admissions.resize(area, capacity)) {
            case AdmissionRepository.Resize.Done done -> Json.send(res, 200, areaAnswer(area, capacity, done.taken()));
            case AdmissionRepository.Resize.BelowTaken below -> throw Refusals.of(Refusal.CAPACITY_BELOW_TAKEN,
                    below.taken() + " admissions of area " + name + " are held or sold: its capacity cannot go below that",
                    Map.of("taken", below.taken()));
            case AdmissionRepository.Resize.NoArea none -> throw ApiException.notFound("area " + name + " of show " + showId);
        }
    }

    private static Map<String, Object> areaAnswer(AdmissionArea area, int capacity, int taken) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("showId", area.showId());
        out.put("name", area.name());
        out.put("capacity", capacity);
        out.put("price", BigDecimal.valueOf(area.priceCents(), 2));
        out.put("stripes", area.stripes());
        out.put("taken", taken);
        return out;
    }

    private static long priceCents(String priceText) {
        if (!PRICE.matcher(priceText).matches()) {
            throw ApiException.badRequest("'price' is a decimal string such as \"49.90\": up to 9 digits, "
                    + "at most 2 decimals, no sign or exponent");
        }
        return new BigDecimal(priceText).movePointRight(2).longValueExact();
    }

    private Principal admin(ServerRequest req) {
        Principal p = auth.require(req);
        if (!p.isAdmin()) {
            throw Refusals.of(Refusal.FORBIDDEN, "this needs the admin role");
        }
        return p;
    }

    private void createShow(ServerRequest req, ServerResponse res) {
        admin(req);
        JsonNode b = Json.body(req);
        allowOnly(b, Set.of("showId", "eventId", "startsAt", "saleOpensAt", "saleClosesAt", "currency",
                "maxSeatsPerHold", "maxPerAccount", "holdSeconds", "graceSeconds", "blockGroups", "cancelHours", "sections"));
        String eventId = text(b, "eventId", true);
        Event event = shows.event(eventId).orElseThrow(() -> Refusals.of(Refusal.UNKNOWN_EVENT, "no event " + eventId));
        Venue venue = shows.venue(event.venueId()).orElseThrow();
        String showId = text(b, "showId", false);
        if (showId == null) {
            showId = eventId + "-" + Long.toString(clock.getAsLong(), 36);
        }
        if (!ID.matcher(showId).matches()) {
            throw ApiException.badRequest("'showId' must be lower-case letters, digits and '-', at most 63 characters");
        }
        long now = clock.getAsLong();
        long startsAt = time(b, "startsAt", null);
        long opensAt = time(b, "saleOpensAt", now);
        long closesAt = time(b, "saleClosesAt", startsAt);
        if (closesAt <= opensAt) {
            throw ApiException.badRequest("the sale must close after it opens");
        }
        String currency = text(b, "currency", false);
        currency = currency == null ? "EUR" : currency;
        if (!currency.matches("[A-Z]{3}")) {
            throw ApiException.badRequest("'currency' is a three-letter ISO code");
        }
        HoldPolicy policy;
        try {
            policy = new HoldPolicy(integer(b, "maxSeatsPerHold", defaults.maxSeatsPerHold(), 1, 100),
                    integer(b, "maxPerAccount", defaults.maxPerAccount(), 1, 1000),
                    integer(b, "holdSeconds", (int) defaults.duration().toSeconds(), 1, 86_400) * 1000L,
                    integer(b, "graceSeconds", (int) defaults.grace().toSeconds(), 0, 60) * 1000L);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        // no seated sections: a show of general-admission areas only, added through .../areas
        JsonNode sections = b.has("sections") ? b.get("sections") : Json.MAPPER.createArrayNode();
        if (!sections.isArray() || sections.size() > 200) {
            throw ApiException.badRequest("'sections' must be an array of up to 200 sections");
        }
        List<SeatPlan.SectionPlan> plan = new ArrayList<>();
        Set<String> names = new HashSet<>();
        int rank = 0;
        long totalSeats = 0;
        for (JsonNode s : sections) {
            if (!s.isObject()) {
                throw ApiException.badRequest("each section is an object");
            }
            allowOnly(s, Set.of("name", "rank", "price", "rows", "seatsPerRow"));
            String name = text(s, "name", true);
            if (!name.matches("[A-Za-z0-9]{1,16}") || !names.add(name)) {
                throw ApiException.badRequest("section names are 1-16 letters or digits, each used once");
            }
            long priceCents = priceCents(text(s, "price", true));
            int rows = integer(s, "rows", 0, 1, 500);
            int perRow = integer(s, "seatsPerRow", 0, 1, 500);
            totalSeats += (long) rows * perRow;
            plan.add(new SeatPlan.SectionPlan(name, integer(s, "rank", rank, 0, 1000),
                    priceCents, rows, perRow));
            rank++;
        }
        if (totalSeats > 200_000) {
            throw ApiException.badRequest("a show has at most 200,000 seats");
        }
        ShowLayout layout = SeatPlan.layout(showId, currency, plan);
        int groups = integer(b, "blockGroups", defaults.blockGroups(), 1, 271);
        Show show = new Show(showId, eventId, event.venueId(), startsAt, new SaleWindow(opensAt, closesAt), policy,
                Math.max(1, Math.min(groups, layout.blocks().size())), integer(b, "cancelHours", 48, 0, 24 * 365), layout);
        if (shows.find(showId).isPresent()) {
            throw showExists(showId);
        }
        try {
            catalog.saveShow(show);
        } catch (RuntimeException e) {
            if (catalog.show(showId).isPresent()) {
                throw showExists(showId);
            }
            throw e;
        }
        shows.add(show);
        announce.accept(show);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("showId", showId);
        out.put("eventId", eventId);
        out.put("venueId", venue.venueId());
        out.put("startsAt", Instant.ofEpochMilli(startsAt));
        out.put("saleOpensAt", Instant.ofEpochMilli(opensAt));
        out.put("saleClosesAt", Instant.ofEpochMilli(closesAt));
        out.put("seatCount", layout.totalSeats());
        out.put("blocks", layout.blocks().size());
        out.put("blockGroups", show.blockGroups());
        res.header("Location", "/v1/shows/" + showId);
        Json.send(res, 201, out);
    }

    private void changeSeats(ServerRequest req, ServerResponse res, boolean block) {
        Principal admin = admin(req);
        String showId = req.path().pathParameters().get("showId");
        Show show = shows.find(showId).orElseThrow(() -> ApiException.notFound("show " + showId));
        JsonNode b = Json.body(req);
        allowOnly(b, Set.of("seatIds", "reason"));
        JsonNode ids = b.get("seatIds");
        if (ids == null || !ids.isArray() || ids.isEmpty() || ids.size() > 10_000) {
            throw ApiException.badRequest("'seatIds' must be an array of 1 to 10,000 seat ids");
        }
        String reason = text(b, "reason", false);
        Map<Integer, List<Integer>> byBlock = new TreeMap<>();
        List<String> unknown = new ArrayList<>();
        for (JsonNode id : ids) {
            if (!id.isTextual()) {
                throw ApiException.badRequest("'seatIds' must be strings");
            }
            show.layout().locate(id.asText()).ifPresentOrElse(
                    r -> byBlock.computeIfAbsent(r.blockId(), k -> new ArrayList<>()).add(r.index()),
                    () -> unknown.add(id.asText()));
        }
        if (!unknown.isEmpty()) {
            throw Refusals.of(Rejection.UNKNOWN_SEAT, "this show has no seat " + String.join(", ", unknown),
                    Map.of("unknown", unknown));
        }
        long now = clock.getAsLong();
        String why = reason == null ? (block ? "blocked by admin" : "unblocked by admin") : reason;
        String actor = "admin:" + admin.accountId();
        // check every block first so a refusal in one block changes nothing anywhere
        if (block) {
            for (Map.Entry<Integer, List<Integer>> e : byBlock.entrySet()) {
                int[] seats = e.getValue().stream().mapToInt(Integer::intValue).toArray();
                for (int s : seats) {
                    if (snapshots.get(show).status(show.layout().offset(e.getKey()) + s) == SeatState.Status.SOLD) {
                        throw Refusals.of(Refusal.SEAT_SOLD, "sold seats are cancelled before they are blocked");
                    }
                }
            }
        }
        java.util.SortedMap<Integer, int[]> seatsByBlock = new TreeMap<>();
        byBlock.forEach((blockId, list) -> seatsByBlock.put(blockId, list.stream().mapToInt(Integer::intValue).toArray()));
        int changed = 0;
        for (BlockOutcome outcome : seats.block(show, seatsByBlock, block, now, actor, why).values()) {
            if (outcome.result() == BlockOutcome.Result.REJECTED) {
                throw Refusals.of(Refusal.SEAT_SOLD, "sold seats are cancelled before they are blocked");
            }
            if (outcome.result() == BlockOutcome.Result.CHANGED) {
                changed += outcome.seats().length;
            }
        }
        Json.send(res, 200, Map.of("showId", showId, "changed", changed));
    }

    private static ApiException showExists(String showId) {
        return Refusals.of(Refusal.SHOW_EXISTS, "show " + showId + " already exists");
    }

    private static void allowOnly(JsonNode node, Set<String> allowed) {
        node.fieldNames().forEachRemaining(f -> {
            if (!allowed.contains(f)) {
                throw ApiException.badRequest("unknown field '" + f + "'");
            }
        });
    }

    private static String text(JsonNode node, String field, boolean required) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw ApiException.badRequest("'" + field + "' is required");
            }
            return null;
        }
        if (!v.isTextual() || v.asText().length() > 200) {
            throw ApiException.badRequest("'" + field + "' must be a string");
        }
        return v.asText();
    }

    private static int integer(JsonNode node, String field, int fallback, int min, int max) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            if (min > fallback) {
                throw ApiException.badRequest("'" + field + "' is required");
            }
            return fallback;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() < min || v.asInt() > max) {
            throw ApiException.badRequest("'" + field + "' must be an integer from " + min + " to " + max);
        }
        return v.asInt();
    }

    private static long time(JsonNode node, String field, Long fallback) {
        String v = text(node, field, fallback == null);
        if (v == null) {
            return fallback;
        }
        try {
            Instant t = Instant.parse(v);
            if (t.isBefore(Instant.parse("2000-01-01T00:00:00Z")) || t.isAfter(Instant.parse("2200-01-01T00:00:00Z"))) {
                throw ApiException.badRequest("'" + field + "' must be between the years 2000 and 2200");
            }
            return t.toEpochMilli();
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest("'" + field + "' must be an ISO instant such as 2027-06-01T20:00:00Z");
        }
    }
}
