package org.boxoffice.bench.load;

import org.boxoffice.bench.check.AckedBooking;
import org.boxoffice.bench.check.AckedHold;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one flash-sale run against one system measured.
 *
 * @param elapsedSeconds   from the first request until the run stopped (sold out, time limit or no buyers left)
 * @param sellOutSeconds   until the last successful hold, when the show sold out; null otherwise
 * @param attempts         hold requests sent (each retry counts)
 * @param conflicts        409 answers
 * @param errors           other failures by HTTP status or {@code transport}
 * @param room             waiting-room figures, or null when the sale went without one
 * @param acked            holds acknowledged with 201, for the invariant check
 * @param released         ids of acknowledged holds the bench released (204)
 * @param checkouts        the buyers' payments, or null when nobody paid ({@code --pay 0}, baselines)
 * @param booked           holds the system said were paid for, for the booking check
 * @param paid             ids of acknowledged holds the bench tried to pay for
 */
public record RunResult(String system, String showId, int seatCount, int connections, int buyers,
                        double elapsedSeconds, boolean soldOut, Double sellOutSeconds, boolean buyersExhausted,
                        long attempts, long successes, long seatsHeld, long conflicts, long bestAvailableAttempts,
                        Map<String, Long> errors, long releases, long seatsReleased, long reads, long notModified,
                        Latency holdLatency, Latency successfulHoldLatency, Latency readLatency, Latency releaseLatency,
                        List<RunStats.TimelinePoint> timeline, RoomStats room, List<AckedHold> acked,
                        Set<String> released, Checkouts.Summary checkouts, List<AckedBooking> booked, Set<String> paid) {

    /**
     * @param admittedUpTo  the last place the room had admitted when the run ended
     * @param passes        passes the buyers fetched
     * @param polls         waiting-room requests (summary and status)
     * @param stoppedAdmitting the run ended because the room admitted nobody for seconds while
     *                      buyers waited (it admits no more buyers than the seats left can serve)
     */
    public record RoomStats(long admittedUpTo, long passes, long polls, boolean stoppedAdmitting) {
    }

    public double attemptsPerSecond() {
        return elapsedSeconds > 0 ? attempts / elapsedSeconds : 0;
    }

    public double holdsPerSecond() {
        return elapsedSeconds > 0 ? successes / elapsedSeconds : 0;
    }

    /** The best whole interval of the timeline. */
    public double peakAttemptsPerSecond() {
        return timeline.stream().mapToDouble(RunStats.TimelinePoint::attemptsPerSecond).max().orElse(0);
    }

    public double peakHoldsPerSecond() {
        return timeline.stream().mapToDouble(RunStats.TimelinePoint::holdsPerSecond).max().orElse(0);
    }

    /** Seats booked (at once or after a pending payment) per second of the sale. */
    public double bookedSeatsPerSecond() {
        return checkouts != null && elapsedSeconds > 0 ? checkouts.seatsBooked() / elapsedSeconds : 0;
    }

    public double conflictShare() {
        return attempts > 0 ? (double) conflicts / attempts : 0;
    }

    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }
}
