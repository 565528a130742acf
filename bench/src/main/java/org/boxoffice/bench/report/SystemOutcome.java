package org.boxoffice.bench.report;

import org.boxoffice.bench.check.BookingChecker;
import org.boxoffice.bench.check.InvariantChecker;
import org.boxoffice.bench.load.RunResult;
import org.boxoffice.bench.probe.JfrProfile;

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
 */
public record SystemOutcome(RunResult run, InvariantChecker.Report invariants, BookingChecker.Report bookings,
                            Map<String, Double> cpuSeconds, Map<String, Double> serverThreadCpu, Integer seatsLeft,
                            JfrProfile.Summary profile) {

    /** Hold and booking violations together. */
    public long violations() {
        return (invariants == null ? 0 : invariants.violations()) + (bookings == null ? 0 : bookings.violations());
    }
}
