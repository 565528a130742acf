package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.gates.SignedCodes;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.boxoffice.app.CheckoutFixture.json;
import static org.boxoffice.app.GateFixture.scans;
import static org.boxoffice.app.TestApp.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A door with a connection and the offline gates, on one ticket: the online check
 * ({@code /v1/tickets/verify}) reads the offline gate's signed codes with the offline gate's verdicts
 * and admits each ticket once however many doors ask at once; scans uploaded later by offline gates
 * mark their tickets used for it, once, whatever the retries. Real HTTP, PostgreSQL and Hazelcast, on
 * a clock the test moves.
 */
@ServerTest
class GateOnlineCheckTest {

    private static final TestApp.Clock CLOCK = new TestApp.Clock();
    private static TestApp app;
    private final CheckoutFixture f;
    private final GateFixture g;

    GateOnlineCheckTest(URI uri) {
        this.f = new CheckoutFixture(app, uri);
        this.g = new GateFixture(f, staff);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server, s -> s, CLOCK);
    }

    private final String staff = app.token("door-online", "staff");

    private JsonNode online(String code) {
        return online(code, null);
    }

    private JsonNode online(String code, String doorShow) {
        TestApp.Http.Reply r = f.http.post("/v1/tickets/verify", staff, "{\"code\":\"" + code + "\""
                + (doorShow == null ? "" : ",\"showId\":\"" + doorShow + "\"") + "}");
        assertEquals(200, r.status(), r.body());
        return json(r);
    }

    /** "STATUS/VERDICT" of the online check. */
    private String onlineVerdict(String code) {
        JsonNode r = online(code);
        return r.get("status").asText() + "/" + r.path("verdict").asText();
    }

    private long usedAt(long booking, String seat) {
        String at = f.one("SELECT coalesce(epoch_ms(used_at), 0) FROM booking_seats WHERE booking_id = ? AND seat_id = ?",
                booking, seat);
        return Long.parseLong(at);
    }

    @Test
    void aSignedCode_isCheckedOnline_withTheVerdictsOfTheOfflineGate() throws Exception {
        f.createShow("on-1", 300, 2);
        f.createShow("on-1b", 300, 2);
        String amy = app.token("amy-on1");
        String bob = app.token("bob-on1");
        long kept = f.book(amy, "on-1", "A-1-1");
        long moved = f.book(amy, "on-1", "A-1-2");
        long cancelled = f.book(amy, "on-1", "A-1-3");
        long late = f.book(amy, "on-1", "A-1-4");
        List<String> keptCodes = g.signedCodes(amy, kept, "A-1-1");
        String movedCode = g.signedCodes(amy, moved, "A-1-2").get(0);
        String cancelledCode = g.signedCodes(amy, cancelled, "A-1-3").get(0);
        List<String> lateCodes = g.signedCodes(amy, late, "A-1-4");

        // revoked: a transfer replaced the code, or the booking was refunded and cancelled
        f.transfer(amy, moved, "A-1-2", "bob-on1", bob);
        assertEquals(200, f.http.delete("/v1/bookings/" + cancelled, amy).status());
        // not signed by the show's key: a changed signature, another key, a show that does not exist
        String forged = keptCodes.get(0).substring(0, keptCodes.get(0).length() - 6) + "AAAAAA";
        SignedCodes.Claim claim = new SignedCodes.Claim(kept, "on-1", "A-1-1", 0, SignedCodes.step(CLOCK.now()));
        String otherKey = SignedCodes.sign(claim, KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPrivate());
        String noShow = SignedCodes.sign(new SignedCodes.Claim(kept, "no-such-show", "A-1-1", 0, claim.step()),
                KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPrivate());
        String tooEarly = lateCodes.get(5);

        // what the offline gate says with a fresh bundle, the online check says, in the same words
        Map<String, String> expected = new TreeMap<>(Map.of(
                keptCodes.get(0), "VALID/ACCEPT",
                movedCode, "INVALID/REVOKED",
                cancelledCode, "INVALID/REVOKED",
                forged, "INVALID/BAD_SIGNATURE",
                otherKey, "INVALID/BAD_SIGNATURE",
                noShow, "INVALID/BAD_SIGNATURE",
                tooEarly, "EXPIRED/EXPIRED_WINDOW"));
        for (Map.Entry<String, String> e : expected.entrySet()) {
            assertEquals(e.getValue().substring(e.getValue().indexOf('/') + 1), g.bundle("on-1").verdict("on-1", e.getKey(), CLOCK.now()).name(),
                    "offline, " + e.getValue());
            assertEquals(e.getValue(), onlineVerdict(e.getKey()), "online");
        }
        assertEquals(0, usedAt(late, "A-1-4"), "a code outside its window marks nothing used");

        // used: once, whichever of the ticket's codes comes back
        JsonNode again = online(keptCodes.get(1));
        assertEquals("ALREADY_USED/ALREADY_USED", again.get("status").asText() + "/" + again.get("verdict").asText());
        assertEquals(Instant.ofEpochMilli(usedAt(kept, "A-1-1")).toString(), again.get("usedAt").asText());
        assertEquals("A-1-1", again.get("seatId").asText());
        assertEquals(kept, again.get("bookingId").asLong());
        assertEquals("VALID", online(g.signedCodes(bob, moved, "A-1-2").get(0)).get("status").asText(),
                "the new holder's code");

        // a door that names its show refuses another show's genuine code, and marks nothing
        JsonNode wrong = online(lateCodes.get(0), "on-1b");
        assertEquals("INVALID/WRONG_SHOW", wrong.get("status").asText() + "/" + wrong.get("verdict").asText());
        assertEquals(0, usedAt(late, "A-1-4"));
        String printed = json(f.http.get("/v1/bookings/" + late, amy)).get("tickets").get(0).get("code").asText();
        assertEquals("INVALID", online(printed, "on-1b").get("status").asText(), "a printed code of another show too");
        assertNull(online(printed, "on-1b").get("verdict"), "a verdict is the signed codes' word");

        // a minute later the screenshot is worthless, while a revoked code stays revoked, as offline
        CLOCK.advance(Duration.ofMinutes(1));
        assertEquals("EXPIRED/EXPIRED_WINDOW", onlineVerdict(lateCodes.get(0)));
        assertEquals("INVALID/REVOKED", onlineVerdict(cancelledCode));
        assertEquals(0, usedAt(late, "A-1-4"));
        JsonNode live = online(lateCodes.get(4), "on-1");
        assertEquals("VALID/ACCEPT", live.get("status").asText() + "/" + live.get("verdict").asText(),
                "the live code, at the door that names its show");

        // bad input
        String body = "{\"code\":\"" + lateCodes.get(0) + "\",\"showId\":";
        assertError(f.http.post("/v1/tickets/verify", staff, body + "\"no-such-show\"}"), 404, "NOT_FOUND");
        assertError(f.http.post("/v1/tickets/verify", staff, body + "\"bad show\"}"), 400, "BAD_REQUEST");
        assertError(f.http.post("/v1/tickets/verify", staff, body + "7}"), 400, "BAD_REQUEST");
        assertEquals("INVALID/BAD_SIGNATURE", onlineVerdict("BXS."), "a code of no shape is refused, not an error");
        assertEquals("INVALID/BAD_SIGNATURE", onlineVerdict("BXS.@@.@@"));
    }

    @Test
    void twentyDoorsCheckingOneSignedCodeAtOnce_admitItOnce() throws Exception {
        f.createShow("on-2", 300, 2);
        String amy = app.token("amy-on2");
        long booking = f.book(amy, "on-2", "A-1-1");
        String code = g.signedCodes(amy, booking, "A-1-1").get(0);
        ExecutorService pool = Executors.newFixedThreadPool(20);
        List<Callable<String>> doors = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            doors.add(() -> online(code).get("status").asText());
        }
        List<String> answers = new ArrayList<>();
        try {
            for (Future<String> d : pool.invokeAll(doors)) {
                answers.add(d.get());
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(1, answers.stream().filter("VALID"::equals).count(), answers.toString());
        assertEquals(19, answers.stream().filter("ALREADY_USED"::equals).count(), answers.toString());
    }

    @Test
    void scansUploadedByOfflineGates_markTheirTicketsUsedForTheOnlineCheck_once() {
        f.createShow("on-3", 300, 2);
        String amy = app.token("amy-on3");
        String bob = app.token("bob-on3");
        long booking = f.book(amy, "on-3", "A-1-1", "A-1-2", "A-1-3");
        long moved = f.book(amy, "on-3", "A-1-4");
        List<String> one = g.signedCodes(amy, booking, "A-1-1");
        List<String> two = g.signedCodes(amy, booking, "A-1-2");
        List<String> three = g.signedCodes(amy, booking, "A-1-3");
        String amysOld = g.signedCodes(amy, moved, "A-1-4").get(0);
        f.transfer(amy, moved, "A-1-4", "bob-on3", bob);
        Instant at = Instant.ofEpochSecond(CLOCK.now() / 1000 - 600);

        // north admitted two tickets, refused a third, and admitted a transferred ticket's old code (a stale list)
        String north = scans("north", "ACCEPT", at, "n-1", one.get(0), "n-2", two.get(0));
        assertEquals(2, json(f.http.post("/v1/gates/on-3/scans", staff, north)).get("recorded").asInt());
        assertEquals(1, json(f.http.post("/v1/gates/on-3/scans", staff,
                scans("north", "REVOKED", at, "n-3", three.get(0)))).get("recorded").asInt());
        assertEquals(1, json(f.http.post("/v1/gates/on-3/scans", staff,
                scans("north", "ACCEPT", at, "n-4", amysOld))).get("recorded").asInt());

        JsonNode first = online(one.get(1));
        assertEquals("ALREADY_USED", first.get("status").asText(), first.toString());
        assertEquals(at.toString(), first.get("usedAt").asText(), "used since the gate's scan");
        String printed = json(f.http.get("/v1/bookings/" + booking, amy)).get("tickets").get(1).get("code").asText();
        JsonNode second = online(printed);
        assertEquals("ALREADY_USED", second.get("status").asText(), "whichever code of the ticket: " + second);
        assertEquals(at.plusSeconds(2).toString(), second.get("usedAt").asText());
        assertEquals("VALID", online(three.get(0)).get("status").asText(), "a refusing scan marks nothing");
        assertEquals("VALID", online(g.signedCodes(bob, moved, "A-1-4").get(0)).get("status").asText(),
                "a scan of a code a transfer replaced marks nothing of the new holder's");

        // the same upload again changes nothing; a second gate's earlier scan is a duplicate and the first use
        assertEquals(0, json(f.http.post("/v1/gates/on-3/scans", staff, north)).get("recorded").asInt());
        assertEquals(at.toEpochMilli(), usedAt(booking, "A-1-1"));
        TestApp.Http.Reply south = f.http.post("/v1/gates/on-3/scans", staff,
                scans("south", "ACCEPT", at.minusSeconds(60), "s-1", one.get(2)));
        JsonNode dup = json(south).get("duplicates");
        assertEquals(2, dup.size(), south.body());
        assertEquals("A-1-1", dup.get(0).get("seatId").asText());
        assertEquals("[\"south\",\"north\"]", dup.get(0).get("gates").toString(), "in the order of their scans");
        assertEquals(at.minusSeconds(60).toEpochMilli(), usedAt(booking, "A-1-1"));
        // the old code let someone in offline, the new holder came in online: one seat, two people
        assertEquals("A-1-4", dup.get(1).get("seatId").asText());
        assertEquals("[\"north\",\"online\"]", dup.get(1).get("gates").toString());
        assertEquals(5 + 2, f.count("SELECT count(*) FROM gate_scans WHERE show_id = ?", "on-3"),
                "five uploaded scans, two online admissions");
    }

    @Test
    void aTicketAdmittedOnline_andThenAtAnOfflineGate_isReportedAsADuplicate() {
        f.createShow("on-5", 300, 2);
        String amy = app.token("amy-on5");
        long booking = f.book(amy, "on-5", "A-1-1");
        List<String> codes = g.signedCodes(amy, booking, "A-1-1");
        String printed = json(f.http.get("/v1/bookings/" + booking, amy)).get("tickets").get(0).get("code").asText();
        assertEquals("VALID", online(printed).get("status").asText(), "any code: here the printed one");
        assertEquals(0, json(f.http.get("/v1/gates/on-5/duplicates", staff)).get("duplicates").size());

        TestApp.Http.Reply east = f.http.post("/v1/gates/on-5/scans", staff,
                scans("east", "ACCEPT", Instant.ofEpochMilli(CLOCK.now()).plusSeconds(5), "e-9", codes.get(0)));
        JsonNode dup = json(east).get("duplicates");
        assertEquals(1, dup.size(), east.body());
        assertEquals("[\"online\",\"east\"]", dup.get(0).get("gates").toString());
        assertEquals("ALREADY_USED", online(codes.get(1)).get("status").asText());
        assertEquals(2, f.count("SELECT count(*) FROM gate_scans WHERE show_id = ?", "on-5"),
                "a refused online check is no scan");
    }

    @Test
    void parallelUploadsOfTheSameScans_inAnyOrder_recordEachOnce_andMarkEachTicketOnce() throws Exception {
        f.createShow("on-4", 300, 2);
        String amy = app.token("amy-on4");
        long booking = f.book(amy, "on-4", "A-1-1", "A-1-2", "A-1-3");
        List<String> codes = List.of(g.signedCodes(amy, booking, "A-1-1").get(0), g.signedCodes(amy, booking, "A-1-2").get(0),
                g.signedCodes(amy, booking, "A-1-3").get(0));
        Instant at = Instant.ofEpochSecond(CLOCK.now() / 1000 - 300);
        // the same three scans, in one order and the reverse: were they kept in upload order, two uploads could deadlock
        String forward = scans("west", "ACCEPT", at, "w-1", codes.get(0), "w-2", codes.get(1), "w-3", codes.get(2));
        String backward = "{\"gateId\":\"west\",\"scans\":[" + String.join(",", reversed(new ObjectMapper().readTree(forward).get("scans"))) + "]}";
        List<String> uploads = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            uploads.add(i % 2 == 0 ? forward : backward);
        }
        assertEquals(3, g.uploadedAtOnce("on-4", uploads), "each scan is recorded by exactly one upload");
        for (int i = 0; i < 3; i++) {
            assertEquals(at.plusSeconds(2L * i).toEpochMilli(), usedAt(booking, "A-1-" + (i + 1)));
            assertEquals("ALREADY_USED", online(codes.get(i)).get("status").asText());
        }
    }

    private static List<String> reversed(JsonNode scans) {
        List<String> out = new ArrayList<>();
        scans.forEach(s -> out.add(0, s.toString()));
        return out;
    }
}
