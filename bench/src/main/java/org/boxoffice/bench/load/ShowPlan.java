package org.boxoffice.bench.load;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A show's seats as a buyer's client sees them: sections with their rows, and every seat's index
 * in the service's layout order (section by section, row by row, seat by seat), which is the
 * order of the availability map. Immutable and thread-safe.
 */
public final class ShowPlan {

    /** One row: its label, the layout index of its first seat, and its seat count (seats are numbered 1..seats). */
    public record Row(String label, int offset, int seats) {
    }

    /** One section: rank 0 is nearest the stage. */
    public record Section(String name, int rank, int firstIndex, int seatCount, List<Row> rows) {
    }

    /** A section as the admin API creates it: {@code rows} rows of {@code seatsPerRow} seats. */
    public record SectionSpec(String name, String price, int rows, int seatsPerRow) {
    }

    /** How long a hold lasts on a show the bench creates, unless the run chooses its own (the cluster runs, the expiry check). */
    public static final int HOLD_SECONDS = 420;
    /** The service's grace for a show created without {@code graceSeconds}: a hold counts as live this long past expiresAt. */
    public static final long DEFAULT_GRACE_MS = 5_000;

    /** Rows of this many seats, this many rows to a section: 2,500 seats, about a stadium block. */
    static final int SEATS_PER_ROW = 50;
    static final int ROWS_PER_SECTION = 50;

    private final List<Section> sections;
    private final List<Section> byRank;
    private final Map<String, Section> sectionsByName = new HashMap<>();
    private final Map<String, Map<String, Row>> rowsBySection = new HashMap<>();
    private final int seatCount;

    private ShowPlan(List<Section> sections) {
        this.sections = List.copyOf(sections);
        this.byRank = sections.stream().sorted(Comparator.comparingInt(Section::rank)).toList();
        int count = 0;
        for (Section s : sections) {
            sectionsByName.put(s.name(), s);
            Map<String, Row> rows = new HashMap<>();
            for (Row r : s.rows()) {
                rows.put(r.label(), r);
            }
            rowsBySection.put(s.name(), rows);
            count += s.seatCount();
        }
        this.seatCount = count;
    }

    /**
     * The body of {@code POST /v1/admin/shows} for a show on sale now.
     *
     * @param graceSeconds null for the service's default
     */
    public static ObjectNode createRequest(String eventId, List<SectionSpec> sections, int holdSeconds,
                                         Integer graceSeconds, Integer blockGroups) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("eventId", eventId);
        body.put("startsAt", java.time.Instant.now().plus(java.time.Duration.ofDays(180))
                .truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
        body.put("maxSeatsPerHold", 10);
        body.put("maxPerAccount", 10);
        body.put("holdSeconds", holdSeconds);
        if (graceSeconds != null) {
            body.put("graceSeconds", graceSeconds);
        }
        if (blockGroups != null) {
            body.put("blockGroups", blockGroups);
        }
        com.fasterxml.jackson.databind.node.ArrayNode list = body.putArray("sections");
        for (SectionSpec s : sections) {
            list.addObject().put("name", s.name()).put("price", s.price()).put("rows", s.rows())
                    .put("seatsPerRow", s.seatsPerRow());
        }
        return body;
    }

    /**
     * A stadium-like plan of about {@code seats} seats: sections of 50 rows of 50 seats named A, B,
     * ..., cheaper the further from the stage; the last section takes the remainder, rounded up to
     * whole rows.
     */
    public static List<SectionSpec> regularSections(int seats) {
        if (seats < 1 || seats > 200_000) {
            throw new IllegalArgumentException("seats must be 1..200,000: " + seats);
        }
        List<SectionSpec> out = new ArrayList<>();
        int perSection = SEATS_PER_ROW * ROWS_PER_SECTION;
        for (int left = seats, i = 0; left > 0; left -= perSection, i++) {
            int rows = Math.min(ROWS_PER_SECTION, (left + SEATS_PER_ROW - 1) / SEATS_PER_ROW);
            int price = Math.max(10, 150 - 5 * i);
            out.add(new SectionSpec(sectionName(i), price + ".00", rows, SEATS_PER_ROW));
        }
        return out;
    }

