package org.boxoffice.app.catalog;

import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.HttpCaching;
import org.boxoffice.app.http.Json;
import org.boxoffice.app.http.Refusals;
import org.boxoffice.domain.Event;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.domain.Venue;
import org.boxoffice.grid.Admissions;
import org.boxoffice.grid.ShowSnapshot;
import org.boxoffice.grid.ShowSnapshots;
import org.boxoffice.grid.catalog.CatalogSearch;
import org.boxoffice.grid.catalog.EventListing;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.zip.CRC32;

/**
 * Browsing: event search, an event, show details, seat lists and the compact availability map.
 * Reads only; seat statuses come from a snapshot at most a refresh interval old, never from a
 * processor. Every answer is encoded once into {@link CatalogAnswers} and sent as bytes with a
 * strong ETag and a cache lifetime chosen by how fast it changes (see {@link #SEARCH} and below);
 * {@code If-None-Match} gets a 304.
 *
 * <pre>
 * curl 'localhost:8080/v1/events?city=Berlin&amp;q=echoes&amp;from=2026-12-01&amp;to=2027-03-01'
 * curl localhost:8080/v1/events/midnight-echoes
 * curl localhost:8080/v1/shows/echoes-berlin-1
 * curl 'localhost:8080/v1/shows/echoes-berlin-1/seats?section=A'
 * curl -i localhost:8080/v1/shows/echoes-berlin-1/availability
 * </pre>
 */
public final class CatalogService implements HttpService {

    /** Search results change when the catalog does (rare) or a sale opens or closes (capped to that). */
    static final HttpCaching.Policy SEARCH = new HttpCaching.Policy(30, 60);
    /** An event and its shows: as search. */
    static final HttpCaching.Policy EVENT = new HttpCaching.Policy(30, 60);
    /** A show's layout never changes; its seat counts do, so a few seconds. */
    static final HttpCaching.Policy SHOW = new HttpCaching.Policy(5, 30);
    /** Seat statuses: as fresh as the snapshot they come from. */
    static final HttpCaching.Policy SEATS = new HttpCaching.Policy(1, 1);
    static final HttpCaching.Policy AVAILABILITY = new HttpCaching.Policy(1, 1);
    /** What general-admission areas have left: as fresh as the seat map, a second. */
    static final HttpCaching.Policy AREAS = new HttpCaching.Policy(1, 1);

    private final CatalogSearch search;
    private final ShowDirectory shows;
    private final ShowSnapshots snapshots;
    private final CatalogAnswers answers;
    private final Admissions admissions;
    private final LongSupplier clock;

    public CatalogService(CatalogSearch search, ShowDirectory shows, ShowSnapshots snapshots, CatalogAnswers answers,
                          Admissions admissions, LongSupplier clock) {
        this.admissions = admissions;
        this.search = search;
        this.shows = shows;
        this.snapshots = snapshots;
        this.answers = answers;
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/events", this::events)
                .get("/events/{eventId}", this::event)
                .get("/shows/{showId}", this::show)
                .get("/shows/{showId}/seats", this::seats)
                .get("/shows/{showId}/availability", this::availability)
                .get("/shows/{showId}/areas", this::areas);
    }

    private void events(ServerRequest req, ServerResponse res) {
        String city = param(req, "city");
        String text = param(req, "q");
        Long from = instant(param(req, "from"), "from");
        Long to = instant(param(req, "to"), "to");
        if (from != null && to != null && from >= to) {
            throw ApiException.badRequest("'from' must be before 'to'");
        }
        if (text != null && text.length() > 200) {
            throw ApiException.badRequest("q is limited to 200 characters");
        }
        // search ignores case, so the key does too ("Berlin" and "berlin" share one answer); lengths
        // keep one query's text from spelling another's key
        String key = "events|" + part(city) + part(text) + from + "|" + to;
        send(req, res, answers.get(key, null, () -> searchAnswer(city, text, from, to)), SEARCH);
    }

