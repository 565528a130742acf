package org.boxoffice.app.catalog;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.app.http.ApiException;
import org.boxoffice.app.http.Json;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.domain.Venue;
import org.boxoffice.grid.ShowSnapshot;
import org.boxoffice.grid.ShowSnapshots;
import org.boxoffice.grid.catalog.CatalogSearch;
import org.boxoffice.grid.catalog.EventListing;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.zip.CRC32;

/**
 * Browsing: event search, show details, seat lists and the compact availability map. Reads only;
 * seat statuses come from a snapshot at most a refresh interval old, never from a processor.
 *
 * <pre>
 * curl 'localhost:8080/v1/events?city=Berlin&amp;q=echoes&amp;from=2026-12-01&amp;to=2027-03-01'
 * curl localhost:8080/v1/shows/echoes-berlin-1
 * curl 'localhost:8080/v1/shows/echoes-berlin-1/seats?section=A'
 * curl -i localhost:8080/v1/shows/echoes-berlin-1/availability
 * </pre>
 */
public final class CatalogService implements HttpService {

    private final CatalogSearch search;
    private final ShowDirectory shows;
    private final ShowSnapshots snapshots;
    private final LongSupplier clock;
    private final Map<String, EncodedMap> encoded = new ConcurrentHashMap<>();

    public CatalogService(CatalogSearch search, ShowDirectory shows, ShowSnapshots snapshots, LongSupplier clock) {
        this.search = search;
        this.shows = shows;
        this.snapshots = snapshots;
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/events", this::events)
                .get("/shows/{showId}", this::show)
                .get("/shows/{showId}/seats", this::seats)
                .get("/shows/{showId}/availability", this::availability);
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
        List<Map<String, Object>> out = new ArrayList<>();
        for (EventListing e : search.search(new CatalogSearch.Query(city, text, from, to))) {
            List<Map<String, Object>> showList = new ArrayList<>();
            for (Show s : shows.showsOf(e.eventId())) {
                if ((from == null || s.startsAt() >= from) && (to == null || s.startsAt() < to)) {
                    showList.add(showSummary(s));
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
            m.put("venue", Map.of("venueId", e.venueId(), "name", e.venueName(), "city", e.city()));
            m.put("shows", showList);
            out.add(m);
        }
        Json.send(res, 200, Map.of("events", out));
    }

    private Map<String, Object> showSummary(Show s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("showId", s.showId());
        m.put("startsAt", Instant.ofEpochMilli(s.startsAt()));
        m.put("saleOpensAt", Instant.ofEpochMilli(s.sale().opensAt()));
        m.put("saleClosesAt", Instant.ofEpochMilli(s.sale().closesAt()));
        m.put("onSale", s.sale().isOpen(clock.getAsLong()));
        return m;
    }

    private void show(ServerRequest req, ServerResponse res) {
        Show s = show(req);
        ShowSnapshot snapshot = snapshots.get(s);
        int[] counts = snapshot.counts();
        Map<String, Object> m = showSummary(s);
        shows.event(s.eventId()).ifPresent(e -> {
            m.put("eventId", e.eventId());
            m.put("title", e.title());
            m.put("artist", e.artist());
        });
        Optional<Venue> venue = shows.venue(s.venueId());
        venue.ifPresent(v -> m.put("venue", Map.of("venueId", v.venueId(), "name", v.name(), "city", v.city())));
        m.put("currency", s.currency());
        m.put("maxSeatsPerHold", s.policy().maxSeatsPerHold());
        m.put("maxPerAccount", s.policy().maxPerAccount());
        m.put("holdSeconds", s.policy().holdMillis() / 1000);
        m.put("cancelHoursBefore", s.cancelHours());
        List<Map<String, Object>> sections = new ArrayList<>();
        for (ShowLayout.Section sec : s.layout().sections()) {
            int seats = s.layout().blocks().stream().filter(b -> b.section().equals(sec.name()))
                    .mapToInt(ShowLayout.Block::size).sum();
            sections.add(Map.of("name", sec.name(), "rank", sec.rank(), "price", price(sec.priceCents()), "seats", seats));
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
                rows.add(Map.of("row", b.rows().get(r), "seats", b.seatsInRow()[r]));
            }
            blocks.add(Map.of("blockId", b.blockId(), "section", b.section(), "rows", rows));
        }
        m.put("layout", Map.of("seatCount", s.layout().totalSeats(), "blocks", blocks));
        Json.send(res, 200, m);
    }

    private void seats(ServerRequest req, ServerResponse res) {
        Show s = show(req);
        String section = param(req, "section");
        if (section != null && s.layout().section(section).isEmpty()) {
            throw new ApiException(422, "UNKNOWN_SECTION", "this show has no section " + section);
        }
        ShowSnapshot snapshot = snapshots.get(s);
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
        res.header(HeaderNames.CACHE_CONTROL, "public, max-age=1");
        Json.send(res, 200, Map.of("showId", s.showId(), "version", snapshot.version(), "currency", s.currency(),
                "seats", seats));
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
        EncodedMap map = encoded.get(s.showId());
        if (map == null || map.snapshot() != snapshot) {
            map = encode(s, snapshot);
            encoded.put(s.showId(), map);
        }
        res.header(HeaderNames.ETAG, map.etag());
        res.header(HeaderNames.CACHE_CONTROL, "public, max-age=1");
        Optional<String> ifNoneMatch = req.headers().first(HeaderNames.IF_NONE_MATCH);
        if (ifNoneMatch.isPresent() && (ifNoneMatch.get().equals(map.etag()) || ifNoneMatch.get().equals("W/" + map.etag()))) {
            res.status(304).send();
            return;
        }
        Json.sendBytes(res, 200, map.body());
    }

    /** A snapshot's seat map as sent: its ETag and its JSON body. */
    private record EncodedMap(ShowSnapshot snapshot, String etag, byte[] body) {
    }

    /**
     * The ETag names the grid's revision sum and a checksum of the statuses: a hold that lapsed
     * without a write yet (the sweeper releases it a moment later) changes the map but not the
     * revisions. Members that see the same seats give the same ETag.
     */
    private static EncodedMap encode(Show s, ShowSnapshot snapshot) {
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
        return new EncodedMap(snapshot, etag, Json.write(m).getBytes(StandardCharsets.UTF_8));
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
