package org.boxoffice.domain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a show's seats are: sections (ranked by distance to the stage, each with its price),
 * and blocks of consecutive rows inside a section. Seat ids are stable, human-readable
 * {@code section-row-number} strings such as {@code A-12-7}; seats in a row are numbered from 1.
 *
 * <p>Seats have a global order (block by block, row by row, seat by seat) used by the compact
 * availability encoding; a seat's place inside its block is its index there.
 */
public final class ShowLayout {

    /** A priced section; lower {@code rank} is nearer the stage. */
    public record Section(String name, int rank, long priceCents) {
        public Section {
            if (name.isBlank() || name.contains("-")) {
                throw new IllegalArgumentException("section names are non-blank and have no '-': " + name);
            }
        }
    }

    /** Rows {@code rows} of {@code section}, listed nearest the stage first, with their seat counts. */
    public record Block(int blockId, String section, List<String> rows, int[] seatsInRow) {
        public Block {
            rows = List.copyOf(rows);
            seatsInRow = seatsInRow.clone();
            if (rows.size() != seatsInRow.length || rows.isEmpty()) {
                throw new IllegalArgumentException("a block needs one seat count per row");
            }
        }

        public int size() {
            return Arrays.stream(seatsInRow).sum();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Block b && blockId == b.blockId && section.equals(b.section)
                    && rows.equals(b.rows) && Arrays.equals(seatsInRow, b.seatsInRow);
        }

        @Override
        public int hashCode() {
            return Objects.hash(blockId, section, rows, Arrays.hashCode(seatsInRow));
        }
    }

    /** A seat's place: which block, which index inside it. */
    public record SeatRef(int blockId, int index) {
    }

    /** Everything about one seat a client needs. */
    public record Seat(String seatId, String section, String row, int number, int rowOrdinal,
                       long priceCents, int blockId, int index, int globalIndex) {
    }

    private final String showId;
    private final String currency;
    private final List<Section> sections;
    private final List<Block> blocks;
    private final Map<String, Section> sectionsByName = new LinkedHashMap<>();
    private final int[] blockOffsets;
    /** "section-row" -> {blockId, index of the row's first seat in the block, seats, row ordinal in section} */
    private final Map<String, int[]> rowsByKey = new HashMap<>();
    private final int totalSeats;
    /** Built on first use by {@link SeatPicker}; a benign race may build it twice. */
    private volatile SeatPicker.RowIndex pickerIndex;

    public ShowLayout(String showId, String currency, List<Section> sections, List<Block> blocks) {
        this.showId = Objects.requireNonNull(showId);
        this.currency = Objects.requireNonNull(currency);
        this.sections = List.copyOf(sections);
        this.blocks = List.copyOf(blocks);
        for (Section s : sections) {
            sectionsByName.put(s.name(), s);
        }
        blockOffsets = new int[blocks.size() + 1];
        Map<String, Integer> rowOrdinals = new HashMap<>();
        for (int b = 0; b < blocks.size(); b++) {
            Block block = blocks.get(b);
            if (block.blockId() != b) {
                throw new IllegalArgumentException("blocks must be numbered 0.. in order");
            }
            if (!sectionsByName.containsKey(block.section())) {
                throw new IllegalArgumentException("block " + b + " names unknown section " + block.section());
            }
            int first = 0;
            for (int r = 0; r < block.rows().size(); r++) {
                int ordinal = rowOrdinals.merge(block.section(), 1, Integer::sum) - 1;
                String key = block.section() + "-" + block.rows().get(r);
                if (rowsByKey.put(key, new int[] {b, first, block.seatsInRow()[r], ordinal}) != null) {
                    throw new IllegalArgumentException("row listed twice: " + key);
                }
                first += block.seatsInRow()[r];
            }
            blockOffsets[b + 1] = blockOffsets[b] + block.size();
        }
        totalSeats = blockOffsets[blocks.size()];
    }

    public String showId() {
        return showId;
    }

