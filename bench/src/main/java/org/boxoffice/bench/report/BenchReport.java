package org.boxoffice.bench.report;

import org.boxoffice.bench.probe.ExpiryCheck;
import org.boxoffice.bench.probe.HeapFootprint;
import org.boxoffice.bench.probe.HttpCeiling;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything a bench run produced, as written to {@code results.json} and summarized on stdout.
 *
 * @param httpCeiling requests/s of an empty handler on the baseline's web server, or null without baselines
 * @param expiry null when skipped
 * @param memory null when skipped or not measurable (a service the bench did not start)
 */
public record BenchReport(Instant startedAt, Map<String, Object> machine, String command, Map<String, Object> settings,
                          List<SystemOutcome> systems, HttpCeiling.Result httpCeiling, ExpiryCheck.Result expiry, HeapFootprint.Result memory,
                          List<TargetCheck> targets, List<String> notes) {

    public SystemOutcome system(String name) {
        return systems.stream().filter(s -> s.run().system().equals(name)).findFirst().orElse(null);
    }

    /** The baseline with the most hold attempts per second, or null without baselines. */
    public SystemOutcome bestBaseline() {
        return systems.stream().filter(s -> s.run().system().startsWith("pg-"))
                .max(java.util.Comparator.comparingDouble(s -> s.run().attemptsPerSecond())).orElse(null);
    }

    public long violations() {
        return systems.stream().mapToLong(SystemOutcome::violations).sum();
    }
}
