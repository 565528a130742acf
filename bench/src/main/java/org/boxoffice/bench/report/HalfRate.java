package org.boxoffice.bench.report;

/**
 * A second Boxoffice sale at half the sweep's highest sustained rate, on a fresh show of the same
 * size, right after the measured run: the half-rate latency target ("open loop at half of Boxoffice's
 * highest sustained rate: hold p99 under 50 ms, seat-map read p99 under 20 ms").
 *
 * @param offeredPerSecond the attempts/s offered (half the sweep's best)
 * @param holdP99Ms        p99 of every hold attempt, from its intended send time
 * @param winnersP99Ms     p99 of the successful holds alone
 * @param readP99Ms        p99 of the seat-map reads
 * @param violations       invariant violations found in the referee after it
 */
public record HalfRate(double offeredPerSecond, double holdP99Ms, double winnersP99Ms, double readP99Ms, long violations) {

    /** Within the bounds of the closed-loop run's latency targets. */
    public boolean met() {
        return holdP99Ms < Targets.HOLD_P99_MS && readP99Ms < Targets.READ_P99_MS;
    }
}
