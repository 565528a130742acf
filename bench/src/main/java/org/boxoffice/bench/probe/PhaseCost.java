package org.boxoffice.bench.probe;

import org.boxoffice.bench.load.RunResult;
import org.boxoffice.bench.load.RunStats;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU per hold attempt in one phase of a stampede: after the sell-out, when every attempt is a
 * refusal. A run's CPU per attempt mixes winners and refusals in proportions that depend on the
 * offered rate (every system sells the same seats, so the faster one answers more refusals per
 * hold); this phase prices a refusal alone, which is what most of a real on-sale is, and what the
 * empty handler's CPU per request is the floor of.
 *
 * <p>The CPU comes from samples taken every {@value #SAMPLE_MILLIS} ms during the run, interpolated
 * at the timeline's whole seconds; the attempts from the timeline. The sampler runs in the bench's
 * process, so its own CPU (reading /proc for every PostgreSQL backend) counts as the load
 * generator's: once a second keeps that under a microsecond per request.
 *
 * @param fromSeconds   start of the phase, seconds since the run's start (a whole second after the sell-out)
 * @param toSeconds     its end (the last timeline point of the schedule)
 * @param microsPerAttempt CPU microseconds per attempt per process group in the phase
 */
public record PhaseCost(double fromSeconds, double toSeconds, double attempts, Map<String, Double> microsPerAttempt) {

    public static final long SAMPLE_MILLIS = 1_000;
    /** A phase shorter than this says nothing. */
    private static final double MIN_SECONDS = 3;

    /** The refusals-only phase of the run, or null when it did not sell out with time to spare. */
    public static PhaseCost afterSellOut(RunResult run, List<CpuMeter.Sample> samples) {
        RunResult.OpenLoop open = run.openLoop();
        if (open == null || run.sellOutSeconds() == null || samples.size() < 2) {
            return null;
        }
        List<RunStats.TimelinePoint> timeline = run.timeline();
        double from = Math.ceil(run.sellOutSeconds() + 1);
        double to = Math.floor(open.scheduleSeconds());
        double attempts = 0;
        double previous = 0;
        double first = Double.NaN;
        double last = Double.NaN;
        for (RunStats.TimelinePoint p : timeline) {
            if (previous >= from - 0.05 && p.t() <= to + 0.05) {
                attempts += p.attemptsPerSecond() * (p.t() - previous);
                if (Double.isNaN(first)) {
                    first = previous;
                }
                last = p.t();
            }
            previous = p.t();
        }
        if (Double.isNaN(first) || last - first < MIN_SECONDS || attempts <= 0) {
            return null;
        }
        long a = open.startNanos() + (long) (first * 1e9);
        long b = open.startNanos() + (long) (last * 1e9);
        Map<String, Double> micros = new LinkedHashMap<>();
        for (String group : samples.get(0).cpuNanos().keySet()) {
            double cpu = cpuAt(samples, group, b) - cpuAt(samples, group, a);
            if (!Double.isNaN(cpu)) {
                micros.put(group, cpu / 1e3 / attempts);
            }
        }
        return new PhaseCost(first, last, attempts, micros);
    }

    /** A group's CPU nanoseconds at {@code at}, interpolated between the samples around it; NaN outside them. */
    static double cpuAt(List<CpuMeter.Sample> samples, String group, long at) {
        for (int i = 1; i < samples.size(); i++) {
            CpuMeter.Sample s0 = samples.get(i - 1);
            CpuMeter.Sample s1 = samples.get(i);
            if (s0.atNanos() <= at && at <= s1.atNanos()) {
                double c0 = total(s0, group);
                double c1 = total(s1, group);
                double f = s1.atNanos() == s0.atNanos() ? 0 : (double) (at - s0.atNanos()) / (s1.atNanos() - s0.atNanos());
                return c0 + f * (c1 - c0);
            }
        }
        return Double.NaN;
    }

    private static double total(CpuMeter.Sample s, String group) {
        return s.cpuNanos().getOrDefault(group, Map.of()).values().stream().mapToLong(Long::longValue).sum();
    }
}
