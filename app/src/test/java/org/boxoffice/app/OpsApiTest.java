package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.ops.PrometheusTextChecker;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static org.boxoffice.app.TestApp.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Health, metrics, the seat audit trail and the invariant check, through the real wiring. */
@ServerTest
class OpsApiTest {

    private static TestApp app;
    private final TestApp.Http http;

    OpsApiTest(URI uri) {
        this.http = TestApp.Http.on(uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server);
        server.addFeature(app.app.observe());
    }


    @Test
    void health_isLiveAndReady_withDetails() {
        TestApp.Http.Reply ready = http.get("/observe/health/ready", null);
        assertEquals(200, ready.status(), ready.body());
        assertTrue(ready.body().contains("\"quorum\":true"), ready.body());
        assertTrue(json(ready).at("/checks/0/data/readyAfterMillis").asLong() > 0, ready.body());
        assertFalse(ready.body().contains("clusterSafe"), "readiness does not ask about migrations: " + ready.body());
        assertEquals("UP", json(ready).get("status").asText());
        assertEquals("no-store", ready.headers().firstValue("Cache-Control").orElse(null));
        TestApp.Http.Reply safe = http.get("/observe/health/safe", null);
        assertEquals(200, safe.status(), safe.body());
        assertEquals(true, json(safe).at("/checks/0/data/clusterSafe").asBoolean(), safe.body());
        assertEquals("no-store", safe.headers().firstValue("Cache-Control").orElse(null));
        TestApp.Http.Reply live = http.get("/observe/health/live", null);
        assertEquals(200, live.status());
        assertEquals("UP", json(live).get("status").asText());
        TestApp.Http.Reply both = http.get("/observe/health", null);
        assertEquals(200, both.status());
        assertEquals(2, json(both).get("checks").size(), both.body());
    }

    @Test
    void metrics_countHoldOutcomes_andExportTheInvariantGauges() {
        String t = app.token("meter-1");
        http.post("/v1/shows/comedy-2/holds", t, "{\"seatIds\":[\"BALCONY-1-1\"]}");
        http.post("/v1/shows/comedy-2/holds", t, "{\"seatIds\":[\"BALCONY-1-1\"]}");
        TestApp.Http.Reply m = http.get("/observe/metrics", null, "Accept", "text/plain");
        assertEquals(200, m.status());
        assertTrue(m.body().contains("boxoffice_hold_attempts"), "attempts counter");
        assertTrue(m.body().matches("(?s).*boxoffice_hold_outcomes_total\\{[^}]*outcome=\"held\".*"), "held outcome");
        assertTrue(m.body().matches("(?s).*boxoffice_hold_outcomes_total\\{[^}]*outcome=\"SEATS_UNAVAILABLE\".*"), "conflict outcome");
        assertTrue(m.body().contains("boxoffice_hold_latency"), "latency histogram");
        assertTrue(m.body().contains("boxoffice_mapstore_store_latency"), "store latency");
        assertTrue(m.body().contains("boxoffice_invariant_violations"), "invariant gauge");
        assertTrue(m.body().contains("boxoffice_expiry_lag_seconds"), "expiry lag");
    }

    /** An idempotent replay is counted as replayed, not as a new hold; the cluster gauges are exported. */
    @Test
    void metrics_countAReplayAsReplayed_andExportTheClusterGauges() {
        String t = app.token("replay-1");
        String body = "{\"seatIds\":[\"BALCONY-3-1\"]}";
        assertEquals(201, http.post("/v1/shows/comedy-2/holds", t, body, "Idempotency-Key", "r-1").status());
        double held = outcome("held");
        double replayed = outcome("replayed");
        assertEquals(201, http.post("/v1/shows/comedy-2/holds", t, body, "Idempotency-Key", "r-1").status());
        assertEquals(held, outcome("held"));
        assertEquals(replayed + 1, outcome("replayed"));
        String m = http.get("/observe/metrics", null, "Accept", "text/plain").body();
        for (String gauge : List.of("boxoffice_cluster_safe", "boxoffice_cluster_active", "boxoffice_database_up")) {
            assertTrue(m.contains("\n" + gauge + " ") || m.contains("\n" + gauge + "{"), gauge);
        }
    }

