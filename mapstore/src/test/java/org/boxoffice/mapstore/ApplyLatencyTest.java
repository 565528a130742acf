package org.boxoffice.mapstore;

import static org.boxoffice.mapstore.TestShows.T0;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.util.Arrays;
import org.boxoffice.domain.BlockDecision;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.domain.Show;
import org.junit.jupiter.api.Test;

/**
 * The referee sits on the hot path of every claim: one {@code apply} is meant to be one short round
 * trip. Measures sequential HOLD transitions of two adjacent seats on a 20,000-seat show, with the
 * production server settings (commits flushed), and prints the figures to the test output.
 */
class ApplyLatencyTest {

    private static final int WARM_UP = 500;
    private static final int MEASURED = 2_000;

    @Test
    void apply_holdsTwoSeats_inAboutOneShortRoundTrip() {
        try (HikariDataSource db = TestDatabase.newDataSource(2)) {
            PostgresInventoryRepository inventory = new PostgresInventoryRepository(db);
            Show show = TestShows.save(new PostgresCatalogRepository(db), TestShows.stadium("latency", 20, 10, 100));
            SeatBlock[] blocks = new SeatBlock[20];
            for (int b = 0; b < blocks.length; b++) {
                blocks[b] = inventory.load(show.showId(), b).orElseThrow();
            }

            long[] nanos = new long[MEASURED];
            for (int n = 0; n < WARM_UP + MEASURED; n++) {
                // spread over the blocks like a rush does; 2 seats per hold, 500 holds fit a block
                int b = n % blocks.length;
                int first = 2 * (n / blocks.length);
                String[] seatIds = {show.layout().seat(b, first).seatId(), show.layout().seat(b, first + 1).seatId()};
                BlockDecision decision = blocks[b].hold("lat-" + n, "acc-" + (n % 97), new int[] {first, first + 1},
                        T0 + 600_000, T0, 5_000, seatIds);
                SeatBlock next = assertInstanceOf(BlockDecision.Changed.class, decision).next();
                long start = System.nanoTime();
                inventory.apply(next);
                long took = System.nanoTime() - start;
                blocks[b] = next;
                if (n >= WARM_UP) {
                    nanos[n - WARM_UP] = took;
                }
            }

            Arrays.sort(nanos);
            long p50 = nanos[MEASURED / 2] / 1_000;
            long p99 = nanos[MEASURED * 99 / 100] / 1_000;
            long max = nanos[MEASURED - 1] / 1_000;
            double mean = Arrays.stream(nanos).average().orElse(0) / 1_000;
            System.out.printf("apply(HOLD, 2 seats) x %d: p50 %d us, p99 %d us, max %d us, mean %.0f us%n",
                    MEASURED, p50, p99, max, mean);
            // generous: a shared 2-core machine; what this catches is a lost index or a plan gone wrong
            assertTrue(p50 < 20_000, "median apply took " + p50 + " us");
        }
    }
}
