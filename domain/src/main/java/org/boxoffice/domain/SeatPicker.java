package org.boxoffice.domain;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntPredicate;

/**
 * Finds adjacent free seats in one row: the best available ones (nearest the stage first, not
 * leaving a single orphan seat where that can be avoided, central in the row), and alternatives
 * near seats someone just took. Works on a view of availability ({@code free} by global index),
 * usually a snapshot: what it suggests is checked again when it is claimed.
 *
 * <p>It runs on every refused hold, so it is built for speed: a row index computed once per layout
 * (kept on the layout), rows visited nearest first with early exits, placements kept as numbers
 * and seat ids built only for what is returned. Thread-safe.
 */
public final class SeatPicker {

    /**
     * Leaving a single seat nobody can buy alongside others costs as much as sitting this many
     * rows further back: a front-row pair that strands one seat loses to a clean pair two rows back.
     */
    static final int ORPHAN_PENALTY_ROWS = 2;

    /** Rows of a layout as parallel arrays, grouped per section in row order. Immutable. */
    static final class RowIndex {
        final ShowLayout.Block[] block;
        final int[] r;
        final int[] first;
        final int[] count;
        final int[] ordinal;
        final int[] rank;
        final Map<String, int[]> bySection = new java.util.HashMap<>();
        final List<String> sectionsByRank;

        RowIndex(ShowLayout layout) {
            List<int[]> rows = new ArrayList<>();
            List<ShowLayout.Block> blocks = new ArrayList<>();
            Map<String, List<Integer>> sec = new java.util.LinkedHashMap<>();
            for (ShowLayout.Block b : layout.blocks()) {
                int f = layout.offset(b.blockId());
                int rk = layout.section(b.section()).map(ShowLayout.Section::rank).orElse(Integer.MAX_VALUE);
                for (int i = 0; i < b.rows().size(); i++) {
                    List<Integer> list = sec.computeIfAbsent(b.section(), k -> new ArrayList<>());
                    list.add(rows.size());
                    rows.add(new int[]{i, f, b.seatsInRow()[i], list.size() - 1, rk});
                    blocks.add(b);
                    f += b.seatsInRow()[i];
                }
            }
            int n = rows.size();
            block = blocks.toArray(new ShowLayout.Block[0]);
            r = new int[n];
            first = new int[n];
            count = new int[n];
            ordinal = new int[n];
            rank = new int[n];
            for (int i = 0; i < n; i++) {
                int[] x = rows.get(i);
                r[i] = x[0];
                first[i] = x[1];
                count[i] = x[2];
                ordinal[i] = x[3];
                rank[i] = x[4];
            }
            sec.forEach((k, v) -> bySection.put(k, v.stream().mapToInt(Integer::intValue).toArray()));
            List<String> names = new ArrayList<>(sec.keySet());
            names.sort(Comparator.comparingInt(s -> rank[bySection.get(s)[0]]));
            sectionsByRank = names;
        }

        String seatId(int row, int number) {
            return block[row].section() + "-" + block[row].rows().get(r[row]) + "-" + number;
        }
    }

    private final ShowLayout layout;
    private final IntPredicate free;
    private final RowIndex index;

    public SeatPicker(ShowLayout layout, IntPredicate free) {
        this.layout = layout;
        this.free = free;
        this.index = layout.pickerIndex();
    }

    /** A run of {@code quantity} adjacent seats in one row, as seat ids. */
    public record Candidate(List<String> seatIds, String section, int rowOrdinal, int firstNumber,
                            boolean leavesOrphan, int offCentre, int sectionRank) {
    }

    private Candidate candidate(int row, int s, int quantity, boolean orphan) {
        return new Candidate(seatIds(row, s, quantity), index.block[row].section(), index.ordinal[row], s + 1, orphan,
                Math.abs(2 * s + quantity - index.count[row]), index.rank[row]);
    }

    /** The ids of {@code quantity} seats of {@code row} from position {@code s} (0-based) on. */
    private List<String> seatIds(int row, int s, int quantity) {
        List<String> ids = new ArrayList<>(quantity);
        for (int k = 0; k < quantity; k++) {
            ids.add(index.seatId(row, s + k + 1));
        }
        return ids;
    }

    /**
     * Walks the runs of free seats of one row, left to right: after {@link #next} returns true,
     * {@code start} (inclusive) and {@code end} (exclusive) are the current run's positions in the
     * row. One cursor serves a whole scan, row after row, so a scan allocates nothing per seat.
     */
    private final class FreeRuns {
        private int first;
        private int count;
        private int n;
        int start;
        int end;

        void in(int row) {
            first = index.first[row];
            count = index.count[row];
            n = 0;
        }

        boolean next() {
            while (n < count && !free.test(first + n)) {
                n++;
            }
            if (n == count) {
                return false;
            }
            start = n;
            while (n < count && free.test(first + n)) {
                n++;
            }
            end = n;
            return true;
        }

        /** Whether taking {@code quantity} seats from position {@code s} strands one seat of this run. */
        boolean leavesOrphan(int s, int quantity) {
            return s - start == 1 || end - (s + quantity) == 1;
        }
    }

