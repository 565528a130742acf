package org.boxoffice.app;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.client.ApiClient;
import org.boxoffice.client.ApiException;
import org.boxoffice.client.api.DefaultApi;
import org.boxoffice.client.model.Hold;
import org.boxoffice.client.model.HoldBestAvailableRequest;
import org.boxoffice.client.model.HoldBestAvailableRequestBestAvailable;
import org.boxoffice.client.model.HoldRequest;
import org.boxoffice.client.model.HoldSeatsRequest;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A buyer's journey through the Java client OpenAPI Generator (7.x, native library, Jackson, bean
 * validation) makes from openapi.yaml at build time, used as generated: what a third party gets
 * from the document must work against the real service without edits.
 */
@ServerTest
class GeneratedClientTest {

    private static final String SHOW = "echoes-berlin-1";
    private static TestApp app;
    private final URI uri;

    GeneratedClientTest(URI uri) {
        this.uri = uri;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server);
        Main.listenerDefaults(server);
        server.addFeature(app.app.observe());
    }

    private DefaultApi api(String account) {
        ApiClient client = new ApiClient();
        client.updateBaseUri(uri.toString());
        if (account != null) {
            String token = app.token(account);
            client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + token));
        }
        return new DefaultApi(client);
    }

    @Test
    void aBuyer_listsEvents_holdsTheBestAvailable_andReadsTheHold() throws Exception {
        assertFalse(api(null).searchEvents(null, null, null, null, null).getEvents().isEmpty());

        DefaultApi buyer = api("generated-fan");
        HoldRequest best = new HoldRequest(new HoldBestAvailableRequest()
                .bestAvailable(new HoldBestAvailableRequestBestAvailable().quantity(2)));
        Hold hold = buyer.createHold(SHOW, best, "generated-1", null);
        assertEquals(2, hold.getSeatIds().size());
        assertEquals(Hold.StatusEnum.HELD, hold.getStatus());

        Hold read = buyer.getHold(hold.getHoldId());
        assertEquals(hold.getSeatIds(), read.getSeatIds());

        Hold named = buyer.createHold(SHOW, new HoldRequest(new HoldSeatsRequest().seatIds(List.of("T-30-5"))),
                "generated-2", null);
        assertEquals(List.of("T-30-5"), named.getSeatIds());

        ApiException taken = assertThrows(ApiException.class, () -> api("generated-rival").createHold(SHOW,
                new HoldRequest(new HoldSeatsRequest().seatIds(List.of("T-30-5"))), "generated-3", null));
        assertEquals(409, taken.getCode(), taken.getResponseBody());
    }
}
