package org.boxoffice.app;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.ops.DocumentedMetrics;
import org.boxoffice.app.ops.ExportedMetrics;
import org.boxoffice.app.payments.SimulatedPaymentGateway;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.boxoffice.app.CheckoutFixture.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The counters and gauges an operator alerts on, driven through the real HTTP
 * API and read back from {@code /observe/metrics}. The registry is the JVM's, shared with the other
 * test classes, so counters are compared before and after.
 */
@ServerTest
class OperatorMetricsTest {

    private static final String SHORT = "metrics-short";
    private static TestApp app;
    private final CheckoutFixture f;
    private final TestApp.Http http;
    private final URI base;

    OperatorMetricsTest(URI uri) {
        this.base = uri;
        this.f = new CheckoutFixture(app, uri);
        this.http = f.http;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        // quick late successes; holds not extended when payment starts, so a late payment meets expiry
        SimulatedPaymentGateway.Settings sim = new SimulatedPaymentGateway.Settings(Duration.ZERO, Duration.ofMillis(20), 0, 0, 0,
                Duration.ofMillis(1_500), 0, 0, Duration.ZERO, 8, null, 13);
        app = TestApp.serve(server, s -> s.withCheckout(CheckoutFixture.settings(sim).withPaymentWindow(Duration.ZERO)));
        server.addFeature(app.app.observe());
    }

    /** The sold-out show metrics-wl with two accounts in its waitlist's line. */
    private void waitlistWithTwoWaiters() {
        WaitlistFixture w = new WaitlistFixture(app, base);
        synchronized (OperatorMetricsTest.class) {
            if (f.count("select count(*) from shows where show_id = 'metrics-wl'") == 0) {
                w.createShow("metrics-wl", 1, 2, null);
                w.hold("wl-holder", "metrics-wl", "A-1-1", "A-1-2");
                w.joined("wl-1", "metrics-wl", 1);
                w.joined("wl-2", "metrics-wl", 2);
            }
        }
        // the lengths are read every 5 s
        assertTrue(waitFor(() -> scrape().value("boxoffice_waitlist_length", "show", "metrics-wl") == 2,
                Duration.ofSeconds(15)), "two waiting: " + scrape().lines("boxoffice_waitlist_length"));
    }

