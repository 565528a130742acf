package org.boxoffice.bench.report;

import org.boxoffice.bench.check.AreaChecker;
import org.boxoffice.bench.check.BookingChecker;
import org.boxoffice.bench.check.RunChecker;
import org.boxoffice.bench.load.RunResult;
import org.boxoffice.bench.load.Sweep;
import org.boxoffice.bench.probe.JfrProfile;
import org.boxoffice.bench.probe.PhaseCost;

import java.util.Map;

/**
 * One system's run with what was checked and measured around it.
 *
 * @param invariants null when no database was available to check against
 * @param bookings   the booking and money check, or null when nobody paid or no database was available
 * @param cpuSeconds CPU seconds per process group during the run (and {@code wall})
 * @param serverThreadCpu the server's CPU seconds during the run by kind of thread (GC, JIT, request handlers, ...)
 * @param seatsLeft  seats the system's map still showed available after the run, or null
 * @param profile    the server's Flight Recorder summary, or null
 * @param sweep      the stampede's rate sweep, or null
 * @param refusals   CPU per attempt after the stampede's sell-out (refusals only), or null
 * @param refusalCeiling refusals on the sold-out show closed loop, at their ceiling (like the empty handler's), or null
 * @param area       the general-admission check ({@code --general-admission}), or null for a seated sale
 */
public record SystemOutcome(RunResult run, RunChecker.Report invariants, BookingChecker.Report bookings,
                            Map<String, Double> cpuSeconds, Map<String, Double> serverThreadCpu, Integer seatsLeft,
                            JfrProfile.Summary profile, Sweep.Result sweep, PhaseCost refusals,
                            org.boxoffice.bench.probe.HttpCeiling.Result refusalCeiling, AreaChecker.Report area) {

    public SystemOutcome(RunResult run, RunChecker.Report invariants, BookingChecker.Report bookings,
                         Map<String, Double> cpuSeconds, Map<String, Double> serverThreadCpu, Integer seatsLeft,
                         JfrProfile.Summary profile, Sweep.Result sweep, PhaseCost refusals,
                         org.boxoffice.bench.probe.HttpCeiling.Result refusalCeiling) {
        this(run, invariants, bookings, cpuSeconds, serverThreadCpu, seatsLeft, profile, sweep, refusals, refusalCeiling, null);
    }

    /** Whether the run was checked against the referee at all (seats, or an area by count). */
    public boolean checked() {
        return invariants != null || area != null;
    }

    /** CPU microseconds of one process group ({@code load generator}, {@code server}, {@code postgresql}) per hold attempt. */
    public double microsPerAttempt(String group) {
        Double cpu = cpuSeconds == null ? null : cpuSeconds.get(group);
        return cpu == null || run.attempts() == 0 ? Double.NaN : cpu * 1e6 / run.attempts();
    }

    /** Load generator + server + PostgreSQL CPU per hold attempt, in microseconds. */
    public double microsPerAttemptSum() {
        return microsPerAttempt("load generator") + (cpuSeconds != null && cpuSeconds.containsKey("server") ? microsPerAttempt("server") : 0)
                + microsPerAttempt("postgresql");
    }

    /** PostgreSQL CPU per successful (durable) hold, in microseconds. */
    public double postgresMicrosPerHold() {
        Double cpu = cpuSeconds == null ? null : cpuSeconds.get("postgresql");
        return cpu == null || run.successes() == 0 ? Double.NaN : cpu * 1e6 / run.successes();
    }

    /** The load generator process's CPU per request it sent (holds, reads, waiting-room calls), in microseconds. */
    public double generatorMicrosPerRequest() {
        Double cpu = cpuSeconds == null ? null : cpuSeconds.get("load generator");
        if (cpu == null || run.openLoop() == null || run.openLoop().requests() == 0) {
            return Double.NaN;
        }
        return cpu * 1e6 / run.openLoop().requests();
    }

    /** Hold, booking and area violations together. */
    public long violations() {
        return (invariants == null ? 0 : invariants.violations()) + (bookings == null ? 0 : bookings.violations())
                + (area == null ? 0 : area.violations());
    }
}
