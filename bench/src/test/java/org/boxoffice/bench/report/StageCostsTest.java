package org.boxoffice.bench.report;

import org.boxoffice.bench.load.RunStats;
import org.boxoffice.bench.probe.StageProfile;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class StageCostsTest {

    @Test
    void render_printsEachStage_sharePerAttemptAndPerDurableHold_thenTheTotal() {
        StageProfile.Breakdown b = StageProfile.breakdown("until sold out (2.0 s)", "CPU-time samples",
                new long[] {30, 10, 0, 0, 0, 0, 20, 0, 40, 0, 0, 0, 0, 0, 0, 0}, 1.5, java.util.Map.of(), 3_000, 1_000);
        assertEquals("""

                server CPU of boxoffice by stage, until sold out (2.0 s): 100 CPU-time samples scaled to 1.5 CPU-s; 3,000 attempts, 1,000 durable holds
                  stage                             share   us/attempt us/durable hold
                  HTTP and parsing                  30.0%        150.0          450.0
                  token                             10.0%         50.0          150.0
                  claim processor                   20.0%        100.0          300.0
                  the statement                     40.0%        200.0          600.0
                  all                              100.0%        500.0         1500.0
                """, StageCosts.render("boxoffice", b));
    }

    @Test
    void attemptsUntil_countsTheTimeline_andTheLastIntervalInPart() {
        List<RunStats.TimelinePoint> timeline = List.of(point(1, 100), point(2, 300), point(3, 500));
        assertEquals(100 + 300 * 0.5, StageCosts.attemptsUntil(timeline, 1.5), 1e-9);
        assertEquals(900, StageCosts.attemptsUntil(timeline, 10), 1e-9);
    }

    private static RunStats.TimelinePoint point(double t, double attemptsPerSecond) {
        return new RunStats.TimelinePoint(t, attemptsPerSecond, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }
}
