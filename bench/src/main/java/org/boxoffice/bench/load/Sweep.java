package org.boxoffice.bench.load;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds the highest offered rate a system sustains: each trial is an open-loop run at one rate on
 * a fresh show; a rate is sustained when the hold p99 (from the intended send times) stays under
 * the budget, the system answers at least {@value #KEEP_UP} of what was offered, and nothing is
 * left unanswered. The rate doubles from {@code start} until a trial fails twice in a row (or
 * {@code max}), then {@code refinements} geometric bisections between the last sustained and the
 * first failed rate. A failure is tried once more before it counts: on a machine shared with
 * others, one trial can lose its cores for a second, and the search must not stop on that.
 */
public final class Sweep {

    /** The hold p99 a sustained rate stays under, in milliseconds, in every sweep of the bench. */
    public static final double BUDGET_MS = 250;
    /** Share of the offered attempts a system must answer within the trial (plus its drain) to keep up. */
    static final double KEEP_UP = 0.95;

    /** One trial: what was offered and what came back. */
    public record Step(double offeredPerSecond, double achievedPerSecond, double holdP50Ms, double holdP99Ms,
                       double readP99Ms, long unanswered, boolean sustained) {

        /** A trial's figures from its run, judged against {@code budgetMs}. */
        public static Step of(RunResult r, double budgetMs) {
            RunResult.OpenLoop o = r.openLoop();
            // arrivals with nobody to send (the crowd had tried everything) were not offered to the system
            double offered = o.scheduleSeconds() > 0 ? (o.scheduled() - o.idleArrivals()) / o.scheduleSeconds() : 0;
            boolean ok = r.holdLatency().p99() < budgetMs && o.unanswered() == 0
                    && r.attemptsPerSecond() >= KEEP_UP * offered;
            return new Step(o.offeredPerSecond(), r.attemptsPerSecond(), r.holdLatency().p50(), r.holdLatency().p99(),
                    r.readLatency().p99(), o.unanswered(), ok);
        }
    }

    /** @param bestRate the highest sustained offered rate, or null when even the first failed */
    public record Result(double budgetMs, List<Step> steps, Double bestRate) {
    }

    @FunctionalInterface
    public interface Trial {
        Step run(double offeredPerSecond) throws Exception;
    }

    private Sweep() {
    }

    public static Result search(double start, double max, int refinements, double budgetMs, Trial trial) throws Exception {
        List<Step> steps = new ArrayList<>();
        Double best = null;
        Double failed = null;
        for (double rate = start; rate <= max; rate *= 2) {
            Step s = trial.run(rate);
            steps.add(s);
            if (!s.sustained()) {
                s = trial.run(rate);
                steps.add(s);
            }
            if (!s.sustained()) {
                failed = rate;
                break;
            }
            best = rate;
        }
        if (best == null || failed == null) {
            return new Result(budgetMs, steps, best);
        }
        double lo = best;
        double hi = failed;
        for (int i = 0; i < refinements; i++) {
            double mid = Math.round(Math.sqrt(lo * hi));
            Step s = trial.run(mid);
            steps.add(s);
            if (s.sustained()) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return new Result(budgetMs, steps, lo);
    }
}
