package org.boxoffice.bench.load;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArrivalsTest {

    @Test
    void arrivals_comeAtTheOfferedRateOnAverage_withExponentialGaps() {
        Arrivals a = new Arrivals(2_000, 7, 0);
        int n = 200_000;
        long previous = 0;
        int shorterThanMean = 0;
        for (int i = 0; i < n; i++) {
            long t = a.take();
            assertTrue(t >= previous, "intended times never go back");
            if (t - previous < 500_000) {
                shorterThanMean++;
            }
            previous = t;
        }
        // n arrivals at 2,000/s take n / 2,000 s
        assertEquals(n / 2_000.0, previous / 1e9, 0.01 * n / 2_000.0);
        // an exponential gap is shorter than its mean with probability 1 - 1/e
        assertEquals(1 - Math.exp(-1), (double) shorterThanMean / n, 0.01);
    }

    @Test
    void theSameSeed_givesEverySystemTheSameSchedule() {
        Arrivals a = new Arrivals(500, 42, 1_000);
        Arrivals b = new Arrivals(500, 42, 1_000);
        for (int i = 0; i < 1_000; i++) {
            assertEquals(a.peek(), b.peek());
            assertEquals(a.take(), b.take());
        }
    }
}
