package org.boxoffice.bench.probe;

import org.boxoffice.bench.load.Latency;
import org.boxoffice.bench.load.RunResult;
import org.boxoffice.bench.load.RunStats;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class PhaseCostTest {

    private static final long START = 1_000_000_000_000L;

    @Test
    void afterSellOut_pricesTheAttemptsOfTheWholeSecondsAfterTheSellOut() {
        // sold out at 3.2 s: the phase runs from 5 s (a whole second later) to the schedule's end at 10 s
        PhaseCost cost = PhaseCost.afterSellOut(run(3.2), samples());
        assertEquals(5, cost.fromSeconds(), 1e-9);
        assertEquals(10, cost.toSeconds(), 1e-9);
        assertEquals(500, cost.attempts(), 1e-6);
        // the server used half a core: 2.5 CPU-s over 500 attempts
        assertEquals(5_000, cost.microsPerAttempt().get("server"), 1e-6);
    }

    @Test
    void afterSellOut_isNothing_withoutASellOutOrTimeAfterIt() {
        assertNull(PhaseCost.afterSellOut(run(null), samples()));
        assertNull(PhaseCost.afterSellOut(run(7.5), samples()), "from 9 s to 10 s is too short to say anything");
    }

    /** A 10 s run answering 100 attempts a second, sold out at {@code sellOut}. */
    private static RunResult run(Double sellOut) {
        Latency none = new Latency(0, 0, 0, 0, 0, 0, 0);
        List<RunStats.TimelinePoint> timeline = new ArrayList<>();
        for (int t = 1; t <= 10; t++) {
            timeline.add(new RunStats.TimelinePoint(t, 100, 0, 100, 0, 20, 1, 2, 1, 0, 0));
        }
        RunResult.OpenLoop open = new RunResult.OpenLoop(100, 1_000, 100, 10, 0, 0, 0, none, 1_200, 0.1, 0, null, START);
        return new RunResult("s", "show", 100, 8, 400, 10, sellOut != null, sellOut, false, 1_000, 40, 100, 900, 0,
                Map.of(), 0, 0, 0, 0, none, none, none, none, timeline, null, List.of(), Set.of(), null, List.of(), Set.of(), open);
    }

    /** A sample every 250 ms; the server uses half a core all along. */
    private static List<CpuMeter.Sample> samples() {
        List<CpuMeter.Sample> out = new ArrayList<>();
        for (int i = 0; i <= 44; i++) {
            long at = START + i * 250_000_000L;
            out.add(new CpuMeter.Sample(at, Map.of("server", Map.of(7L, i * 125_000_000L))));
        }
        return out;
    }
}