    /** A, B, ..., Z, AA, AB, ... */
    static String sectionName(int i) {
        StringBuilder sb = new StringBuilder();
        for (int n = i; n >= 0; n = n / 26 - 1) {
            sb.insert(0, (char) ('A' + n % 26));
        }
        return sb.toString();
    }

    /** The layout the service derives from these sections: ranked by their order, rows labelled 1... */
    public static ShowPlan of(List<SectionSpec> specs) {
        List<Section> sections = new ArrayList<>();
        int index = 0;
        for (int rank = 0; rank < specs.size(); rank++) {
            SectionSpec spec = specs.get(rank);
            List<Row> rows = new ArrayList<>();
            int first = index;
            for (int r = 1; r <= spec.rows(); r++) {
                rows.add(new Row(Integer.toString(r), index, spec.seatsPerRow()));
                index += spec.seatsPerRow();
            }
            sections.add(new Section(spec.name(), rank, first, index - first, rows));
        }
        return new ShowPlan(sections);
    }

    /** Reads {@code GET /v1/shows/{showId}}: {@code sections[].rank} and {@code layout.blocks[].rows[]}. */
    public static ShowPlan fromShow(JsonNode show) {
        Map<String, Integer> ranks = new HashMap<>();
        for (JsonNode s : show.path("sections")) {
            ranks.put(s.path("name").asText(), s.path("rank").asInt());
        }
        Map<String, List<Row>> rows = new LinkedHashMap<>();
        int index = 0;
        for (JsonNode block : show.path("layout").path("blocks")) {
            List<Row> sectionRows = rows.computeIfAbsent(block.path("section").asText(), k -> new ArrayList<>());
            for (JsonNode row : block.path("rows")) {
                int seats = row.path("seats").asInt();
                sectionRows.add(new Row(row.path("row").asText(), index, seats));
                index += seats;
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("the show has no layout.blocks");
        }
        List<Section> sections = new ArrayList<>();
        for (Map.Entry<String, List<Row>> e : rows.entrySet()) {
            List<Row> r = e.getValue();
            Row last = r.get(r.size() - 1);
            int first = r.get(0).offset();
            sections.add(new Section(e.getKey(), ranks.getOrDefault(e.getKey(), sections.size()), first,
                    last.offset() + last.seats() - first, r));
        }
        return new ShowPlan(sections);
    }

    /** Sections in layout order. */
    public List<Section> sections() {
        return sections;
    }

    /** Sections best first. */
    public List<Section> sectionsByRank() {
        return byRank;
    }

    public int seatCount() {
        return seatCount;
    }

    /** The layout index of a seat id such as {@code A-12-7}, or -1 if the show has no such seat. */
    public int indexOf(String seatId) {
        int lastDash = seatId.lastIndexOf('-');
        int rowDash = lastDash > 0 ? seatId.lastIndexOf('-', lastDash - 1) : -1;
        if (rowDash <= 0) {
            return -1;
        }
        Map<String, Row> rows = rowsBySection.get(seatId.substring(0, rowDash));
        Row row = rows == null ? null : rows.get(seatId.substring(rowDash + 1, lastDash));
        if (row == null) {
            return -1;
        }
        int number;
        try {
            number = Integer.parseInt(seatId, lastDash + 1, seatId.length(), 10);
        } catch (NumberFormatException e) {
            return -1;
        }
        return number >= 1 && number <= row.seats() ? row.offset() + number - 1 : -1;
    }

    /** The seat id at a layout index. */
    public String seatId(int index) {
        Section section = sectionAt(index);
        Row row = rowAt(section, index);
        return section.name() + "-" + row.label() + "-" + (index - row.offset() + 1);
    }

    public Section sectionAt(int index) {
        if (index < 0 || index >= seatCount) {
            throw new IndexOutOfBoundsException(index);
        }
        int lo = 0;
        int hi = sections.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (sections.get(mid).firstIndex() <= index) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return sections.get(lo);
    }

    public static Row rowAt(Section section, int index) {
        List<Row> rows = section.rows();
        int lo = 0;
        int hi = rows.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (rows.get(mid).offset() <= index) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return rows.get(lo);
    }

    public Section section(String name) {
        return sectionsByName.get(name);
    }
}
