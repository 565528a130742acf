package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServer;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.grid.BlockCommand;
import org.boxoffice.grid.BlockOutcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.boxoffice.app.TestApp.assertError;
import static org.boxoffice.app.TestApp.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The referee wins, a restart loses nothing, and lapsed holds go back on sale by themselves. */
class RecoveryTest {

    private final List<AutoCloseable> running = new ArrayList<>();

    private record Node(TestApp app, WebServer server, TestApp.Http http) {
    }

    private Node start(TestApp app) {
        WebServer server = WebServer.builder().port(0).host("127.0.0.1").routing(app.app::routing).build().start();
        running.add(server::stop);
        running.add(app);
        return new Node(app, server, TestApp.Http.on(URI.create("http://127.0.0.1:" + server.port())));
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : running) {
            c.close();
        }
    }


    private static String state(TestApp app, String show, String seat) throws Exception {
        try (Connection c = app.dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select state from seats where show_id = '" + show + "' and seat_id = '" + seat + "'")) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void aSeatChangedBehindTheGridsBack_isNotHeldAgain_andTheGridReloads() throws Exception {
        Node node = start(TestApp.start());
        String token = node.app().token("amy");
        // load the block into the grid, then sell a seat directly in PostgreSQL (an offline sale)
        assertEquals(201, node.http().post("/v1/shows/fado-1/holds", token, "{\"seatIds\":[\"PLATEIA-3-1\"]}").status());
        try (Connection c = node.app().dataSource.getConnection(); Statement s = c.createStatement()) {
            assertEquals(1, s.executeUpdate("update seats set state = 'SOLD', booking_id = 424242, holder = 'box-office', "
                    + "version = version + 1 where show_id = 'fado-1' and seat_id = 'PLATEIA-3-2'"));
        }

        TestApp.Http.Reply r = node.http().post("/v1/shows/fado-1/holds", token, "{\"seatIds\":[\"PLATEIA-3-2\",\"PLATEIA-3-3\"]}");

        assertEquals(409, r.status(), r.body());
        assertEquals("SOLD", state(node.app(), "fado-1", "PLATEIA-3-2"));
        assertEquals("AVAILABLE", state(node.app(), "fado-1", "PLATEIA-3-3"), "nothing of the refused hold was written");
        Show show = node.app().app.directory().find("fado-1").orElseThrow();
        ShowLayout.SeatRef ref = show.layout().locate("PLATEIA-3-2").orElseThrow();
        assertEquals(org.boxoffice.domain.SeatState.Status.SOLD,
                node.app().app.inventory().blocks(show).get(org.boxoffice.grid.Inventory.key(show, ref.blockId())).status(ref.index()),
                "the grid reloaded the block from PostgreSQL");
        assertEquals(201, node.http().post("/v1/shows/fado-1/holds", token, "{\"seatIds\":[\"PLATEIA-3-3\"]}").status());
    }

    @Test
    void aRestartedMember_keepsHoldsAndSoldSeats() throws Exception {
        Node first = start(TestApp.start());
        String token = first.app().token("ben");
        String holdId = json(first.http().post("/v1/shows/comedy-1/holds", token,
                "{\"seatIds\":[\"STALLS-2-1\",\"STALLS-2-2\"]}")).get("holdId").asText();
        String soldHold = json(first.http().post("/v1/shows/comedy-1/holds", token,
                "{\"seatIds\":[\"STALLS-2-5\"]}")).get("holdId").asText();
        Show show = first.app().app.directory().find("comedy-1").orElseThrow();
        ShowLayout.SeatRef sold = show.layout().locate("STALLS-2-5").orElseThrow();
        BlockOutcome confirmed = first.app().app.inventory().execute(show, sold.blockId(),
                new BlockCommand.Confirm(soldHold, new int[] {sold.index()}, 777L, System.currentTimeMillis(), 5_000));
        assertEquals(BlockOutcome.Result.CHANGED, confirmed.result());

        first.server().stop();
        first.app().app.close();
        Node second = start(TestApp.restartOn(first.app().db));

        TestApp.Http.Reply hold = second.http().get("/v1/holds/" + holdId, token);
        assertEquals(200, hold.status(), hold.body());
        assertEquals("HELD", json(hold).get("status").asText());
        for (String seat : new String[] {"STALLS-2-1", "STALLS-2-5"}) {
            TestApp.Http.Reply again = second.http().post("/v1/shows/comedy-1/holds", second.app().token("cat"),
                    "{\"seatIds\":[\"" + seat + "\"]}");
            assertEquals(409, again.status(), seat + " " + again.body());
        }
        JsonNode seats = json(second.http().get("/v1/shows/comedy-1/seats?section=STALLS", null)).get("seats");
        assertEquals("HELD", seats.get(40).get("status").asText(), "STALLS-2-1");
        assertEquals("SOLD", seats.get(44).get("status").asText(), "STALLS-2-5");
    }

    @Test
    void aHoldsIdempotencyKey_survivesARestart_andTheRetryGetsTheSameHold() throws Exception {
        Node first = start(TestApp.start());
        String token = first.app().token("dora");
        String body = "{\"seatIds\":[\"STALLS-4-1\",\"STALLS-4-2\"]}";
        TestApp.Http.Reply held = first.http().post("/v1/shows/comedy-1/holds", token, body, "Idempotency-Key", "dora-1");
        assertEquals(201, held.status(), held.body());

        first.server().stop();
        first.app().app.close();
        Node second = start(TestApp.restartOn(first.app().db));
        TestApp.Http.Reply retry = second.http().post("/v1/shows/comedy-1/holds", token, body, "Idempotency-Key", "dora-1");
        TestApp.Http.Reply other = second.http().post("/v1/shows/comedy-1/holds", token,
                "{\"seatIds\":[\"STALLS-4-3\"]}", "Idempotency-Key", "dora-1");

        assertEquals(201, retry.status(), retry.body());
        assertEquals(json(held).get("holdId").asText(), json(retry).get("holdId").asText(), "the same hold, not a second one");
        assertError(other, 422, "IDEMPOTENCY_KEY_REUSED");
        try (Connection c = second.app().dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select count(*) from holds where account_id = 'dora'")) {
            rs.next();
            assertEquals(1, rs.getInt(1), "one hold for one request");
        }
        assertEquals("AVAILABLE", state(second.app(), "comedy-1", "STALLS-4-3"));
    }

    @Test
    void aLapsedHold_isReleasedBySweeper_withoutAnyRequestTouchingTheShow() throws Exception {
        Node node = start(TestApp.start());
        String admin = node.app().token("ops", "admin");
        assertEquals(201, node.http().post("/v1/admin/shows", admin, "{\"eventId\":\"fado-nights\",\"showId\":\"short-holds\","
                + "\"startsAt\":\"2031-01-01T20:00:00Z\",\"holdSeconds\":1,\"graceSeconds\":0,"
                + "\"sections\":[{\"name\":\"A\",\"price\":\"5.00\",\"rows\":2,\"seatsPerRow\":10}]}").status());
        String token = node.app().token("dan");
        TestApp.Http.Reply held = node.http().post("/v1/shows/short-holds/holds", token, "{\"seatIds\":[\"A-1-1\",\"A-1-2\"]}");
        assertEquals(201, held.status(), held.body());
        long expiresAt = java.time.Instant.parse(json(held).get("expiresAt").asText()).toEpochMilli();

        long deadline = expiresAt + 10_000;
        while (!"AVAILABLE".equals(state(node.app(), "short-holds", "A-1-1")) && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        long backOnSale = System.currentTimeMillis();

        assertEquals("AVAILABLE", state(node.app(), "short-holds", "A-1-1"));
        assertEquals("AVAILABLE", state(node.app(), "short-holds", "A-1-2"));
        assertTrue(backOnSale - expiresAt < 2_000, "back on sale " + (backOnSale - expiresAt) + " ms after expiry plus grace");
        assertEquals("EXPIRED", json(node.http().get("/v1/holds/" + json(held).get("holdId").asText(), token)).get("status").asText());
        // the member's seat map (the gate in front of claims) follows within a snapshot refresh
        long mapDeadline = System.currentTimeMillis() + 2_000;
        while (!"AVAILABLE".equals(json(node.http().get("/v1/shows/short-holds/seats?section=A", null))
                .get("seats").get(0).get("status").asText()) && System.currentTimeMillis() < mapDeadline) {
            Thread.sleep(20);
        }
        TestApp.Http.Reply again = node.http().post("/v1/shows/short-holds/holds", node.app().token("eve"),
                "{\"seatIds\":[\"A-1-1\",\"A-1-2\"]}");
        assertEquals(201, again.status(), again.body());
    }
}