    /** A hold past the seat map is timed stage by stage; one the seat map refuses is not. */
    @Test
    void metrics_timeEachStageOfAHoldPastTheSeatMap() {
        String t = app.token("stages-1");
        String body = "{\"seatIds\":[\"BALCONY-4-1\"]}";
        List<String> stages = List.of("idempotency", "allowance", "token", "claim", "reply");
        Map<String, Double> before = new java.util.HashMap<>();
        stages.forEach(s -> before.put(s, stageCount(s)));

        assertEquals(201, http.post("/v1/shows/comedy-2/holds", t, body, "Idempotency-Key", "stages-1").status());
        stages.forEach(s -> assertEquals(before.get(s) + 1, stageCount(s), s));
        // refused by the seat map: no stage is passed
        assertEquals(409, http.post("/v1/shows/comedy-2/holds", app.token("stages-2"), body, "Idempotency-Key", "stages-2").status());
        stages.forEach(s -> assertEquals(before.get(s) + 1, stageCount(s), s + " after a refusal at the seat map"));
    }

    private double stageCount(String stage) {
        return sample("boxoffice_hold_stage_seconds_count", "stage", stage);
    }

    private double outcome(String outcome) {
        return sample("boxoffice_hold_outcomes_total", "outcome", outcome);
    }