    /**
     * The best {@code quantity} adjacent seats, in {@code section} if given, else in any section
     * by rank (nearest the stage first).
     */
    public Optional<Candidate> bestAvailable(int quantity, String section) {
        if (quantity < 1) {
            return Optional.empty();
        }
        int bestRow = -1;
        int bestStart = -1;
        boolean bestOrphan = false;
        int bestRank = Integer.MAX_VALUE;
        int bestKey = Integer.MAX_VALUE;
        int bestOff = Integer.MAX_VALUE;
        List<String> sections = section == null ? index.sectionsByRank : List.of(section);
        FreeRuns runs = new FreeRuns();
        for (String name : sections) {
            int[] rows = index.bySection.get(name);
            if (rows == null || index.rank[rows[0]] > bestRank) {
                continue;
            }
            for (int row : rows) {
                // rows come in ordinal order: nothing further back can beat the best key
                if (index.rank[row] == bestRank && index.ordinal[row] > bestKey) {
                    break;
                }
                int count = index.count[row];
                runs.in(row);
                while (runs.next()) {
                    for (int s = runs.start; s + quantity <= runs.end; s++) {
                        boolean orphan = runs.leavesOrphan(s, quantity);
                        int key = index.ordinal[row] + (orphan ? ORPHAN_PENALTY_ROWS : 0);
                        int off = Math.abs(2 * s + quantity - count);
                        int rk = index.rank[row];
                        if (rk < bestRank || (rk == bestRank && (key < bestKey || (key == bestKey && off < bestOff)))) {
                            bestRow = row;
                            bestStart = s;
                            bestOrphan = orphan;
                            bestRank = rk;
                            bestKey = key;
                            bestOff = off;
                        }
                    }
                }
            }
        }
        return bestRow < 0 ? Optional.empty() : Optional.of(candidate(bestRow, bestStart, quantity, bestOrphan));
    }

    /**
     * Up to {@code max} free, non-overlapping runs of {@code requested.size()} adjacent seats in the
     * section of the first requested seat, nearest the requested ones (row distance, then seat
     * distance), never containing a requested seat.
     */
    public List<List<String>> alternatives(List<String> requested, int max) {
        if (requested.isEmpty()) {
            return List.of();
        }
        List<ShowLayout.Seat> wanted = new ArrayList<>();
        for (String id : requested) {
            layout.locate(id).ifPresent(ref -> wanted.add(layout.seat(ref.blockId(), ref.index())));
        }
        if (wanted.isEmpty()) {
            return List.of();
        }
        int quantity = requested.size();
        ShowLayout.Seat anchor = wanted.get(0);
        double rowSum = 0;
        double numberSum = 0;
        int[] excluded = new int[wanted.size()];
        for (int k = 0; k < excluded.length; k++) {
            ShowLayout.Seat w = wanted.get(k);
            rowSum += w.rowOrdinal();
            numberSum += w.number();
            excluded[k] = w.globalIndex();
        }
        double row = rowSum / excluded.length;
        double number = numberSum / excluded.length;
        int[] rows = index.bySection.get(anchor.section());
        record Placement(int row, int start, boolean orphan, double distance) {
        }
        List<List<String>> picked = new ArrayList<>();
        List<int[]> used = new ArrayList<>();
        int[] order = byDistance(rows.length, row);
        FreeRuns runs = new FreeRuns();
        int i = 0;
        while (i < order.length && picked.size() < max) {
            double ring = Math.abs(order[i] - row);
            List<Placement> placements = new ArrayList<>();
            for (; i < order.length && Math.abs(order[i] - row) == ring; i++) {
                int rw = rows[order[i]];
                int first = index.first[rw];
                runs.in(rw);
                while (runs.next()) {
                    for (int s = runs.start; s + quantity <= runs.end; s++) {
                        if (!overlaps(excluded, first + s, quantity)) {
                            placements.add(new Placement(rw, s, runs.leavesOrphan(s, quantity),
                                    Math.abs(s + 1 + (quantity - 1) / 2.0 - number)));
                        }
                    }
                }
            }
            placements.sort(Comparator.comparing(Placement::orphan).thenComparingDouble(Placement::distance));
            for (Placement p : placements) {
                if (picked.size() == max) {
                    break;
                }
                int start = index.first[p.row()] + p.start();
                boolean taken = false;
                for (int[] u : used) {
                    taken |= start < u[0] + u[1] && u[0] < start + quantity;
                }
                if (!taken) {
                    used.add(new int[]{start, quantity});
                    picked.add(seatIds(p.row(), p.start(), quantity));
                }
            }
        }
        return picked;
    }

    /**
     * Row ordinals 0..n-1 nearest {@code row} first, the lower one first at equal distance (what a
     * stable sort by distance gives), walked outwards from {@code row} without sorting: this runs
     * on every refused hold.
     */
    static int[] byDistance(int n, double row) {
        int[] order = new int[n];
        int lo = Math.min((int) Math.floor(row), n - 1);
        int hi = lo + 1;
        for (int k = 0; k < n; k++) {
            boolean low = lo >= 0 && (hi >= n || row - lo <= hi - row);
            order[k] = low ? lo-- : hi++;
        }
        return order;
    }

    private static boolean overlaps(int[] seats, int start, int quantity) {
        for (int s : seats) {
            if (s >= start && s < start + quantity) {
                return true;
            }
        }
        return false;
    }
}