    /** The highest version among the migration scripts (V11__... is 11). */
    private static double latestMigration() {
        try (var files = java.nio.file.Files.list(java.nio.file.Path.of("..", "mapstore", "src", "main", "resources", "db",
                "migration"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.matches("V\\d+__.*\\.sql"))
                    .mapToInt(n -> Integer.parseInt(n.substring(1, n.indexOf("__")))).max().orElseThrow();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private ExportedMetrics scrape() {
        TestApp.Http.Reply r = http.get("/observe/metrics", null, "Accept", "text/plain");
        assertEquals(200, r.status(), r.body());
        return ExportedMetrics.parse(r.body());
    }

    @Test
    void aPaidCheckout_countsTheCheckoutThePaymentTheBookingAndTheWebhook_andItsReplayIsCountedAsReplayed() {
        ExportedMetrics before = scrape();
        String ann = app.token("metrics-ann");
        String holdId = f.hold(ann, "comedy-2", "BALCONY-5-1");

        assertEquals(200, f.checkout(ann, holdId, "card_ok", "m-pay-1").status());
        assertEquals(200, f.checkout(ann, holdId, "card_ok", "m-pay-1").status());
        f.quiet();

        ExportedMetrics after = scrape();
        assertEquals(1, after.delta(before, "boxoffice_checkouts_total", "outcome", "booked"));
        assertEquals(1, after.delta(before, "boxoffice_checkouts_total", "outcome", "replayed"));
        assertEquals(1, after.delta(before, "boxoffice_payments_total", "outcome", "captured"));
        assertEquals(1, after.delta(before, "boxoffice_bookings_total", "via", "on_time"));
        // the simulator's payment.captured webhook reaches the service after the checkout booked it
        assertTrue(after.delta(before, "boxoffice_webhook_events_total") >= 1, "webhook deliveries counted");
    }

    @Test
    void aDeclinedPayment_andAWebhookWithABadSignature_areCountedByOutcome() {
        ExportedMetrics before = scrape();
        String bea = app.token("metrics-bea");
        String holdId = f.hold(bea, "comedy-2", "BALCONY-5-3");

        assertEquals(402, f.checkout(bea, holdId, "card_declined").status());
        assertEquals(401, http.post("/v1/payments/webhook", null, "{\"id\":\"evt-x\"}", "Boxoffice-Signature",
                "sha256=00").status());

        ExportedMetrics after = scrape();
        assertEquals(1, after.delta(before, "boxoffice_checkouts_total", "outcome", "PAYMENT_DECLINED"));
        assertEquals(1, after.delta(before, "boxoffice_payments_total", "outcome", "declined"));
        assertEquals(1, after.delta(before, "boxoffice_webhook_events_total", "result", "INVALID_SIGNATURE"));
    }

    @Test
    void aLatePaymentWhoseSeatsWereTaken_isCountedAsRefusedLate_andItsRefund_andReconciliationCountsItsPasses()
            throws Exception {
        if (f.count("select count(*) from shows where show_id = ?", SHORT) == 0) {
            f.createShow(SHORT, 1, 4);
        }
        ExportedMetrics before = scrape();
        String cy = app.token("metrics-cy");
        String holdId = f.hold(cy, SHORT, "A-1-1");
        assertEquals(202, f.checkout(cy, holdId, "card_late_success").status());
        Thread.sleep(1_100);
        f.hold(app.token("metrics-rival"), SHORT, "A-1-1");
        assertTrue(waitFor(() -> "REFUNDED".equals(f.one("select refund from payments where hold_id = ?", holdId)),
                Duration.ofSeconds(30)), "the late payment is refunded");
        app.app.checkout().reconciliation().reconcileOnce();

        ExportedMetrics after = scrape();
        assertEquals(1, after.delta(before, "boxoffice_checkouts_total", "outcome", "pending"));
        assertEquals(1, after.delta(before, "boxoffice_payments_total", "outcome", "unknown"));
        assertEquals(1, after.delta(before, "boxoffice_payments_refused_total", "reason", "late"));
        assertEquals(1, after.delta(before, "boxoffice_refunds_total", "kind", "refused_payment"));
        assertEquals(0, after.delta(before, "boxoffice_bookings_total"));
        assertEquals(1, after.delta(before, "boxoffice_reconciliation_runs_total", "result", "ok"));
    }

    @Test
    void aCancelledBooking_countsARefundOfKindCancellation() {
        String dee = app.token("metrics-dee");
        String holdId = f.hold(dee, "comedy-2", "BALCONY-5-5");
        TestApp.Http.Reply paid = f.checkout(dee, holdId, "card_ok");
        assertEquals(200, paid.status(), paid.body());
        ExportedMetrics before = scrape();

        TestApp.Http.Reply cancelled = http.delete("/v1/bookings/" + paid.json().get("bookingId").asText(), dee);

        assertEquals(200, cancelled.status(), cancelled.body());
        assertEquals(1, scrape().delta(before, "boxoffice_refunds_total", "kind", "cancellation"));
    }

    @Test
    void twentyParallelCancellationsOfOneBooking_countOneRefund() throws Exception {
        String eve = app.token("metrics-eve");
        String holdId = f.hold(eve, "comedy-2", "BALCONY-6-5");
        TestApp.Http.Reply paid = f.checkout(eve, holdId, "card_ok");
        assertEquals(200, paid.status(), paid.body());
        String path = "/v1/bookings/" + paid.json().get("bookingId").asText();
        ExportedMetrics before = scrape();
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        java.util.List<java.util.concurrent.Future<TestApp.Http.Reply>> replies = new java.util.ArrayList<>();
        try (java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(20)) {
            for (int i = 0; i < 20; i++) {
                replies.add(pool.submit(() -> {
                    go.await();
                    return http.delete(path, eve);
                }));
            }
            go.countDown();
            for (java.util.concurrent.Future<TestApp.Http.Reply> r : replies) {
                assertEquals(200, r.get().status(), r.get().body());
            }
        }
        // a refund the provider answers late is counted when its answer comes (reconciliation asks again)
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
        while (scrape().delta(before, "boxoffice_refunds_total", "kind", "cancellation") < 1 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(1, scrape().delta(before, "boxoffice_refunds_total", "kind", "cancellation"),
                "one booking, one refund at the provider, one count");
    }

    @Test
    void httpRequests_areCountedByMethodRouteTemplateAndStatus() throws Exception {
        ExportedMetrics before = scrape();
        assertEquals(200, http.get("/v1/shows/comedy-2", null).status());
        assertEquals(404, http.get("/v1/shows/no-such-show", null).status());
        assertEquals(405, http.delete("/v1/shows/comedy-2", null).status());
        HttpClient client = HttpClient.newHttpClient();
        HttpResponse<Void> plain = client.send(HttpRequest.newBuilder(base.resolve("/v1/shows/comedy-2/holds"))
                .header("Authorization", "Bearer " + app.token("metrics-eve")).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.discarding());
        assertEquals(415, plain.statusCode());
        HttpResponse<Void> head = client.send(HttpRequest.newBuilder(base.resolve("/v1/shows/comedy-2"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
        assertEquals(200, head.statusCode());

        // a request is counted once its answer has gone out: the client may read the last answer (the
        // HEAD) before the member has counted it, so the scrape is taken again until it has
        String show = "/v1/shows/{showId}";
        ExportedMetrics after = scrape();
        for (int i = 0; i < 40 && after.delta(before, "boxoffice_http_requests_total", "method", "HEAD", "route", show,
                "status", "200") < 1; i++) {
            Thread.sleep(50);
            after = scrape();
        }
        assertEquals(1, after.delta(before, "boxoffice_http_requests_total", "method", "GET", "route", show, "status", "200"));
        assertEquals(1, after.delta(before, "boxoffice_http_requests_total", "method", "GET", "route", show, "status", "404"));
        assertEquals(1, after.delta(before, "boxoffice_http_requests_total", "method", "DELETE", "route", show,
                "status", "405"));
        assertEquals(1, after.delta(before, "boxoffice_http_requests_total", "method", "HEAD", "route", show,
                "status", "200"));
        assertEquals(1, after.delta(before, "boxoffice_http_requests_total", "method", "POST",
                "route", "/v1/shows/{showId}/holds", "status", "415"));
        for (String route : after.labelValues("boxoffice_http_requests_total", "route")) {
            assertTrue(Set.of("other", "/", "/*").contains(route) || route.startsWith("/v1/") || route.startsWith("/observe")
                    || route.equals("/openapi"), "a route template, not a path: " + route);
            assertTrue(!route.contains("comedy-2") && !route.contains("no-such-show"), "a template, not a path: " + route);
        }
    }

    @Test
    void theDatabasePoolTheSchemaAndTheRefereesBatches_areExported() {
        String fay = app.token("metrics-fay");
        f.hold(fay, "comedy-2", "BALCONY-6-1");
        // counters read from a function must survive a collection (the registry holds their state weakly)
        System.gc();
        ExportedMetrics m = scrape();

        assertEquals(24, m.value("boxoffice_db_pool_max_connections"));
        assertTrue(m.value("boxoffice_db_pool_connections", "state", "idle")
                + m.value("boxoffice_db_pool_connections", "state", "active") > 0, "pool connections");
        assertTrue(m.has("boxoffice_db_pool_pending_threads"));
        assertTrue(m.value("boxoffice_db_pool_wait_seconds_count") > 0, "borrows timed");
        assertTrue(m.has("boxoffice_db_pool_wait_seconds_bucket"));
        assertEquals(latestMigration(), m.value("boxoffice_schema_version"), "the latest migration's version");
        assertTrue(m.value("boxoffice_referee_commit_seconds_count") > 0, "group commits timed");
        assertTrue(m.has("boxoffice_referee_one_by_one_batches_total"));
        assertTrue(m.value("boxoffice_referee_batch_size_count") > 0, "group commits counted");
        assertTrue(m.value("boxoffice_referee_batch_size_sum") >= m.value("boxoffice_referee_batch_size_count"));
        assertTrue(m.has("boxoffice_referee_batch_size_bucket"));
        // each store's time to its commit, by the size of its batch: every store is in one class
        assertEquals(java.util.Set.of("1", "2-4", "5-16", "17+"), m.labelValues("boxoffice_referee_store_seconds_count", "batch"));
        double stores = m.value("boxoffice_referee_store_seconds_count");
        assertTrue(stores >= m.value("boxoffice_referee_batch_size_count"), "a store per batch at least");
        assertTrue(stores <= m.value("boxoffice_referee_batch_size_sum"), "at most a store per transition");
        // fay's first hold in the show read her allowance from the referee
        assertTrue(m.value("boxoffice_referee_allowance_accounts_total") >= 1, "allowance reads counted");
        assertTrue(m.value("boxoffice_referee_allowance_queries_total") >= 1);
        assertTrue(m.value("boxoffice_referee_allowance_queries_total") <= m.value("boxoffice_referee_allowance_accounts_total"));
    }

    @Test
    void aStoreTheRefereeRefuses_isCountedAsAStaleStoreFailure() throws Exception {
        ExportedMetrics before = scrape();
        try (Connection c = app.dataSource.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("update seats set version = version + 1 where show_id = 'comedy-2' and seat_id = 'BALCONY-7-1'");
        }
        http.post("/v1/shows/comedy-2/holds", app.token("metrics-gus"), "{\"seatIds\":[\"BALCONY-7-1\"]}");

        assertTrue(scrape().delta(before, "boxoffice_mapstore_store_failures_total", "kind", "stale") >= 1);
    }

    @Test
    void aWaitlistsLength_isExportedPerShow() {
        waitlistWithTwoWaiters();

        assertEquals(2, scrape().value("boxoffice_waitlist_length", "show", "metrics-wl"));
    }

    /**
     * The service exports exactly the {@code boxoffice_} families docs/operations.md lists (after a
     * waiting room is configured, a hold is refused for want of a pass and a waitlist has a waiter:
     * those exist only then).
     */
    @Test
    void theExportedFamilies_areExactlyThoseTheOperationsPageLists() {
        assertEquals(200, http.put("/v1/admin/shows/jazz-1/queue", app.token("ops", "admin"), "{\"mode\":\"ON\"}")
                .status());
        // a hold during the rush without a pass: a bot refusal (that counter appears with its first refusal)
        TestApp.assertError(http.post("/v1/shows/jazz-1/holds", app.token("metrics-nopass"),
                "{\"seatIds\":[\"A-1-1\"]}"), 403, "PASS_REQUIRED");
        waitlistWithTwoWaiters();
        Set<String> documented = DocumentedMetrics.names();

        Set<String> exported = new TreeSet<>(scrape().families().keySet());
        exported.removeIf(name -> !name.startsWith("boxoffice_"));

        assertEquals(List.of(), exported.stream().filter(n -> !DocumentedMetrics.covers(documented, n)).toList(),
                "exported but not in docs/operations.md");
        assertEquals(List.of(), documented.stream().filter(n -> !n.contains("*") && !exported.contains(n)).toList(),
                "in docs/operations.md but not exported");
    }
}
