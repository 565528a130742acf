package org.boxoffice.app;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.notify.NotifySettings;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import static org.boxoffice.app.CheckoutFixture.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With SMS turned off ({@code boxoffice.sms.provider=off}), a fan who gave a phone number is still
 * told of a lapse: the notice that chose SMS over email goes by email, once.
 */
@ServerTest
class SmsOffNoticesTest {

    private static TestApp app;
    private final CheckoutFixture f;

    SmsOffNoticesTest(URI uri) {
        this.f = new CheckoutFixture(app, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server, s -> s.withNotices(NotifySettings.defaults()
                .withSms(NotifySettings.SmsSettings.simulator().turnedOff())));
    }

    @Test
    void aLapseForAFanWithAPhone_goesByEmail_whileSmsIsOff() {
        f.createShow("sms-off-1", 2, 1);
        String token = app.token("phone-fan");
        assertEquals(200, f.http.put("/v1/accounts/me/phone", token, "{\"phone\":\"+4915155500077\"}").status());
        String holdId = f.hold(token, "sms-off-1", "A-1-1");

        assertTrue(waitFor(() -> f.count("SELECT count(*) FROM messages WHERE subject = ? AND channel = 'EMAIL' "
                + "AND sent_at IS NOT NULL", holdId) == 1, Duration.ofSeconds(20)), "the lapse is mailed");
        assertEquals(List.of("EMAIL sent", "PAGE sent", "SMS not sent: SMS is off; sent by email"),
                f.query("SELECT channel || ' ' || CASE WHEN sent_at IS NOT NULL THEN 'sent' ELSE last_error END "
                        + "FROM messages WHERE subject = ? AND kind = 'HOLD_LAPSED' ORDER BY channel", holdId));
    }

    @Test
    void aFanWithoutAPhone_isMailedAsBefore_andNothingIsMailedTwice() throws InterruptedException {
        f.createShow("sms-off-2", 2, 1);
        String token = app.token("mail-only-fan");
        String holdId = f.hold(token, "sms-off-2", "A-1-2");

        assertTrue(waitFor(() -> f.count("SELECT count(*) FROM messages WHERE subject = ? AND channel = 'EMAIL' "
                + "AND sent_at IS NOT NULL", holdId) == 1, Duration.ofSeconds(20)), "the lapse is mailed");
        Thread.sleep(1_500); // the dispatchers' next rounds
        assertEquals(List.of("EMAIL", "PAGE"), f.query("SELECT channel FROM messages WHERE subject = ? ORDER BY channel", holdId));
    }
}
