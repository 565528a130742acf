package org.boxoffice.bench.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TargetsTest {

    private static final String HALF = "hold p99 / seat-map p99 at half the highest rate";
    private static final String VIOLATIONS = "invariant violations (all systems)";

    @Test
    void theHalfRateSaleIsJudgedOnBothBoundsStrictly() {
        TargetCheck met = line(Targets.stampede(List.of(), null, null, new HalfRate(4_000, 44.2, 96.2, 6.3, 0)), HALF);
        assertTrue(met.met());
        assertEquals("44.2 ms / 6.3 ms at 4,000/s (winners' p99 96.2 ms)", met.measured());

        assertFalse(line(Targets.stampede(List.of(), null, null, new HalfRate(4_000, 50.0, 96.2, 6.3, 0)), HALF).met(),
                "hold p99 must be under 50 ms");
        assertFalse(line(Targets.stampede(List.of(), null, null, new HalfRate(4_000, 30.0, 96.2, 20.0, 0)), HALF).met(),
                "seat-map p99 must be under 20 ms");
    }

    @Test
    void withoutTheHalfRateSaleTheTargetIsNotJudged() {
        TargetCheck none = line(Targets.stampede(List.of(), null), HALF);
        assertNull(none.met());
        assertTrue(none.measured().contains("--sweep"), none.measured());
    }

    @Test
    void violationsInTheHalfRateSaleCount() {
        TargetCheck clean = line(Targets.stampede(List.of(), null, null, new HalfRate(4_000, 44.2, 96.2, 6.3, 0)), VIOLATIONS);
        assertTrue(clean.met());
        TargetCheck broken = line(Targets.stampede(List.of(), null, null, new HalfRate(4_000, 44.2, 96.2, 6.3, 2)), VIOLATIONS);
        assertFalse(broken.met());
        assertEquals("2", broken.measured());
    }

    private static TargetCheck line(List<TargetCheck> checks, String target) {
        return checks.stream().filter(c -> c.target().equals(target)).findFirst().orElseThrow();
    }
}
