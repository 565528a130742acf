package org.boxoffice.app;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.notify.SimulatedSmsProvider;
import org.boxoffice.app.waitlist.WaitlistSettings;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import static org.boxoffice.app.CheckoutFixture.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A waitlist offer that lapses unbought is told as a lapsed offer (its seats go on to the next fan
 * in line), not as a lapsed hold whose seats are "back on sale"; a fan's own hold still is.
 */
@ServerTest
class LapsedOfferNoticeTest {

    private static TestApp app;
    private final WaitlistFixture w;
    private final CheckoutFixture f;

    LapsedOfferNoticeTest(URI uri) {
        this.w = new WaitlistFixture(app, uri);
        this.f = new CheckoutFixture(app, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server, s -> s.withWaitlist(new WaitlistSettings(Duration.ofSeconds(8), 0, Duration.ofHours(1))));
    }

    private List<String> textsTo(String phone) {
        return ((SimulatedSmsProvider) app.app.notifications().sms()).sent().values().stream()
                .filter(s -> s.to().e164().equals(phone)).map(SimulatedSmsProvider.Sent::text).toList();
    }

    @Test
    void aLapsedWaitlistOffer_isToldAsALapsedOffer_notAsSeatsBackOnSale() {
        w.createShow("lo-1", 1, 2, null);
        String first = w.hold("holder-lo", "lo-1", "A-1-1");
        w.hold("holder-lo", "lo-1", "A-1-2");
        String phone = "+4915155500077";
        assertEquals(200, f.http.put("/v1/accounts/me/phone", app.token("ann-lo"), "{\"phone\":\"" + phone + "\"}").status());
        assertEquals(1, w.joined("ann-lo", "lo-1", 1));
        w.release("holder-lo", first);
        String offerHold = w.awaitStatus("ann-lo", "lo-1", "OFFERED").get("offer").get("holdId").asText();

        assertTrue(waitFor(() -> f.one("SELECT sent_at FROM messages WHERE kind = 'HOLD_LAPSED' AND channel = 'SMS' "
                + "AND subject = ?", offerHold) != null, Duration.ofSeconds(40)), "the offer lapses and ann is told");

        List<String> lapsed = textsTo(phone).stream().filter(t -> t.contains("lapsed")).toList();
        assertEquals(1, lapsed.size(), textsTo(phone).toString());
        assertTrue(lapsed.get(0).contains("waitlist offer") && lapsed.get(0).contains("A-1-1"), lapsed.get(0));
        assertTrue(lapsed.get(0).contains("next fan on the waitlist"), lapsed.get(0));
        assertFalse(lapsed.get(0).contains("Pick seats again"), lapsed.get(0));
    }

    @Test
    void aFansOwnLapsedHold_isStillToldItsSeatsAreBackOnSale() {
        f.createShow("lo-2", 4, 2);
        String phone = "+4915155500078";
        String bea = app.token("bea-lo");
        assertEquals(200, f.http.put("/v1/accounts/me/phone", bea, "{\"phone\":\"" + phone + "\"}").status());
        String holdId = f.hold(bea, "lo-2", "A-1-1");

        assertTrue(waitFor(() -> f.one("SELECT sent_at FROM messages WHERE kind = 'HOLD_LAPSED' AND channel = 'SMS' "
                + "AND subject = ?", holdId) != null, Duration.ofSeconds(40)), "the hold lapses and bea is told");

        assertEquals(1, textsTo(phone).size(), textsTo(phone).toString());
        assertTrue(textsTo(phone).get(0).contains("back on sale"), textsTo(phone).get(0));
        assertFalse(textsTo(phone).get(0).contains("waitlist"), textsTo(phone).get(0));
    }
}
