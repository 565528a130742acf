package org.boxoffice.bench.load;

import java.util.List;
import java.util.random.RandomGenerator;

/**
 * How a simulated fan picks seats: most want the best sections and the front rows, as groups of 1
 * to 4 side by side in one row. A fan picks from the seat map the client last drew, so the pick
 * can be stale; the service's 409 with alternatives is what corrects it. Thread-safe (stateless
 * apart from the plan); randomness comes from the caller.
 */
public final class SeatChooser {

    /**
     * Each rank is this much less wanted than the one before: with 8 sections, 45% of fans want
     * the best one and 70% one of the best two, which is what makes an on-sale a stampede on a
     * few thousand seats rather than an even spread.
     */
    static final double RANK_DECAY = 0.55;

    /** Group sizes 1..4: couples dominate, then groups of four (a family), then singles and threes. */
    private static final double[] QUANTITY_WEIGHTS = {0.15, 0.45, 0.15, 0.25};

    private final ShowPlan plan;
    private final double[] sectionCumulative;

    public SeatChooser(ShowPlan plan) {
        this.plan = plan;
        List<ShowPlan.Section> ranked = plan.sectionsByRank();
        sectionCumulative = new double[ranked.size()];
        double total = 0;
        for (int i = 0; i < ranked.size(); i++) {
            total += Math.pow(RANK_DECAY, i);
            sectionCumulative[i] = total;
        }
        for (int i = 0; i < sectionCumulative.length; i++) {
            sectionCumulative[i] /= total;
        }
    }

    /** The section a fan wants most, skewed toward the stage. */
    public ShowPlan.Section preferredSection(RandomGenerator random) {
        double u = random.nextDouble();
        List<ShowPlan.Section> ranked = plan.sectionsByRank();
        for (int i = 0; i < sectionCumulative.length; i++) {
            if (u < sectionCumulative[i]) {
                return ranked.get(i);
            }
        }
        return ranked.get(ranked.size() - 1);
    }

    /** How many seats a fan wants together. */
    public static int quantity(RandomGenerator random) {
        double u = random.nextDouble();
        double sum = 0;
        for (int i = 0; i < QUANTITY_WEIGHTS.length; i++) {
            sum += QUANTITY_WEIGHTS[i];
            if (u < sum) {
                return i + 1;
            }
        }
        return QUANTITY_WEIGHTS.length;
    }

    /**
     * {@code quantity} adjacent seats in one row that the map shows as free: in the preferred
     * section first (from a front-skewed random row and a random place in it, then onwards), then in
     * the other sections best first. Returns the seats' layout indexes, or null when the map shows
     * no such run anywhere.
     */
    public int[] pick(SeatMap map, ShowPlan.Section preferred, int quantity, RandomGenerator random) {
        int[] seats = pickIn(map, preferred, quantity, random);
        if (seats != null) {
            return seats;
        }
        for (ShowPlan.Section s : plan.sectionsByRank()) {
            if (s != preferred) {
                seats = pickIn(map, s, quantity, random);
                if (seats != null) {
                    return seats;
                }
            }
        }
        return null;
    }

    private static int[] pickIn(SeatMap map, ShowPlan.Section section, int quantity, RandomGenerator random) {
        List<ShowPlan.Row> rows = section.rows();
        double u = random.nextDouble();
        // u squared: the front rows are wanted most
        int firstRow = (int) (rows.size() * u * u);
        for (int k = 0; k < rows.size(); k++) {
            ShowPlan.Row row = rows.get((firstRow + k) % rows.size());
            if (row.seats() < quantity) {
                continue;
            }
            int start = runFrom(map, row, random.nextInt(row.seats()), quantity);
            if (start >= 0) {
                int[] out = new int[quantity];
                for (int q = 0; q < quantity; q++) {
                    out[q] = start + q;
                }
                return out;
            }
        }
        return null;
    }

    /**
     * {@code quantity} adjacent seats in a front-skewed random row of the section, whatever the map
     * shows: what a fan clicks on a map that no longer shows anything free (a stampede's refusals).
     */
    public static int[] anyGroup(ShowPlan.Section section, int quantity, RandomGenerator random) {
        List<ShowPlan.Row> rows = section.rows();
        double u = random.nextDouble();
        ShowPlan.Row row = rows.get((int) (rows.size() * u * u));
        int q = Math.min(quantity, row.seats());
        int start = row.offset() + random.nextInt(row.seats() - q + 1);
        int[] out = new int[q];
        for (int i = 0; i < q; i++) {
            out[i] = start + i;
        }
        return out;
    }

    /**
     * The first run of {@code quantity} free seats in the row at or after seat {@code from}, else
     * the first one before it; -1 if the row has none. One pass over the row: a fan scanning a
     * nearly full map must not cost the load generator more than the request it sends.
     */
    static int runFrom(SeatMap map, ShowPlan.Row row, int from, int quantity) {
        int end = row.offset() + row.seats();
        int run = 0;
        int firstFound = -1;
        for (int i = row.offset(); i < end; i++) {
            run = map.free(i) ? run + 1 : 0;
            if (run >= quantity) {
                int start = i - quantity + 1;
                if (start >= row.offset() + from) {
                    return start;
                }
                if (firstFound < 0) {
                    firstFound = start;
                }
            }
        }
        return firstFound;
    }

    /** The longest run of adjacent free seats in any row of the map (0 when nothing is free). */
    public int longestFreeRun(SeatMap map) {
        int best = 0;
        for (ShowPlan.Section s : plan.sections()) {
            for (ShowPlan.Row row : s.rows()) {
                int run = 0;
                for (int i = row.offset(); i < row.offset() + row.seats(); i++) {
                    run = map.free(i) ? run + 1 : 0;
                    best = Math.max(best, run);
                }
            }
        }
        return best;
    }
}