    private CatalogAnswers.Built searchAnswer(String city, String text, Long from, Long to) {
        long now = clock.getAsLong();
        long validUntil = Long.MAX_VALUE;
        List<Map<String, Object>> out = new ArrayList<>();
        for (EventListing e : search.search(new CatalogSearch.Query(city, text, from, to))) {
            List<Map<String, Object>> showList = new ArrayList<>();
            for (Show s : shows.showsOf(e.eventId())) {
                if ((from == null || s.startsAt() >= from) && (to == null || s.startsAt() < to)) {
                    showList.add(showSummary(s, now));
                    validUntil = Math.min(validUntil, nextSaleChange(s, now));
                }
            }
            if (showList.isEmpty() && (from != null || to != null)) {
                continue;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("eventId", e.eventId());
            m.put("title", e.title());
            m.put("artist", e.artist());
            m.put("category", e.category());
            m.put("description", e.description());
            m.put("venue", object("venueId", e.venueId(), "name", e.venueName(), "city", e.city()));
            m.put("shows", showList);
            out.add(m);
        }
        return new CatalogAnswers.Built(HttpCaching.Encoded.json(Map.of("events", out)), validUntil);
    }

    private void event(ServerRequest req, ServerResponse res) {
        String id = req.path().pathParameters().get("eventId");
        Event e = (id.length() > 100 ? Optional.<Event>empty() : shows.event(id))
                .orElseThrow(() -> ApiException.notFound("event " + id));
        send(req, res, answers.get("event|" + id, null, () -> eventAnswer(e)), EVENT);
    }

    private CatalogAnswers.Built eventAnswer(Event e) {
        long now = clock.getAsLong();
        long validUntil = Long.MAX_VALUE;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("eventId", e.eventId());
        m.put("title", e.title());
        m.put("artist", e.artist());
        m.put("category", e.category());
        m.put("description", e.description());
        shows.venue(e.venueId()).ifPresent(v -> m.put("venue", venue(v)));
        List<Map<String, Object>> showList = new ArrayList<>();
        for (Show s : shows.showsOf(e.eventId())) {
            showList.add(showSummary(s, now));
            validUntil = Math.min(validUntil, nextSaleChange(s, now));
        }
        m.put("shows", showList);
        return new CatalogAnswers.Built(HttpCaching.Encoded.json(m), validUntil);
    }

    /** When {@code onSale} next flips for the show: the sale opens or closes; never if it has closed. */
    private static long nextSaleChange(Show s, long now) {
        if (now < s.sale().opensAt()) {
            return s.sale().opensAt();
        }
        return now < s.sale().closesAt() ? s.sale().closesAt() : Long.MAX_VALUE;
    }

    private static Map<String, Object> venue(Venue v) {
        return object("venueId", v.venueId(), "name", v.name(), "city", v.city());
    }

    private static Map<String, Object> showSummary(Show s, long now) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("showId", s.showId());
        m.put("startsAt", Instant.ofEpochMilli(s.startsAt()));
        m.put("saleOpensAt", Instant.ofEpochMilli(s.sale().opensAt()));
        m.put("saleClosesAt", Instant.ofEpochMilli(s.sale().closesAt()));
        m.put("onSale", s.sale().isOpen(now));
        return m;
    }

    /** The show document follows the snapshot for its counts: rebuilt at most once per snapshot. */
    private void show(ServerRequest req, ServerResponse res) {
        Show s = show(req);
        ShowSnapshot snapshot = snapshots.get(s);
        // the key names the show's areas as this member knows them (a copy at most 2 s old): an area
        // created or resized anywhere is on every member's show document within that
        send(req, res, answers.get("show|" + s.showId() + "|" + admissions.areas(s.showId()).hashCode(), snapshot,
                () -> showAnswer(s, snapshot)), SHOW);
    }

