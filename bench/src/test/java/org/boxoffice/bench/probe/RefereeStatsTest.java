package org.boxoffice.bench.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class RefereeStatsTest {

    @Test
    void parse_readsTheGroupCommitHistogramsAndCounter() {
        RefereeStats stats = RefereeStats.parse("""
                # HELP boxoffice_referee_batch_size seat transitions per group commit
                # TYPE boxoffice_referee_batch_size histogram
                boxoffice_referee_batch_size_bucket{scope="application",le="1.0",} 4.0
                boxoffice_referee_batch_size_bucket{scope="application",le="+Inf",} 10.0
                boxoffice_referee_batch_size_count{scope="application",} 10.0
                boxoffice_referee_batch_size_sum{scope="application",} 45.0
                boxoffice_referee_batch_size_max{scope="application",} 9.0
                boxoffice_referee_commit_seconds_count{scope="application",} 10.0
                boxoffice_referee_commit_seconds_sum{scope="application",} 0.25
                boxoffice_referee_one_by_one_batches_total{scope="application",} 1.0
                boxoffice_referee_allowance_queries_total{scope="application",} 7.0
                boxoffice_referee_allowance_accounts_total{scope="application",} 30.0
                boxoffice_inventory_claim_calls_total{scope="application",} 40.0
                boxoffice_inventory_claims_total{scope="application",} 52.0
                boxoffice_holds_total 3
                """);

        assertEquals(new RefereeStats(10, 45, 1, 0.25, 7, 30, 40, 52, HoldStages.NONE, HoldStages.NONE), stats);
    }

    @Test
    void parse_isNull_withoutGroupCommitFigures() {
        assertNull(RefereeStats.parse("boxoffice_holds_total 3\n"));
    }

    @Test
    void since_describesTheRunsOwnBatches() {
        RefereeStats before = new RefereeStats(10, 45, 1, 0.25, 7, 30, 40, 52, HoldStages.NONE, HoldStages.NONE);
        RefereeStats after = new RefereeStats(110, 1045, 3, 1.25, 207, 1230, 840, 1052, HoldStages.NONE, HoldStages.NONE);

        assertEquals("referee group commit in the measured run: 1,000 transitions in 100 batches (10.0 a batch), "
                + "10.0 ms a batch to apply and commit, 2 applied one by one; allowances of 1,200 accounts read in "
                + "200 queries (6.0 a query); claims on a block: 1,000 in 800 grid calls (1.25 a call)", after.since(before));
        assertEquals("referee group commit in the measured run: 1,000 transitions in 100 batches (10.0 a batch), "
                + "10.0 ms a batch to apply and commit, 2 applied one by one",
                new RefereeStats(110, 1045, 3, 1.25, 7, 30, 40, 52, HoldStages.NONE, HoldStages.NONE).since(before),
                "no allowance read and no claim: nothing said of them");
    }

    /** The warm-up's scraper asks the metrics endpoint again and again until it is closed, then stops. */
    @Test
    void scrapeEvery_readsTheMetricsEndpointRepeatedly_untilClosed() throws Exception {
        java.util.concurrent.atomic.AtomicInteger scrapes = new java.util.concurrent.atomic.AtomicInteger();
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/observe/metrics", exchange -> {
            scrapes.incrementAndGet();
            byte[] body = "boxoffice_referee_batch_size_count 1\nboxoffice_referee_batch_size_sum 2\n".getBytes();
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            AutoCloseable scraper = RefereeStats.scrapeEvery("127.0.0.1", server.getAddress().getPort(),
                    java.time.Duration.ofMillis(50));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (scrapes.get() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            scraper.close();
            int atClose = scrapes.get();
            Thread.sleep(300);

            org.junit.jupiter.api.Assertions.assertTrue(atClose >= 3, "scraped " + atClose + " times");
            assertEquals(atClose, scrapes.get(), "scraped again after it was closed");
        } finally {
            server.stop(0);
        }
    }
}
