package org.boxoffice.domain;

import java.util.SplittableRandom;

/**
 * The fairness and pacing rules of the waiting room, as pure functions so every replica that
 * re-runs them reaches the same answer.
 *
 * <ul>
 *   <li>Fans who join before the sale opens form a pre-queue; at the opening it is shuffled once
 *       with a recorded seed (a uniform random permutation: arriving early gives no edge over
 *       arriving on time), then later arrivals join the back in arrival order.</li>
 *   <li>Admission runs at a configured rate, but never admits more buyers than the seats left can
 *       serve: {@code available seats / average seats per buyer}, minus buyers already admitted
 *       whose passes are still valid and who have not held yet. It stops when the seats are spoken
 *       for and resumes as holds expire.</li>
 * </ul>
 */
public final class Admission {

    private Admission() {
    }

    /** A uniform random permutation of {@code 0..n-1} (Fisher–Yates) determined by {@code seed}. */
    public static int[] permutation(long seed, int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    /**
     * How many more buyers to admit now.
     *
     * @param credit         admissions earned by the rate but not yet used (fractional carry)
     * @param waiting        buyers in the queue not yet admitted
     * @param availableSeats seats on sale and not held
     * @param seatsPerBuyer  how many seats a buyer takes on average (at least 1)
     * @param outstanding    admitted buyers with a valid pass who have not held yet
     * @return the number to admit (0 or more), never above the whole part of {@code credit}
     */
    public static long admitNow(double credit, long waiting, int availableSeats, double seatsPerBuyer, long outstanding) {
        long byRate = (long) Math.floor(credit);
        long bySeats = (long) Math.floor(availableSeats / Math.max(1.0, seatsPerBuyer)) - outstanding;
        return Math.max(0, Math.min(Math.min(byRate, bySeats), waiting));
    }

    /** The credit after {@code elapsedMillis} at {@code ratePerSecond}, capped at one second's worth so idle time does not bank a burst. */
    public static double accrue(double credit, double ratePerSecond, long elapsedMillis) {
        return Math.min(Math.max(ratePerSecond, 1.0), credit + ratePerSecond * Math.max(0, elapsedMillis) / 1000.0);
    }
}
