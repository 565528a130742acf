package org.boxoffice.app.fault;

import java.util.List;

/**
 * How a sale took a fault at {@code at} (epoch millis), from its recorded hold requests.
 *
 * @param before        holds acknowledged in the 5 s before the fault
 * @param firstAckAfter ms from the fault to the first 201 of a hold request sent after it (-1: none)
 * @param longestGap    longest ms between two consecutive 201s from 5 s before the fault to the end
 * @param recovered     ms from the fault until a one-second window acknowledged at least half the
 *                      holds per second of the 5 s before (-1: never)
 * @param slowestAcross slowest hold request that was in flight at the fault (ms)
 */
record Figures(long before, long firstAckAfter, long longestGap, long recovered, long slowestAcross) {

    static Figures around(Sale sale, long at) {
        List<Sale.Attempt> holds = sale.attempts(a -> a.kind() == Sale.Kind.HOLD);
        List<Long> acked = holds.stream().filter(a -> a.status() == 201).map(Sale.Attempt::end).sorted().toList();
        long before = acked.stream().filter(t -> t >= at - 5_000 && t < at).count();
        long first = holds.stream().filter(a -> a.status() == 201 && a.start() >= at)
                .mapToLong(a -> a.end() - at).min().orElse(-1);
        long gap = 0;
        Long previous = null;
        for (long t : acked) {
            if (t < at - 5_000) {
                continue;
            }
            if (previous != null) {
                gap = Math.max(gap, t - previous);
            }
            previous = t;
        }
        long last = acked.isEmpty() ? at : acked.get(acked.size() - 1);
        long recovered = -1;
        double perSecond = before / 5.0;
        for (long w = at; w + 1_000 <= last + 1; w += 100) {
            long from = w;
            long n = acked.stream().filter(t -> t >= from && t < from + 1_000).count();
            if (n >= Math.max(1, perSecond / 2)) {
                recovered = w + 1_000 - at;
                break;
            }
        }
        long slowest = holds.stream().filter(a -> a.start() <= at && a.end() >= at).mapToLong(Sale.Attempt::millis)
                .max().orElse(0);
        return new Figures(before, first, gap, recovered, slowest);
    }
}