    /** The sample of {@code name} whose {@code label} is {@code value} on the metrics endpoint; 0 if there is none. */
    private double sample(String name, String label, String value) {
        String m = http.get("/observe/metrics", null, "Accept", "text/plain").body();
        for (String line : m.split("\n")) {
            if (line.startsWith(name + "{") && line.contains(label + "=\"" + value + "\"")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }

    /** What {@code promtool check metrics} checks, on the real endpoint after some traffic. */
    @Test
    void metrics_passPromtoolsChecks() {
        String t = app.token("promtool-1");
        http.post("/v1/shows/comedy-2/holds", t, "{\"seatIds\":[\"BALCONY-2-1\"]}");
        http.post("/v1/shows/comedy-2/holds", t, "{\"seatIds\":[\"BALCONY-2-1\"]}");
        TestApp.Http.Reply m = http.get("/observe/metrics", null, "Accept", "text/plain");
        assertEquals(200, m.status());
        assertEquals(List.of(), PrometheusTextChecker.problems(m.body()));
    }

    /**
     * What the ServiceMonitor's Prometheus sends (Prometheus 2.x's scrape Accept header): the text
     * format comes back, not JSON.
     */
    @Test
    void aPrometheusScrape_getsTheTextFormat() {
        TestApp.Http.Reply m = http.get("/observe/metrics", null, "Accept", "application/openmetrics-text;version=1.0.0,"
                + "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1");
        assertEquals(200, m.status());
        String type = m.headers().firstValue("Content-Type").orElse("");
        assertTrue(type.startsWith("text/plain") || type.startsWith("application/openmetrics-text"), type);
        assertTrue(m.body().contains("\nboxoffice_hold_attempts_total{"), type + ": " + m.body().substring(0, 300));
    }

    @Test
    void seatHistory_listsEveryTransition_forAdminsOnly() {
        String t = app.token("audit-1");
        String holdId = json(http.post("/v1/shows/comedy-2/holds", t, "{\"seatIds\":[\"STALLS-7-7\"]}")).get("holdId").asText();
        assertEquals(204, http.delete("/v1/holds/" + holdId, t).status());
        String admin = app.token("ops", "admin");

        TestApp.Http.Reply r = http.get("/v1/admin/shows/comedy-2/seats/STALLS-7-7/history", admin);

        assertEquals(200, r.status(), r.body());
        JsonNode events = json(r).get("events");
        assertEquals(2, events.size());
        assertEquals("HOLD", events.get(0).get("kind").asText());
        assertEquals("audit-1", events.get(0).get("actor").asText());
        assertEquals(holdId, events.get(0).get("holdId").asText());
        assertEquals("AVAILABLE", events.get(0).get("from").asText());
        assertEquals("HELD", events.get(0).get("to").asText());
        assertEquals("RELEASE", events.get(1).get("kind").asText());
        assertEquals(events.get(0).get("toVersion").asInt(), events.get(1).get("fromVersion").asInt());
        assertEquals(403, http.get("/v1/admin/shows/comedy-2/seats/STALLS-7-7/history", t).status());
        assertEquals(404, http.get("/v1/admin/shows/comedy-2/seats/STALLS-99-1/history", admin).status());
    }

    @Test
    void invariantCheck_isCleanNormally_andCatchesAHeldSeatWithoutItsHold() throws Exception {
        assertEquals(Map.of("double_sold", 0L, "held_without_hold", 0L, "hold_disagrees", 0L,
                "admissions_beyond_capacity", 0L, "admissions_unbacked", 0L, "admission_tickets_beyond_capacity", 0L,
                "admission_tickets_unbacked", 0L, "admissions_sold_unbooked", 0L), app.app.invariants().checkNow());
        try (Connection c = app.dataSource.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("update seats set state = 'HELD', hold_id = 'ghost', holder = 'nobody', held_until = now() + interval '1 hour', "
                    + "version = version + 1 where show_id = 'jazz-2' and seat_id = 'GALERIA-1-1'");
        }
        assertEquals(1L, app.app.invariants().checkNow().get("held_without_hold"));
        try (Connection c = app.dataSource.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("update seats set state = 'AVAILABLE', hold_id = null, holder = null, held_until = null, "
                    + "version = version + 1 where show_id = 'jazz-2' and seat_id = 'GALERIA-1-1'");
        }
        assertEquals(0L, app.app.invariants().checkNow().get("held_without_hold"));
    }

    /**
     * The expiry lag: seats held past their expiry plus the show's grace count (by how long), seats
     * within their grace do not, and the probe reads the lapsed range of the HELD seats' expiry
     * index, never every HELD seat.
     */
    @Test
    void expiryLag_countsOnlySeatsPastTheirGrace_andReadsOnlyTheLapsedRange() throws Exception {
        assertEquals(0.0, app.app.invariants().expiryLagNow(), 0.5);
        long grace = Long.parseLong(one("select grace_millis::text from shows where show_id = 'jazz-2'"));
        try (Connection c = app.dataSource.getConnection(); Statement s = c.createStatement()) {
            // within its grace: not a lag
            s.executeUpdate("update seats set state = 'HELD', hold_id = 'lag-1', holder = 'nobody', "
                    + "held_until = now() - make_interval(secs => " + grace + " / 2000.0), version = version + 1 "
                    + "where show_id = 'jazz-2' and seat_id = 'GALERIA-2-1'");
            assertEquals(0.0, app.app.invariants().expiryLagNow(), 0.5);
            // 90 s past its expiry plus grace
            s.executeUpdate("update seats set held_until = now() - make_interval(secs => 90 + " + grace + " / 1000.0) "
                    + "where show_id = 'jazz-2' and seat_id = 'GALERIA-2-1'");
            assertEquals(90.0, app.app.invariants().expiryLagNow(), 5.0);
            c.setAutoCommit(false);
            s.execute("SET LOCAL enable_seqscan = off");
            StringBuilder plan = new StringBuilder();
            try (java.sql.ResultSet rs = s.executeQuery("EXPLAIN " + org.boxoffice.app.ops.InvariantChecker.EXPIRY_LAG)) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            }
            c.rollback();
            assertTrue(plan.toString().contains("seats_held_until") && plan.toString().contains("(held_until < now())"),
                    "the probe does not read a range of the expiry index:\n" + plan);
            c.setAutoCommit(true);
            s.executeUpdate("update seats set state = 'AVAILABLE', hold_id = null, holder = null, held_until = null, "
                    + "version = version + 1 where show_id = 'jazz-2' and seat_id = 'GALERIA-2-1'");
        }
        assertEquals(0.0, app.app.invariants().expiryLagNow(), 0.5);
    }

    private static String one(String sql) throws Exception {
        try (Connection c = app.dataSource.getConnection(); Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
