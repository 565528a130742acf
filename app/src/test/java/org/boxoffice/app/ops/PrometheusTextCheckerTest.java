package org.boxoffice.app.ops;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checker catches what promtool refuses, and passes what it accepts. */
class PrometheusTextCheckerTest {

    @Test
    void aCleanExposition_passes() {
        String text = """
                # HELP boxoffice_hold_outcomes_total hold requests by outcome
                # TYPE boxoffice_hold_outcomes_total counter
                boxoffice_hold_outcomes_total{outcome="held"} 3.0
                # HELP boxoffice_hold_latency_seconds time to answer a hold request
                # TYPE boxoffice_hold_latency_seconds histogram
                boxoffice_hold_latency_seconds_bucket{le="0.005"} 1
                boxoffice_hold_latency_seconds_bucket{le="+Inf"} 3
                boxoffice_hold_latency_seconds_count 3
                boxoffice_hold_latency_seconds_sum 0.02
                # HELP boxoffice_grid_members members in view
                # TYPE boxoffice_grid_members gauge
                boxoffice_grid_members 1
                """;
        assertEquals(List.of(), PrometheusTextChecker.problems(text));
    }

    @Test
    void quantilesInAHistogram_camelCase_aCounterWithoutTotal_andAMissingHelp_areFlagged() {
        String text = """
                # HELP hold_latency_seconds latency
                # TYPE hold_latency_seconds histogram
                hold_latency_seconds{quantile="0.99"} 0.01
                hold_latency_seconds_bucket{le="0.005"} 1
                hold_latency_seconds_count 1
                hold_latency_seconds_sum 0.001
                # TYPE jvmThreads gauge
                jvmThreads 12
                # HELP requests requests
                # TYPE requests counter
                requests 4
                """;
        String problems = String.join("\\n", PrometheusTextChecker.problems(text));
        assertTrue(problems.contains("has a quantile sample"), problems);
        assertTrue(problems.contains("without a +Inf bucket"), problems);
        assertTrue(problems.contains("jvmThreads: no help text"), problems);
        assertTrue(problems.contains("jvmThreads: metric names should be written in snake_case"), problems);
        assertTrue(problems.contains("requests: counter metrics should have \"_total\" suffix"), problems);
    }
}
