package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Instant;
import java.util.Collections;

import static org.boxoffice.app.CheckoutFixture.json;
import static org.boxoffice.app.TestApp.assertError;
import static org.boxoffice.app.gates.OfflineVerifier.Verdict.ACCEPT;
import static org.boxoffice.app.gates.OfflineVerifier.Verdict.REVOKED;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Offline gates through the API on a real PostgreSQL: the bundle a gate downloads (public key and
 * revocations) is enough to refuse a transferred or cancelled ticket's codes with no network, and
 * scans uploaded later are kept once each and report a ticket presented at two gates.
 */
@ServerTest
class OfflineGatesTest {

    private static TestApp app;
    private final CheckoutFixture f;
    private final GateFixture g;

    OfflineGatesTest(URI uri) {
        this.f = new CheckoutFixture(app, uri);
        this.g = new GateFixture(f, staff);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server);
    }

    private final String staff = app.token("door-1", "staff");

    /** Scans an offline gate accepted just now. */
    private static String scans(String gate, String... idAndCode) {
        return GateFixture.scans(gate, "ACCEPT", Instant.now(), idAndCode);
    }

    @Test
    void aTransferredOrCancelledTicketsCodes_areRevokedOffline_onceTheGateHasTheList() throws Exception {
        f.createShow("og-1", 300, 2);
        String amy = app.token("amy-og");
        String bob = app.token("bob-og");
        long kept = f.book(amy, "og-1", "A-1-1");
        long cancelled = f.book(amy, "og-1", "A-1-2");
        String amysCode = g.signedCodes(amy, kept, "A-1-1").get(0);
        String cancelledCode = g.signedCodes(amy, cancelled, "A-1-2").get(0);
        GateFixture.Bundle before = g.bundle("og-1");
        assertEquals(ACCEPT, before.verdict("og-1", amysCode));
        assertEquals(ACCEPT, before.verdict("og-1", cancelledCode));

        f.transfer(amy, kept, "A-1-1", "bob-og", bob);
        assertEquals(200, f.http.delete("/v1/bookings/" + cancelled, amy).status());

        GateFixture.Bundle after = g.bundle("og-1");
        assertEquals(before.key(), after.key(), "a show keeps its key");
        assertEquals(REVOKED, after.verdict("og-1", amysCode), "the version the transfer replaced");
        assertEquals(REVOKED, after.verdict("og-1", cancelledCode), "a refunded and cancelled booking's ticket");
        assertEquals(ACCEPT, after.verdict("og-1", g.signedCodes(bob, kept, "A-1-1").get(0)), "the new holder's code");
    }

    @Test
    void aCodeScannedAtTwoOfflineGates_isReportedAsADuplicate_whenTheySync() {
        f.createShow("og-2", 300, 2);
        String amy = app.token("amy-og2");
        long booking = f.book(amy, "og-2", "A-1-1", "A-1-2");
        String one = g.signedCodes(amy, booking, "A-1-1").get(0);
        String two = g.signedCodes(amy, booking, "A-1-2").get(0);

        TestApp.Http.Reply north = f.http.post("/v1/gates/og-2/scans", staff, scans("north", "n-1", one, "n-2", two));
        assertEquals(200, north.status(), north.body());
        assertEquals(2, json(north).get("recorded").asInt());
        assertEquals(0, json(north).get("duplicates").size());

        TestApp.Http.Reply south = f.http.post("/v1/gates/og-2/scans", staff, scans("south", "s-1", one));
        assertEquals(200, south.status(), south.body());
        JsonNode dup = json(south).get("duplicates");
        assertEquals(1, dup.size(), south.body());
        assertEquals("A-1-1", dup.get(0).get("seatId").asText());
        assertEquals("[\"north\",\"south\"]", dup.get(0).get("gates").toString());
        assertEquals(1, json(f.http.get("/v1/gates/og-2/duplicates", staff)).get("duplicates").size());

        TestApp.Http.Reply again = f.http.post("/v1/gates/og-2/scans", staff, scans("north", "n-1", one, "n-2", two));
        assertEquals(0, json(again).get("recorded").asInt(), "uploading the same scans again changes nothing");
        assertEquals(3, f.count("SELECT count(*) FROM gate_scans WHERE show_id = ?", "og-2"));
    }

    @Test
    void parallelUploadsOfTheSameScans_countEachScanOnce() throws Exception {
        f.createShow("og-3", 300, 2);
        String amy = app.token("amy-og3");
        long booking = f.book(amy, "og-3", "A-1-1", "A-1-2", "A-1-3");
        String body = scans("east", "e-1", g.signedCodes(amy, booking, "A-1-1").get(0), "e-2", g.signedCodes(amy, booking, "A-1-2").get(0),
                "e-3", g.signedCodes(amy, booking, "A-1-3").get(0));
        assertEquals(3, g.uploadedAtOnce("og-3", Collections.nCopies(12, body)), "each scan is recorded by exactly one upload");
        assertEquals(3, f.count("SELECT count(*) FROM gate_scans WHERE show_id = ?", "og-3"));
        assertEquals(0, json(f.http.get("/v1/gates/og-3/duplicates", staff)).get("duplicates").size());
    }

    @Test
    void badInput_isAClear4xx_andChangesNothing() {
        f.createShow("og-4", 300, 2);
        String amy = app.token("amy-og4");
        long booking = f.book(amy, "og-4", "A-1-1");
        String code = g.signedCodes(amy, booking, "A-1-1").get(0);
        String path = "/v1/gates/og-4/scans";

        assertError(f.http.get("/v1/gates/og-4/bundle", amy), 403, "FORBIDDEN");
        assertError(f.http.post(path, amy, scans("g", "x-1", code)), 403, "FORBIDDEN");
        assertError(f.http.get("/v1/gates/no-such-show/bundle", staff), 404, "NOT_FOUND");
        assertError(f.http.post("/v1/gates/no-such-show/scans", staff, scans("g", "x-1", code)), 404, "NOT_FOUND");
        assertError(f.http.post("/v1/gates/og-1x/scans", staff, scans("g", "x-1", code)), 404, "NOT_FOUND");
        assertError(f.http.post(path, staff, "[]"), 400, "BAD_REQUEST");
        assertError(f.http.post(path, staff, "{\"gateId\":\"g\",\"scans\":[]}"), 400, "BAD_REQUEST");
        assertError(f.http.post(path, staff, "{\"gateId\":\"g h\",\"scans\":[]}"), 400, "BAD_REQUEST");
        assertError(f.http.post(path, staff, "{\"gateId\":\"g\",\"scans\":[1]}"), 400, "BAD_REQUEST");
        assertError(f.http.post(path, staff, "{\"gateId\":\"g\",\"extra\":1,\"scans\":[]}"), 400, "BAD_REQUEST");
        assertError(f.http.post(path, staff, scans("g", "x-1", code, "x-1", code)), 400, "BAD_REQUEST");
        assertError(f.http.post(path, staff, scans("g", "x-1", code, "x-2", code.substring(0, code.length() - 3) + "AAA")),
                400, "BAD_REQUEST");
        assertError(f.http.post(path, staff, scans("g", "x-1", code).replace("ACCEPT", "MAYBE")), 400, "BAD_REQUEST");
        assertError(f.http.post(path, staff, scans("g", "x-1", code).replaceAll("\"scannedAt\":\"[^\"]*\"",
                "\"scannedAt\":\"yesterday\"")), 400, "BAD_REQUEST");
        assertError(f.http.post(path, staff, scans("g", "x-1", code).replace("\"code\"", "\"cod\"")), 400, "BAD_REQUEST");
        assertEquals(0, f.count("SELECT count(*) FROM gate_scans WHERE show_id = ?", "og-4"), "no refused upload kept a scan");
    }
}
