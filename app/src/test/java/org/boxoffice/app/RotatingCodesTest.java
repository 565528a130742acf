package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.zxing.common.BitMatrix;
import com.google.zxing.qrcode.decoder.Decoder;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;

import static org.boxoffice.app.CheckoutFixture.json;
import static org.boxoffice.app.TestApp.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The ticket app's rotating codes, on a clock the test moves: a code computed from the holder's
 * secret admits within its window and never after it; the secret is the holder's alone and changes
 * with a transfer; a show may refuse printed codes.
 */
@ServerTest
class RotatingCodesTest {

    private static final TestApp.Clock CLOCK = new TestApp.Clock();
    private static TestApp app;
    private final CheckoutFixture f;

    RotatingCodesTest(URI uri) {
        this.f = new CheckoutFixture(app, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server, s -> s, CLOCK);
    }

    private JsonNode secret(String token, long booking, String seat) {
        TestApp.Http.Reply r = f.http.get("/v1/bookings/" + booking + "/tickets/" + seat + "/rotating", token);
        assertEquals(200, r.status(), r.body());
        assertEquals("no-store", r.headers().firstValue("Cache-Control").orElseThrow());
        return json(r);
    }

    /** The code as the ticket app computes it: from the secret and the time alone. */
    private static String rotatingCode(JsonNode secret, long epochMillis) throws Exception {
        long step = Math.floorDiv(epochMillis, secret.get("stepSeconds").asLong() * 1000);
        byte[] payload = (secret.get("ticket").asText() + "/" + step).getBytes(StandardCharsets.UTF_8);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getUrlDecoder().decode(secret.get("secret").asText()), "HmacSHA256"));
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        return "BXR." + b64.encodeToString(payload) + "." + b64.encodeToString(Arrays.copyOf(mac.doFinal(payload), 16));
    }

    @Test
    void aScreenshotOfARotatingCode_isRefusedAfterItsWindow_andTheLiveCodeStillAdmits() throws Exception {
        f.createShow("rot-1", 300, 2);
        String amy = app.token("amy-rot");
        long booking = f.book(amy, "rot-1", "A-1-1");
        JsonNode secret = secret(amy, booking, "A-1-1");
        String screenshot = rotatingCode(secret, CLOCK.now());

        CLOCK.advance(Duration.ofMinutes(1));
        assertEquals("EXPIRED", f.gate(screenshot), "a minute later the screenshot is worthless");
        assertEquals(0, f.count("SELECT count(*) FROM booking_seats WHERE booking_id = ? AND used_at IS NOT NULL", booking),
                "a refused code marks nothing used");
        assertEquals("INVALID", f.gate(screenshot.substring(0, screenshot.length() - 2) + "AA"), "a forged tag");
        String live = rotatingCode(secret, CLOCK.now());
        assertNotEquals(screenshot, live);
        assertEquals("VALID", f.gate(live));
        assertEquals("ALREADY_USED", f.gate(rotatingCode(secret, CLOCK.now())));
    }

    @Test
    void theSecret_isTheHoldersAlone_andATransferReplacesIt() throws Exception {
        f.createShow("rot-2", 300, 2);
        String amy = app.token("amy-rot2");
        String bob = app.token("bob-rot2");
        long booking = f.book(amy, "rot-2", "A-1-1");
        assertError(f.http.get("/v1/bookings/" + booking + "/tickets/A-1-1/rotating", bob), 404, "NOT_FOUND");
        assertError(f.http.get("/v1/bookings/" + booking + "/tickets/A-9-9/rotating", amy), 404, "NOT_FOUND");
        assertError(f.http.get("/v1/bookings/x" + booking + "/tickets/A-1-1/rotating", amy), 404, "NOT_FOUND");
        JsonNode before = secret(amy, booking, "A-1-1");
        assertEquals(0, before.get("codeVersion").asInt());

        f.transfer(amy, booking, "A-1-1", "bob-rot2", bob);

        assertError(f.http.get("/v1/bookings/" + booking + "/tickets/A-1-1/rotating", amy), 404, "NOT_FOUND");
        JsonNode after = secret(bob, booking, "A-1-1");
        assertEquals(1, after.get("codeVersion").asInt());
        assertNotEquals(before.get("secret").asText(), after.get("secret").asText(), "a transfer re-issues the secret");
        assertEquals("INVALID", f.gate(rotatingCode(before, CLOCK.now())), "the old holder's codes stop at once");
        assertEquals("VALID", f.gate(rotatingCode(after, CLOCK.now())));
    }

    @Test
    void aShowWithoutPrintAtHome_refusesTheQrAndPrintedCodes_butAdmitsRotatingOnes() throws Exception {
        f.createShow("rot-3", 300, 2);
        String amy = app.token("amy-rot3");
        String admin = app.token("ops", "admin");
        long booking = f.book(amy, "rot-3", "A-1-1", "A-1-2");
        String printed = json(f.http.get("/v1/bookings/" + booking, amy)).get("tickets").get(0).get("code").asText();
        assertEquals(200, f.http.get("/v1/bookings/" + booking + "/tickets/A-1-1/qr.png", amy).status(), "allowed by default");

        String policy = "/v1/admin/shows/rot-3/ticket-policy";
        assertError(f.http.put(policy, amy, "{\"printAtHome\":false}"), 403, "FORBIDDEN");
        assertError(f.http.put(policy, admin, "{\"printAtHome\":\"no\"}"), 400, "BAD_REQUEST");
        assertError(f.http.put(policy, admin, "{\"printAtHome\":false,\"x\":1}"), 400, "BAD_REQUEST");
        assertError(f.http.put(policy, admin, "[]"), 400, "BAD_REQUEST");
        assertError(f.http.put("/v1/admin/shows/nope/ticket-policy", admin, "{\"printAtHome\":false}"), 404, "NOT_FOUND");
        assertEquals(200, f.http.get("/v1/bookings/" + booking + "/tickets/A-1-1/qr.png", amy).status(),
                "refused changes change nothing");

        TestApp.Http.Reply off = f.http.put(policy, admin, "{\"printAtHome\":false}");
        assertEquals(200, off.status(), off.body());
        assertEquals(false, json(off).get("printAtHome").asBoolean());
        assertError(f.http.get("/v1/bookings/" + booking + "/tickets/A-1-1/qr.png", amy), 409, "PRINT_AT_HOME_OFF");
        assertEquals("INVALID", f.gate(printed));
        assertEquals("VALID", f.gate(rotatingCode(secret(amy, booking, "A-1-1"), CLOCK.now())));

        assertEquals(200, f.http.put(policy, admin, "{\"printAtHome\":true}").status());
        assertEquals(200, f.http.get("/v1/bookings/" + booking + "/tickets/A-1-2/qr.png", amy).status());
    }

    @Test
    void eachSignedStep_carriesTheQrModulesOfItsCode_forTheTicketAppToDraw() throws Exception {
        f.createShow("rot-4", 300, 2);
        String amy = app.token("amy-rot4");
        long booking = f.book(amy, "rot-4", "A-1-1");
        long step = Math.floorDiv(CLOCK.now(), 15_000L);
        JsonNode signed = secret(amy, booking, "A-1-1").get("signed");
        assertEquals(40, signed.size(), "ten minutes of 15-second steps");
        for (int i = 0; i < signed.size(); i++) {
            JsonNode s = signed.get(i);
            assertEquals(step + i, s.get("step").asLong(), "from the current step on, one per step");
            int size = s.get("qr").get("size").asInt();
            assertEquals(0, (size - 17) % 4, "a QR code's side is 17 + 4 × version modules, not " + size);
            byte[] bits = Base64.getUrlDecoder().decode(s.get("qr").get("modules").asText());
            assertEquals((size * size + 7) / 8, bits.length);
            BitMatrix matrix = new BitMatrix(size);
            for (int k = 0; k < size * size; k++) {
                if ((bits[k >> 3] & (0x80 >>> (k & 7))) != 0) {
                    matrix.set(k % size, k / size);
                }
            }
            // what a scanner reads from the drawing is the step's signed code, nothing else
            assertEquals(s.get("code").asText(), new Decoder().decode(matrix).getText());
        }
    }
}
