package org.boxoffice.domain;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.IntPredicate;

/**
 * Decides which waiter is offered seats that came back, and which seats.
 *
 * <p>Strict first come, first served by default ({@code lookahead} 0): only the head of the line
 * is considered. A head whose request does not fit the free seats waits, and so does everyone
 * behind it, even someone whose smaller request would fit: nobody is served before someone who
 * waited longer. A look-ahead of {@code k} also considers, in line order, the {@code k} entries
 * right behind the head when the head does not fit. Seats the head cannot use then go to a smaller
 * request instead of staying empty (better utilisation), at the price of serving someone before a
 * longer waiter. The bound is on distance, not on count: the head can be passed again and again
 * while small requests behind it keep fitting.
 *
 * <p>"Fits" means {@code quantity} adjacent seats in one row, in the entry's section if it named
 * one, chosen like a best-available hold ({@link SeatPicker#bestAvailable}). Pure: the caller
 * holds the seats and calls again with what changed.
 */
public final class WaitlistMatcher {

    private final int lookahead;

    public WaitlistMatcher(int lookahead) {
        if (lookahead < 0) {
            throw new IllegalArgumentException("the look-ahead is 0 (strict first come, first served) or more");
        }
        this.lookahead = lookahead;
    }

    public int lookahead() {
        return lookahead;
    }

    /** An entry and the seats to offer it (none for an entry waiting for admissions: it is offered its quantity). */
    public record Match(WaitlistEntry entry, List<String> seatIds) {
        public Match {
            seatIds = List.copyOf(seatIds);
        }
    }

    /**
     * The next offer to make: the first entry among the head and the {@code lookahead} entries
     * behind it whose request fits the free seats; empty when none does.
     *
     * @param line waiting entries, first come first
     * @param free which seats (global layout index) are free now
     */
    public Optional<Match> next(List<WaitlistEntry> line, ShowLayout layout, IntPredicate free) {
        SeatPicker picker = new SeatPicker(layout, free);
        return first(line, entry -> picker.bestAvailable(entry.quantity(), entry.section())
                .map(seats -> new Match(entry, seats.seatIds())));
    }

    /**
     * The next offer of admissions to one general-admission area: the first entry among the head and
     * the {@code lookahead} entries behind it that asks for at most {@code free} admissions; empty
     * when none does. The same order as for seats: a head asking for more than came back waits, and
     * (look-ahead 0) so does everyone behind it.
     *
     * @param line waiting entries for the area, first come first
     * @param free admissions of the area free now
     */
    public Optional<Match> next(List<WaitlistEntry> line, int free) {
        return first(line, entry -> entry.quantity() <= free ? Optional.of(new Match(entry, List.of())) : Optional.empty());
    }

    private Optional<Match> first(List<WaitlistEntry> line, Function<WaitlistEntry, Optional<Match>> fits) {
        int window = (int) Math.min(line.size(), lookahead + 1L);
        for (int i = 0; i < window; i++) {
            Optional<Match> match = fits.apply(line.get(i));
            if (match.isPresent()) {
                return match;
            }
        }
        return Optional.empty();
    }
}
