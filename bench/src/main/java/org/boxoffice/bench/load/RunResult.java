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
 * @param openLoop         the offered and achieved rates of an open-loop run ({@link OpenLoopRun}), or null (closed loop)
 */
public record RunResult(String system, String showId, int seatCount, int connections, int buyers,
                        double elapsedSeconds, boolean soldOut, Double sellOutSeconds, boolean buyersExhausted,
                        long attempts, long successes, long seatsHeld, long conflicts, long bestAvailableAttempts,
                        Map<String, Long> errors, long releases, long seatsReleased, long reads, long notModified,
                        Latency holdLatency, Latency successfulHoldLatency, Latency readLatency, Latency releaseLatency,
                        List<RunStats.TimelinePoint> timeline, RoomStats room, List<AckedHold> acked,
                        Set<String> released, Checkouts.Summary checkouts, List<AckedBooking> booked, Set<String> paid,
                        OpenLoop openLoop) {

    /**
     * What an open-loop run offered and what it got.
     *
     * @param offeredPerSecond   hold attempts a second the schedule offered
     * @param scheduled          hold arrivals the schedule produced
     * @param achievedPerSecond  hold attempts answered a second (until the last answer)
     * @param scheduleSeconds    how long arrivals were produced
     * @param idleArrivals       arrivals with nobody to send (the crowd had tried everything, or everyone left waited in the room)
     * @param unanswered         requests still queued or in flight when the run gave up waiting
     * @param maxBacklog         most arrivals waiting for a free connection at once
     * @param sendLag            how late requests left after their intended time (ms), queueing for a connection included
     * @param requests           requests sent (holds, reads and waiting-room calls)
     * @param generatorCpuSeconds CPU of the generator's one thread
     * @param fairness           the waiting room's checks, or null without a room
     * @param startNanos         the {@link System#nanoTime()} the schedule and the timeline count from
     */
    public record OpenLoop(double offeredPerSecond, long scheduled, double achievedPerSecond, double scheduleSeconds,
                           long idleArrivals, long unanswered, int maxBacklog, Latency sendLag, long requests,
                           double generatorCpuSeconds, long reconnects, Fairness fairness, long startNanos) {

        public double generatorMicrosPerRequest() {
            return requests > 0 ? generatorCpuSeconds * 1e6 / requests : 0;
        }
    }

    /**
     * The waiting room's fairness in a stampede: both counts must be 0.
     *
     * @param inversions         "wait" answers given to a place after a pass for a later place had come back
     * @param withoutPassAttempts holds sent by fans still waiting, without a pass
     * @param withoutPassHolds   of those, holds the system granted
     * @param passHolders        accounts that got a pass
     */
    public record Fairness(long admittedUpTo, long passes, long roomRequests, long waitAnswers, long inversions,
                           long withoutPassAttempts, long withoutPassHolds, Set<String> passHolders) {
    }

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

    /**
     * Successful holds per second while there were seats to hold: until the sell-out when the show
     * sold out, else over the whole run. In a stampede every system sells the same seats, so the
     * mean over a fixed run is the seat count divided by the run's length, whoever was faster.
     */
    public double holdsPerSecondWhileSelling() {
        double span = sellOutSeconds != null && sellOutSeconds > 0 ? sellOutSeconds : elapsedSeconds;
        return span > 0 ? successes / span : 0;
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
