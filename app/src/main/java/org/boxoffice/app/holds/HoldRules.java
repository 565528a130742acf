package org.boxoffice.app.holds;

import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.Show;
import org.boxoffice.grid.ShowSnapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The rules a hold request passes before its seats are claimed, in the one order clients see their
 * refusals in. The first rule that refuses decides; the rest are not asked.
 *
 * <ol>
 *   <li>{@link ShowExistsRule}: the show exists ({@code 404});</li>
 *   <li>{@link SaleOpenRule}: its sale is open now ({@code 422 SALE_NOT_OPEN});</li>
 *   <li>{@link HoldSizeRule}: 1 to the show's maximum seats (or admissions) per hold ({@code 422 TOO_MANY_SEATS});</li>
 *   <li>{@link SectionExistsRule}: best available in a section the show has ({@code 422 UNKNOWN_SECTION});</li>
 *   <li>{@link AreaExistsRule}: admissions to a general-admission area the show has ({@code 422 UNKNOWN_AREA});</li>
 *   <li>{@link SeatsExistRule}: named seats the show has ({@code 422 UNKNOWN_SEAT});</li>
 *   <li>{@link SeatsFreeRule}: named seats this member's seat map shows free ({@code 409 SEATS_UNAVAILABLE}
 *       with alternatives), answered at once, ahead of the account's rate limit: the fast gate.</li>
 *   <li>{@link AdmissionsLeftRule}: admissions, unless the area is known to have fewer left
 *       ({@code 409 SOLD_OUT}), answered at once as the seat map's refusal: general admission's fast gate.</li>
 * </ol>
 * Rules 1 to 5 are the show's terms ({@link #showsTerms}), which a waitlist join passes too.
 * After them comes the claim ({@link HoldManager#hold}), where the grid decides: the account's
 * allowance ({@code 422 ACCOUNT_LIMIT}), then the blocks' processors and the referee
 * ({@code 409 SEATS_UNAVAILABLE}), or the area's stripes ({@code 409 SOLD_OUT}).
 *
 * <p>Evaluated once per request, by the web layer before anything else and handed to the claim:
 * the fast gate and the full path are the same evaluation. Thread-safe; the rules keep no state.
 */
public final class HoldRules {

    private final HoldRule[] order;
    private final LongSupplier clock;

    HoldRules(List<HoldRule> order, LongSupplier clock) {
        this.order = order.toArray(HoldRule[]::new);
        this.clock = clock;
    }

    /**
     * The rules above, in their order.
     *
     * @param shows     finds a show by id (this member's directory)
     * @param snapshots a show's current seat map on this member
     * @param areas     a show's general-admission area, by show id and name
     * @param soldOut   what a claim on an area would hear now, if its sold-out mark already says so
     */
    static HoldRules standard(Function<String, Optional<Show>> shows, Function<Show, ShowSnapshot> snapshots,
                              BiFunction<String, String, Optional<AdmissionArea>> areas,
                              AdmissionsLeftRule.KnownSoldOut soldOut, LongSupplier clock) {
        List<HoldRule> order = new ArrayList<>(showsTerms(shows, areas));
        order.add(new SeatsExistRule());
        order.add(new SeatsFreeRule(snapshots));
        order.add(new AdmissionsLeftRule(soldOut));
        return new HoldRules(order, clock);
    }

    /**
     * Rules 1 to 5 above, in their order: what the show lets anyone ask for (the show, its sale
     * window, the size, the section or area), before any seat or admission on sale is looked at. A
     * waitlist join asks what a hold asks and passes these same rules; the rules after them judge
     * what is free now, which a join answers the other way round (it is refused while the request
     * can simply be held).
     *
     * @param shows finds a show by id (this member's directory)
     * @param areas a show's general-admission area, by show id and name
     */
    public static HoldRules showsTerms(Function<String, Optional<Show>> shows,
                                       BiFunction<String, String, Optional<AdmissionArea>> areas, LongSupplier clock) {
        return new HoldRules(showsTerms(shows, areas), clock);
    }

    private static List<HoldRule> showsTerms(Function<String, Optional<Show>> shows,
                                             BiFunction<String, String, Optional<AdmissionArea>> areas) {
        return List.of(
                new ShowExistsRule(shows),
                new SaleOpenRule(),
                new HoldSizeRule(),
                new SectionExistsRule(),
                new AreaExistsRule(areas));
    }

    /** Puts a new attempt for {@code request} through the rules, now: changes nothing. */
    public HoldAttempt evaluate(String showId, HoldRequest request) {
        HoldAttempt attempt = new HoldAttempt(showId, request, clock.getAsLong());
        for (HoldRule rule : order) {
            Optional<Outcome.Refused<HoldView>> refused = rule.check(attempt);
            if (refused.isPresent()) {
                attempt.refuse(refused.get(), rule.answeredAtTheGate());
                break;
            }
        }
        return attempt;
    }

    /** The rules' names, in their order (for the docs and the tests). */
    List<String> names() {
        List<String> names = new ArrayList<>(order.length);
        for (HoldRule rule : order) {
            names.add(rule.getClass().getSimpleName());
        }
        return names;
    }
}