    private CatalogAnswers.Built showAnswer(Show s, ShowSnapshot snapshot) {
        long now = clock.getAsLong();
        int[] counts = snapshot.counts();
        Map<String, Object> m = showSummary(s, now);
        shows.event(s.eventId()).ifPresent(e -> {
            m.put("eventId", e.eventId());
            m.put("title", e.title());
            m.put("artist", e.artist());
        });
        shows.venue(s.venueId()).ifPresent(v -> m.put("venue", venue(v)));
        m.put("currency", s.currency());
        m.put("maxSeatsPerHold", s.policy().maxSeatsPerHold());
        m.put("maxPerAccount", s.policy().maxPerAccount());
        m.put("holdSeconds", s.policy().holdMillis() / 1000);
        m.put("cancelHoursBefore", s.cancelHours());
        List<Map<String, Object>> sections = new ArrayList<>();
        for (ShowLayout.Section sec : s.layout().sections()) {
            int seats = s.layout().blocks().stream().filter(b -> b.section().equals(sec.name()))
                    .mapToInt(ShowLayout.Block::size).sum();
            sections.add(object("name", sec.name(), "rank", sec.rank(), "price", price(sec.priceCents()), "seats", seats));
        }
        m.put("sections", sections);
        Map<String, Integer> countMap = new LinkedHashMap<>();
        for (SeatState.Status st : SeatState.Status.values()) {
            countMap.put(st.name(), counts[st.ordinal()]);
        }
        m.put("counts", countMap);
        List<Map<String, Object>> blocks = new ArrayList<>();
        for (ShowLayout.Block b : s.layout().blocks()) {
            List<Map<String, Object>> rows = new ArrayList<>();
            for (int r = 0; r < b.rows().size(); r++) {
                rows.add(object("row", b.rows().get(r), "seats", b.seatsInRow()[r]));
            }
            blocks.add(object("blockId", b.blockId(), "section", b.section(), "rows", rows));
        }
        m.put("layout", object("seatCount", s.layout().totalSeats(), "blocks", blocks));
        List<Map<String, Object>> areas = areaList(s);
        m.put("areas", areas);
        // what areas have left moves without the seat map: then rebuilt as often as the areas' answer
        long validUntil = nextSaleChange(s, now);
        if (!areas.isEmpty()) {
            validUntil = Math.min(validUntil, now + AREAS.maxAge() * 1000L);
        }
        return new CatalogAnswers.Built(HttpCaching.Encoded.json(m), validUntil);
    }

    /**
     * A show's general-admission areas and what each has left, summed over its stripes: public and
     * cacheable for a second, as the seat map's availability is.
     */
    private void areas(ServerRequest req, ServerResponse res) {
        Show s = show(req);
        long now = clock.getAsLong();
        send(req, res, answers.get("areas|" + s.showId(), null, () -> new CatalogAnswers.Built(
                HttpCaching.Encoded.json(object("showId", s.showId(), "areas", areaList(s))),
                now + AREAS.maxAge() * 1000L)), AREAS);
    }

    private List<Map<String, Object>> areaList(Show s) {
        List<Map<String, Object>> areas = new ArrayList<>();
        for (AdmissionArea a : admissions.areas(s.showId())) {
            int capacity = 0;
            int left = 0;
            for (org.boxoffice.grid.StripeCount stripe : admissions.counts(s, a).values()) {
                capacity += stripe.capacity();
                left += stripe.free();
            }
            areas.add(object("name", a.name(), "capacity", capacity, "price", price(a.priceCents()), "left", left));
        }
        return areas;
    }

    private void seats(ServerRequest req, ServerResponse res) {
        Show s = show(req);
        String section = param(req, "section");
        if (section != null && s.layout().section(section).isEmpty()) {
            throw Refusals.of(Rejection.UNKNOWN_SECTION, "this show has no section " + section);
        }
        ShowSnapshot snapshot = snapshots.get(s);
        send(req, res, answers.get("seats|" + s.showId() + "|" + section, snapshot,
                () -> CatalogAnswers.Built.forever(seatList(s, section, snapshot))), SEATS);
    }

