package org.boxoffice.bench.report;

import org.boxoffice.bench.load.RunResult;
import org.boxoffice.bench.load.RunStats;
import org.boxoffice.bench.probe.CpuMeter;
import org.boxoffice.bench.probe.StageProfile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A profiled system's server CPU by stage of a hold ({@link StageProfile}), scaled by the service's
 * measured CPU: over the whole measured run (the recording starts right before the run's first CPU
 * reading and is dumped right after its last), and, when the show sold out, until the sell-out,
 * where the winners are. Until the sell-out, the Java threads' CPU is the run's in proportion to the
 * samples taken then, and the attempts are the timeline's.
 */
public final class StageCosts {

    private StageCosts() {
    }

    /**
     * The breakdowns of {@code s}: the whole run, the JIT compiler's and the collector's CPU (never
     * sampled) as rows of their own; then until the sell-out, the Java threads' CPU alone. Empty
     * without a profile or a CPU reading.
     */
    public static List<StageProfile.Breakdown> of(SystemOutcome s) {
        if (s.profile() == null || s.profile().stages() == null || s.cpuSeconds() == null || s.cpuSeconds().get("server") == null) {
            return List.of();
        }
        StageProfile stages = s.profile().stages();
        RunResult run = s.run();
        Map<String, Double> unsampled = new LinkedHashMap<>();
        for (String kind : List.of(CpuMeter.JIT, CpuMeter.GC)) {
            Double cpu = s.serverThreadCpu() == null ? null : s.serverThreadCpu().get(kind);
            if (cpu != null) {
                unsampled.put(kind, cpu);
            }
        }
        double sampled = Math.max(0, s.cpuSeconds().get("server") - unsampled.values().stream().mapToDouble(Double::doubleValue).sum());
        List<StageProfile.Breakdown> out = new ArrayList<>();
        out.add(StageProfile.breakdown("measured run", stages.source(), stages.counts(), sampled, unsampled, run.attempts(),
                run.successes()));
        if (run.openLoop() != null && run.sellOutSeconds() != null && stages.samples() > 0) {
            long from = epochMillis(run.openLoop().startNanos());
            long[] selling = stages.counts(from, from + Math.round(run.sellOutSeconds() * 1000));
            long n = Arrays.stream(selling).sum();
            out.add(StageProfile.breakdown(String.format(Locale.ROOT, "until sold out (%.1f s), Java threads only", run.sellOutSeconds()),
                    stages.source(), selling, sampled * n / stages.samples(), Map.of(),
                    attemptsUntil(run.timeline(), run.sellOutSeconds()), run.successes()));
        }
        return out;
    }

    /** The wall-clock time of a {@link System#nanoTime()} reading of this process. */
    static long epochMillis(long nanoTime) {
        return System.currentTimeMillis() - (System.nanoTime() - nanoTime) / 1_000_000;
    }

    /** Attempts answered in the timeline's first {@code seconds}, the last interval counted in part. */
    static double attemptsUntil(List<RunStats.TimelinePoint> timeline, double seconds) {
        double attempts = 0;
        double previous = 0;
        for (RunStats.TimelinePoint p : timeline) {
            if (previous >= seconds) {
                break;
            }
            double end = Math.min(p.t(), seconds);
            attempts += p.attemptsPerSecond() * (end - previous);
            previous = p.t();
        }
        return attempts;
    }

    /** The breakdown as the summary prints it: one line per stage, a total, and what the PostgreSQL side can tell. */
    static String render(String system, StageProfile.Breakdown b) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "%nserver CPU of %s by stage, %s: %,d %s scaled to %.1f CPU-s; %,.0f attempts, %,d durable holds%n",
                system, b.window(), b.samples(), b.source(), b.serverCpuSeconds(), b.attempts(), b.holds()));
        sb.append(String.format(Locale.ROOT, "  %-32s %6s %12s %14s%n", "stage", "share", "us/attempt", "us/durable hold"));
        for (StageProfile.Row r : b.rows()) {
            sb.append(String.format(Locale.ROOT, "  %-32s %5.1f%% %12.1f %14.1f%n", r.stage(), 100 * r.share(), r.microsPerAttempt(),
                    r.microsPerHold()));
        }
        sb.append(String.format(Locale.ROOT, "  %-32s %5.1f%% %12.1f %14.1f%n", "all", 100.0, b.serverMicrosPerAttempt(),
                b.serverMicrosPerHold()));
        return sb.toString();
    }
}
