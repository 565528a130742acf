package org.boxoffice.bench.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Checks a general-admission sale against the referee's rows after the run, as {@link RunChecker}
 * does for seats. Pure: the caller loads the rows ({@link AreaState}).
 *
 * <p>Violations (each must be zero):
 * <ul>
 *   <li><b>over capacity:</b> the counter says more admissions are taken than the area has, the
 *       holds keep more than that, or the buyers were told of more;</li>
 *   <li><b>not backed:</b> an acknowledged hold with no row, a row that is not ACTIVE or CONFIRMED,
 *       or a row that keeps another number of admissions than the buyer was told;</li>
 *   <li><b>counter apart from the holds:</b> the counter's taken differs from what the holds keep
 *       (an admission counted with no hold behind it, or a hold not counted).</li>
 * </ul>
 * Admissions kept by holds nobody was told about (an answer lost) are counted, not violations.
 *
 * <p>Also counted: the {@code SOLD_OUT} answers given while admissions remained. A sold-out answer
 * to a request for {@code q} admissions that arrived at time {@code t} counts when the area's
 * capacity, less every admission kept at the end of the run by a hold created at or before
 * {@code t}, was at least {@code q}. Holds are created before they commit, so this takes at least
 * as many as were taken when the system decided; and nothing is given back during a stampede (no
 * release, no lapse within a 7-minute hold), so at that moment at least {@code q} were left and no
 * hold would ever take them: the count is a lower bound. An admission a claim took and gave back
 * (all or nothing) counts as left, since nobody bought it.
 */
public final class AreaChecker {

    /**
     * A hold of the area in the referee.
     *
     * @param kept      admissions the referee still counts for it (held or sold)
     * @param createdAt epoch millis of its {@code created_at}
     */
    public record HoldRow(String holdId, String status, int quantity, int kept, long createdAt) {
    }

    /**
     * @param leftAtEnd           capacity minus the counter's taken after the run
     * @param soldOutAnswers      {@code SOLD_OUT} answers received
     * @param soldOutWhileLeft    those given while at least the asked number remained (see the class comment)
     */
    public record Report(int capacity, long taken, long leftAtEnd, long acknowledged, long acknowledgedAdmissions,
                         RunChecker.Finding overCapacity, RunChecker.Finding notBacked, RunChecker.Finding counterApart,
                         long unacknowledgedAdmissions, long soldOutAnswers, long soldOutWhileLeft) {

        public long violations() {
            return overCapacity.count() + notBacked.count() + counterApart.count();
        }
    }

    private AreaChecker() {
    }

    public static Report check(List<AckedHold> acked, AreaState state, List<SoldOutAnswer> soldOut) {
        Map<String, HoldRow> rows = new HashMap<>();
        long kept = 0;
        for (HoldRow h : state.holds()) {
            rows.put(h.holdId(), h);
            kept += h.kept();
        }
        List<String> notBacked = new ArrayList<>();
        long told = 0;
        long keptByAcked = 0;
        for (AckedHold a : acked) {
            told += a.quantity();
            HoldRow row = rows.get(a.holdId());
            if (row == null) {
                notBacked.add(a.holdId() + ": no row");
            } else if (!row.status().equals("ACTIVE") && !row.status().equals("CONFIRMED")) {
                notBacked.add(a.holdId() + ": " + row.status());
            } else if (row.kept() != a.quantity()) {
                notBacked.add(fmt("%s: keeps %d of the %d acknowledged", a.holdId(), row.kept(), a.quantity()));
            }
            if (row != null) {
                keptByAcked += row.kept();
            }
        }
        List<String> over = new ArrayList<>();
        if (state.taken() > state.capacity()) {
            over.add(fmt("the counter has %d taken of %d", state.taken(), state.capacity()));
        }
        if (kept > state.capacity()) {
            over.add(fmt("holds keep %d of %d", kept, state.capacity()));
        }
        if (told > state.capacity()) {
            over.add(fmt("buyers were told of %d of %d", told, state.capacity()));
        }
        List<String> apart = kept == state.taken() ? List.of()
                : List.of(fmt("the counter has %d taken, the holds keep %d", state.taken(), kept));
        return new Report(state.capacity(), state.taken(), state.capacity() - state.taken(), acked.size(), told,
                RunChecker.Finding.of(over), RunChecker.Finding.of(notBacked), RunChecker.Finding.of(apart),
                kept - keptByAcked, soldOut.size(), soldOutWhileLeft(state.capacity(), state.holds(), soldOut));
    }

    /** The {@code SOLD_OUT} answers given while at least the asked number remained (see the class comment). */
    static long soldOutWhileLeft(int capacity, List<HoldRow> holds, List<SoldOutAnswer> answers) {
        List<HoldRow> keeping = holds.stream().filter(h -> h.kept() > 0).sorted(Comparator.comparingLong(HoldRow::createdAt)).toList();
        long[] createdAt = new long[keeping.size()];
        long[] takenBy = new long[keeping.size()];
        long sum = 0;
        for (int i = 0; i < keeping.size(); i++) {
            createdAt[i] = keeping.get(i).createdAt();
            sum += keeping.get(i).kept();
            takenBy[i] = sum;
        }
        long wrong = 0;
        for (SoldOutAnswer a : answers) {
            int created = upTo(createdAt, a.atMillis());
            long taken = created == 0 ? 0 : takenBy[created - 1];
            if (capacity - taken >= a.quantity()) {
                wrong++;
            }
        }
        return wrong;
    }

    /** How many of the sorted {@code times} are at or before {@code t}. */
    private static int upTo(long[] times, long t) {
        int i = Arrays.binarySearch(times, t);
        if (i < 0) {
            return -i - 1;
        }
        while (i + 1 < times.length && times[i + 1] == t) {
            i++;
        }
        return i + 1;
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