    private static HttpCaching.Encoded seatList(Show s, String section, ShowSnapshot snapshot) {
        List<Map<String, Object>> seats = new ArrayList<>();
        for (ShowLayout.Block b : s.layout().blocks()) {
            if (section != null && !section.equals(b.section())) {
                continue;
            }
            for (int i = 0; i < b.size(); i++) {
                ShowLayout.Seat seat = s.layout().seat(b.blockId(), i);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("seatId", seat.seatId());
                m.put("section", seat.section());
                m.put("row", seat.row());
                m.put("number", seat.number());
                m.put("price", price(seat.priceCents()));
                m.put("status", snapshot.status(seat.globalIndex()).name());
                seats.add(m);
            }
        }
        return HttpCaching.Encoded.json(object("showId", s.showId(), "version", Long.toString(snapshot.gridVersion()),
                "currency", s.currency(), "seats", seats));
    }

    /**
     * Two bits per seat in layout order (0 available, 1 held, 2 sold, 3 blocked), packed four to a
     * byte (first seat in the lowest bits), base64: 15 KB of data, 20 KB of JSON for 60,000 seats.
     * The whole body is encoded once per snapshot, and a snapshot is only replaced when a refresh
     * sees something change, so polling clients mostly get 304 and a 200 costs a copy.
     */
    private void availability(ServerRequest req, ServerResponse res) {
        Show s = show(req);
        ShowSnapshot snapshot = snapshots.get(s);
        send(req, res, answers.get("availability|" + s.showId(), snapshot,
                () -> CatalogAnswers.Built.forever(encode(s, snapshot))), AVAILABILITY);
    }

    private static void send(ServerRequest req, ServerResponse res, CatalogAnswers.Answer answer, HttpCaching.Policy policy) {
        HttpCaching.sendPublic(req, res, answer.encoded(), policy.atMost(answer.secondsLeft()));
    }

    /**
     * A JSON object with its fields in the order given. Never {@code Map.of} in an answer: its order
     * differs between JVMs, and members must encode the same content to the same bytes (and ETag).
     */
    private static Map<String, Object> object(Object... fieldsAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < fieldsAndValues.length; i += 2) {
            m.put((String) fieldsAndValues[i], fieldsAndValues[i + 1]);
        }
        return m;
    }

    private static String part(String s) {
        return s == null ? "-|" : s.length() + ":" + s.toLowerCase(Locale.ROOT) + "|";
    }

    /**
     * The ETag names the grid's revision sum and a checksum of the statuses: a hold that lapsed
     * without a write yet (the sweeper releases it a moment later) changes the map but not the
     * revisions. Members that see the same seats give the same ETag.
     */
    private static HttpCaching.Encoded encode(Show s, ShowSnapshot snapshot) {
        byte[] packed = snapshot.packed();
        CRC32 crc = new CRC32();
        crc.update(packed);
        String etag = "\"" + s.showId() + "-" + snapshot.gridVersion() + "-" + Long.toHexString(crc.getValue()) + "\"";
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("showId", s.showId());
        m.put("version", Long.toString(snapshot.gridVersion()));
        m.put("asOf", Instant.ofEpochMilli(snapshot.builtAt()));
        m.put("seatCount", snapshot.size());
        m.put("encoding", "2bit-base64");
        m.put("statuses", List.of("AVAILABLE", "HELD", "SOLD", "BLOCKED"));
        m.put("data", Base64.getEncoder().encodeToString(packed));
        return new HttpCaching.Encoded(Json.bytes(m), etag);
    }

    private Show show(ServerRequest req) {
        String id = req.path().pathParameters().get("showId");
        return shows.find(id).orElseThrow(() -> ApiException.notFound("show " + id));
    }

    static BigDecimal price(long cents) {
        return BigDecimal.valueOf(cents, 2);
    }

    private static String param(ServerRequest req, String name) {
        Optional<String> v = req.query().first(name).asOptional();
        return v.isEmpty() || v.get().isBlank() ? null : v.get().trim();
    }

    /** An ISO date (start of that day, UTC) or instant; 400 otherwise. */
    private static Long instant(String value, String name) {
        if (value == null) {
            return null;
        }
        try {
            if (value.length() == 10) {
                return LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
            }
            return Instant.parse(value).toEpochMilli();
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest("'" + name + "' must be an ISO date (2026-12-01) or instant (2026-12-01T20:00:00Z)");
        }
    }
}