    SeatPicker.RowIndex pickerIndex() {
        SeatPicker.RowIndex index = pickerIndex;
        if (index == null) {
            index = new SeatPicker.RowIndex(this);
            pickerIndex = index;
        }
        return index;
    }

    public String currency() {
        return currency;
    }

    public List<Section> sections() {
        return sections;
    }

    public List<Block> blocks() {
        return blocks;
    }

    public Optional<Section> section(String name) {
        return Optional.ofNullable(sectionsByName.get(name));
    }

    public int totalSeats() {
        return totalSeats;
    }

    /** Global index of a block's first seat. */
    public int offset(int blockId) {
        return blockOffsets[blockId];
    }

    /** Where {@code seatId} is, or empty if the show has no such seat. */
    public Optional<SeatRef> locate(String seatId) {
        if (seatId == null) {
            return Optional.empty();
        }
        int last = seatId.lastIndexOf('-');
        if (last <= 0) {
            return Optional.empty();
        }
        int[] row = rowsByKey.get(seatId.substring(0, last));
        if (row == null) {
            return Optional.empty();
        }
        int number;
        try {
            number = Integer.parseInt(seatId.substring(last + 1));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (number < 1 || number > row[2] || !seatId.substring(last + 1).equals(Integer.toString(number))) {
            return Optional.empty();
        }
        return Optional.of(new SeatRef(row[0], row[1] + number - 1));
    }

    /** The seat at a block index. */
    public Seat seat(int blockId, int index) {
        Block block = blocks.get(blockId);
        int first = 0;
        for (int r = 0; r < block.rows().size(); r++) {
            int count = block.seatsInRow()[r];
            if (index < first + count) {
                String row = block.rows().get(r);
                int number = index - first + 1;
                int ordinal = rowsByKey.get(block.section() + "-" + row)[3];
                return new Seat(block.section() + "-" + row + "-" + number, block.section(), row, number,
                        ordinal, sectionsByName.get(block.section()).priceCents(), blockId, index,
                        blockOffsets[blockId] + index);
            }
            first += count;
        }
        throw new IndexOutOfBoundsException("block " + blockId + " has no seat " + index);
    }

    /** The seat at a global index. */
    public Seat seat(int globalIndex) {
        int b = Arrays.binarySearch(blockOffsets, globalIndex);
        if (b < 0) {
            b = -b - 2;
        } else {
            while (b + 1 < blockOffsets.length && blockOffsets[b + 1] == globalIndex) {
                b++;
            }
        }
        return seat(b, globalIndex - blockOffsets[b]);
    }

    /** Seat refs grouped by block: block id to the sorted indexes in it, blocks ascending (the order claims take). */
    public static java.util.SortedMap<Integer, int[]> byBlock(List<SeatRef> refs) {
        java.util.SortedMap<Integer, List<Integer>> grouped = new java.util.TreeMap<>();
        for (SeatRef r : refs) {
            grouped.computeIfAbsent(r.blockId(), b -> new ArrayList<>()).add(r.index());
        }
        java.util.SortedMap<Integer, int[]> out = new java.util.TreeMap<>();
        grouped.forEach((b, list) -> out.put(b, list.stream().mapToInt(Integer::intValue).sorted().toArray()));
        return out;
    }

    /** Seat ids grouped by block; every id must be a seat of this show. */
    public java.util.SortedMap<Integer, int[]> byBlockOf(List<String> seatIds) {
        return byBlock(seatIds.stream().map(id -> locate(id)
                .orElseThrow(() -> new IllegalArgumentException("show " + showId + " has no seat " + id))).toList());
    }

    /** Every seat, in global order. */
    public List<Seat> seats() {
        List<Seat> all = new ArrayList<>(totalSeats);
        for (Block block : blocks) {
            for (int i = 0; i < block.size(); i++) {
                all.add(seat(block.blockId(), i));
            }
        }
        return all;
    }
}
