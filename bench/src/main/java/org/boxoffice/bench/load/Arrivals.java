package org.boxoffice.bench.load;

import java.util.SplittableRandom;

/**
 * The intended send times of an open-loop load: a Poisson process of {@code perSecond} arrivals a
 * second (exponential gaps), from a seed, so every system gets the same schedule. The times do not
 * depend on when the previous request was answered: a slow server does not slow the arrivals
 * down, and a request's latency is counted from its intended time (no coordinated omission).
 */
public final class Arrivals {

    private final double meanGapNanos;
    private final SplittableRandom random;
    private long next;

    /** @param startNanos the schedule's origin (a {@link System#nanoTime()} value) */
    public Arrivals(double perSecond, long seed, long startNanos) {
        if (!(perSecond > 0)) {
            throw new IllegalArgumentException("rate must be above 0: " + perSecond);
        }
        this.meanGapNanos = 1e9 / perSecond;
        this.random = new SplittableRandom(seed);
        this.next = startNanos + gap();
    }

    /** The intended time of the next arrival, without consuming it. */
    public long peek() {
        return next;
    }

    /** Consumes the next arrival and returns its intended time. */
    public long take() {
        long t = next;
        next += gap();
        return t;
    }

    private long gap() {
        // inverse transform of an exponential; 1 - u is in (0, 1], so the log is finite
        return Math.round(-Math.log(1 - random.nextDouble()) * meanGapNanos);
    }
}
