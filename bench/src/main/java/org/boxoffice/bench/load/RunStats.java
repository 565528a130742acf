package org.boxoffice.bench.load;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a run measured, written by every load thread at once and sampled once a second into a
 * timeline. Latencies are in microseconds, per request, from the first byte written to the last
 * byte read (closed loop: a slow response delays that connection's next request, so the tail is
 * what a connection saw, not what an open stream of arrivals would see).
 */
public final class RunStats {

    private static final int DIGITS = 3;

    final Recorder holds = new Recorder(DIGITS);
    /** Holds answered to the request's first send: without the fans' resends after a lost connection. */
    final Recorder firstTryHolds = new Recorder(DIGITS);
    final Recorder successfulHolds = new Recorder(DIGITS);
    final Recorder reads = new Recorder(DIGITS);
    final Recorder releases = new Recorder(DIGITS);

    final LongAdder attempts = new LongAdder();
    final LongAdder successes = new LongAdder();
    final LongAdder conflicts = new LongAdder();
    final LongAdder seatsHeld = new LongAdder();
    final LongAdder bestAvailableAttempts = new LongAdder();
    final LongAdder readCount = new LongAdder();
    final LongAdder notModified = new LongAdder();
    final LongAdder releaseCount = new LongAdder();
    final LongAdder seatsReleased = new LongAdder();
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final LongAdder serverErrors = new LongAdder();
    private final LongAdder transportErrors = new LongAdder();

    private final Histogram totalHolds = new Histogram(DIGITS);
    private final Histogram totalSuccessful = new Histogram(DIGITS);
    private final Histogram totalReads = new Histogram(DIGITS);
    private final Histogram totalReleases = new Histogram(DIGITS);
    private final List<TimelinePoint> timeline = new ArrayList<>();
    private long lastAttempts;
    private long lastSuccesses;
    private long lastConflicts;
    private long lastErrors;
    private long lastReads;
    private long lastServerErrors;
    private long lastTransportErrors;
    private double lastAt;

    /**
     * One interval of the timeline; rates per second over the interval ending at {@code t}.
     *
     * @param t seconds since the run started
     */
    public record TimelinePoint(double t, double attemptsPerSecond, double holdsPerSecond, double conflictsPerSecond,
                                double errorsPerSecond, double readsPerSecond, double holdP50Ms, double holdP99Ms,
                                double readP99Ms, double serverErrorsPerSecond, double transportErrorsPerSecond,
                                double firstTryHoldP99Ms) {

        /** A point of a run that sent nothing again: every hold was answered to its first send. */
        public TimelinePoint(double t, double attemptsPerSecond, double holdsPerSecond, double conflictsPerSecond,
                             double errorsPerSecond, double readsPerSecond, double holdP50Ms, double holdP99Ms,
                             double readP99Ms, double serverErrorsPerSecond, double transportErrorsPerSecond) {
            this(t, attemptsPerSecond, holdsPerSecond, conflictsPerSecond, errorsPerSecond, readsPerSecond, holdP50Ms,
                    holdP99Ms, readP99Ms, serverErrorsPerSecond, transportErrorsPerSecond, holdP99Ms);
        }
    }

    /** Counts an error by kind: an HTTP status ({@code "503"}) or {@code "transport"}. */
    void error(String kind) {
        errors.computeIfAbsent(kind, k -> new LongAdder()).increment();
        if (kind.equals("transport")) {
            transportErrors.increment();
        } else if (kind.length() == 3 && kind.charAt(0) == '5') {
            serverErrors.increment();
        }
    }

    /** Takes the interval since the last sample into the totals and the timeline. Called by one thread. */
    synchronized void sample(double now) {
        Histogram h = holds.getIntervalHistogram();
        Histogram first = firstTryHolds.getIntervalHistogram();
        Histogram ok = successfulHolds.getIntervalHistogram();
        Histogram r = reads.getIntervalHistogram();
        Histogram rel = releases.getIntervalHistogram();
        totalHolds.add(h);
        totalSuccessful.add(ok);
        totalReads.add(r);
        totalReleases.add(rel);
        double span = now - lastAt;
        if (span <= 0.05) {
            return;
        }
        long a = attempts.sum();
        long s = successes.sum();
        long c = conflicts.sum();
        long e = errorCount();
        long rd = readCount.sum();
        long se = serverErrors.sum();
        long te = transportErrors.sum();
        timeline.add(new TimelinePoint(now, (a - lastAttempts) / span, (s - lastSuccesses) / span,
                (c - lastConflicts) / span, (e - lastErrors) / span, (rd - lastReads) / span,
                ms(h, 50), ms(h, 99), ms(r, 99), (se - lastServerErrors) / span, (te - lastTransportErrors) / span,
                ms(first, 99)));
        lastServerErrors = se;
        lastTransportErrors = te;
        lastAttempts = a;
        lastSuccesses = s;
        lastConflicts = c;
        lastErrors = e;
        lastReads = rd;
        lastAt = now;
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1000.0;
    }

    long errorCount() {
        return errors.values().stream().mapToLong(LongAdder::sum).sum();
    }

    Map<String, Long> errors() {
        Map<String, Long> out = new TreeMap<>();
        errors.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    synchronized Histogram totalHolds() {
        return totalHolds.copy();
    }

    synchronized Histogram totalSuccessful() {
        return totalSuccessful.copy();
    }

    synchronized Histogram totalReads() {
        return totalReads.copy();
    }

    synchronized Histogram totalReleases() {
        return totalReleases.copy();
    }

    synchronized List<TimelinePoint> timeline() {
        return List.copyOf(timeline);
    }
}
