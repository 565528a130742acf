package org.boxoffice.domain;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * The first, obviously correct and slow seat picker (every placement, then sort), kept as the
 * reference the fast {@link SeatPicker} must agree with.
 *
 * Finds adjacent free seats in one row: the best available ones (nearest the stage first, not
 * leaving a single orphan seat where that can be avoided, central in the row), and alternatives
 * near seats someone just took. Works on a view of availability ({@code free} by global index),
 * usually a snapshot: what it suggests is checked again when it is claimed.
 */
final class NaiveSeatPicker {

    /**
     * Leaving a single seat nobody can buy alongside others costs as much as sitting this many
     * rows further back: a front-row pair that strands one seat loses to a clean pair two rows back.
     */
    static final int ORPHAN_PENALTY_ROWS = 2;

    private final ShowLayout layout;
    private final IntPredicate free;

    NaiveSeatPicker(ShowLayout layout, IntPredicate free) {
        this.layout = layout;
        this.free = free;
    }

    /** A run of {@code quantity} adjacent seats in one row, as seat ids. */
    public record Candidate(List<String> seatIds, String section, int rowOrdinal, int firstNumber,
                            boolean leavesOrphan, int offCentre, int sectionRank) {
    }

    /**
     * The best {@code quantity} adjacent seats, in {@code section} if given, else in any section
     * by rank (nearest the stage first).
     */
    public Optional<Candidate> bestAvailable(int quantity, String section) {
        return candidates(quantity, section).stream()
                .min(Comparator.comparingInt(Candidate::sectionRank)
                        .thenComparingInt(c -> c.rowOrdinal() + (c.leavesOrphan() ? ORPHAN_PENALTY_ROWS : 0))
                        .thenComparingInt(Candidate::offCentre));
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
        ShowLayout.Seat anchor = wanted.get(0);
        double row = wanted.stream().mapToInt(ShowLayout.Seat::rowOrdinal).average().orElse(0);
        double number = wanted.stream().mapToInt(ShowLayout.Seat::number).average().orElse(0);
        Set<String> excluded = new HashSet<>(requested);
        List<Candidate> all = candidates(requested.size(), anchor.section()).stream()
                .filter(c -> c.seatIds().stream().noneMatch(excluded::contains))
                .sorted(Comparator.<Candidate>comparingDouble(c -> Math.abs(c.rowOrdinal() - row))
                        .thenComparing(Candidate::leavesOrphan)
                        .thenComparingDouble(c -> Math.abs(c.firstNumber() + (requested.size() - 1) / 2.0 - number)))
                .toList();
        List<List<String>> picked = new ArrayList<>();
        Set<String> used = new HashSet<>();
        for (Candidate c : all) {
            if (picked.size() == max) {
                break;
            }
            if (c.seatIds().stream().noneMatch(used::contains)) {
                picked.add(c.seatIds());
                used.addAll(c.seatIds());
            }
        }
        return picked;
    }

    /** Every placement of {@code quantity} adjacent free seats in a row of the section(s). */
    private List<Candidate> candidates(int quantity, String section) {
        List<Candidate> out = new ArrayList<>();
        if (quantity < 1) {
            return out;
        }
        for (ShowLayout.Block block : layout.blocks()) {
            if (section != null && !section.equals(block.section())) {
                continue;
            }
            int rank = layout.section(block.section()).map(ShowLayout.Section::rank).orElse(Integer.MAX_VALUE);
            int first = layout.offset(block.blockId());
            for (int r = 0; r < block.rows().size(); r++) {
                int count = block.seatsInRow()[r];
                int rowOrdinal = layout.seat(block.blockId(), first - layout.offset(block.blockId())).rowOrdinal();
                addRunsOfRow(out, block, r, first, count, quantity, rank, rowOrdinal);
                first += count;
            }
        }
        return out;
    }

    private void addRunsOfRow(List<Candidate> out, ShowLayout.Block block, int r, int first, int count,
                              int quantity, int rank, int rowOrdinal) {
        String prefix = block.section() + "-" + block.rows().get(r) + "-";
        int n = 0;
        while (n < count) {
            if (!free.test(first + n)) {
                n++;
                continue;
            }
            int runStart = n;
            while (n < count && free.test(first + n)) {
                n++;
            }
            int runEnd = n; // exclusive
            for (int s = runStart; s + quantity <= runEnd; s++) {
                int left = s - runStart;
                int right = runEnd - (s + quantity);
                List<String> ids = new ArrayList<>(quantity);
                for (int k = 0; k < quantity; k++) {
                    ids.add(prefix + (s + k + 1));
                }
                int offCentre = Math.abs(2 * s + quantity - count);
                out.add(new Candidate(ids, block.section(), rowOrdinal, s + 1, left == 1 || right == 1, offCentre, rank));
            }
        }
    }
}
