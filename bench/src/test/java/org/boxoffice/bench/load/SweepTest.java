package org.boxoffice.bench.load;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SweepTest {

    /** A system that keeps up below {@code capacity} attempts/s and falls behind above it. */
    private static Sweep.Step system(double rate, double capacity) {
        boolean ok = rate <= capacity;
        return new Sweep.Step(rate, Math.min(rate, capacity), 5, ok ? 100 : 900, 3, 0, ok);
    }

    @Test
    void search_doublesUntilARateFails_thenBisectsBetweenTheLastGoodAndTheFirstBad() throws Exception {
        Sweep.Result r = Sweep.search(250, 64_000, 2, 250, rate -> system(rate, 1_500));
        List<Double> tried = r.steps().stream().map(Sweep.Step::offeredPerSecond).toList();
        // 250, 500, 1000 hold; 2000 fails twice; sqrt(1000*2000) = 1414 holds; sqrt(1414*2000) = 1682 fails
        assertEquals(List.of(250.0, 500.0, 1_000.0, 2_000.0, 2_000.0, 1_414.0, 1_682.0), tried);
        assertEquals(1_414.0, r.bestRate());
    }

    @Test
    void search_triesAFailedRateOnceMore_beforeItStopsDoubling() throws Exception {
        int[] calls = {0};
        // the second trial (500/s) loses its cores once; its repeat holds
        Sweep.Result r = Sweep.search(250, 2_000, 0, 250, rate -> ++calls[0] == 2 ? system(rate, 0) : system(rate, 1e9));
        assertEquals(2_000.0, r.bestRate());
        assertEquals(List.of(250.0, 500.0, 500.0, 1_000.0, 2_000.0), r.steps().stream().map(Sweep.Step::offeredPerSecond).toList());
    }

    @Test
    void search_reportsNoRate_whenEvenTheFirstFails_andStopsAtTheMaximum() throws Exception {
        assertNull(Sweep.search(250, 64_000, 2, 250, rate -> system(rate, 100)).bestRate());
        Sweep.Result unbounded = Sweep.search(250, 1_000, 2, 250, rate -> system(rate, 1e9));
        assertEquals(1_000.0, unbounded.bestRate());
        assertEquals(3, unbounded.steps().size());
    }

    @Test
    void aStep_isSustainedOnlyUnderTheBudget_keepingUp_andWithNothingLeftUnanswered() {
        Latency fast = new Latency(100, 5, 50, 100, 120, 130, 10);
        Latency slow = new Latency(100, 5, 200, 300, 320, 330, 10);
        assertTrue(Sweep.Step.of(run(980, fast, 0), 250).sustained());
        assertFalse(Sweep.Step.of(run(980, slow, 0), 250).sustained(), "p99 over the budget");
        assertFalse(Sweep.Step.of(run(800, fast, 0), 250).sustained(), "answered under 95 % of the offered rate");
        assertFalse(Sweep.Step.of(run(980, fast, 3), 250).sustained(), "requests left unanswered");
    }

    /** A 10 s run offered 1,000/s that answered {@code answeredPerSecond}. */
    private static RunResult run(double answeredPerSecond, Latency holds, long unanswered) {
        Latency none = new Latency(0, 0, 0, 0, 0, 0, 0);
        RunResult.OpenLoop open = new RunResult.OpenLoop(1_000, 10_000, answeredPerSecond, 10, 0, unanswered, 0, none,
                10_000, 0.1, 0, null, 0);
        return new RunResult("s", "show", 100, 8, 400, 10, false, null, false, (long) (answeredPerSecond * 10), 0, 0, 0, 0,
                java.util.Map.of(), 0, 0, 0, 0, holds, none, none, none, List.of(), null, List.of(), java.util.Set.of(), null,
                List.of(), java.util.Set.of(), open);
    }
}
