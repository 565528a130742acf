package org.boxoffice.bench.load;

import org.HdrHistogram.Histogram;

/** Percentiles of a latency histogram recorded in microseconds, reported in milliseconds. */
public record Latency(long count, double p50, double p95, double p99, double p999, double max, double mean) {

    public static Latency of(Histogram micros) {
        if (micros.getTotalCount() == 0) {
            return new Latency(0, 0, 0, 0, 0, 0, 0);
        }
        return new Latency(micros.getTotalCount(), ms(micros.getValueAtPercentile(50)),
                ms(micros.getValueAtPercentile(95)), ms(micros.getValueAtPercentile(99)),
                ms(micros.getValueAtPercentile(99.9)), ms(micros.getMaxValue()), micros.getMean() / 1000.0);
    }

    private static double ms(long micros) {
        return micros / 1000.0;
    }
}
