package org.boxoffice.app;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.webserver.WebServer;
import org.boxoffice.app.payments.PaymentProvider;
import org.boxoffice.app.payments.PaymentProviders;
import org.boxoffice.app.payments.SimulatedPaymentGateway;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which payment provider runs is configuration: read, refused when unknown, and told where the webhook is. */
class PaymentProvidersTest {

    private static Config payments(Map<String, String> keys) {
        return Config.just(ConfigSources.create(keys)).get("boxoffice.payments");
    }

    @Test
    void settings_areTheSimulatorsWithItsDefaults_whenNoProviderIsNamed() {
        PaymentProvider.Settings settings = PaymentProviders.settings(payments(Map.of()));

        SimulatedPaymentGateway.Settings sim = assertInstanceOf(SimulatedPaymentGateway.Settings.class, settings);
        assertEquals("simulator", sim.name());
        assertEquals(0.05, sim.declineRate());
        assertNull(sim.webhookUrl(), "the service's own webhook, learned when the server listens");
    }

    @Test
    void settings_areReadFromTheNamedProvidersOwnNode() {
        PaymentProvider.Settings settings = PaymentProviders.settings(payments(Map.of(
                "boxoffice.payments.provider", "simulator",
                "boxoffice.payments.simulator.declinerate", "0.25",
                "boxoffice.payments.simulator.webhookurl", "http://127.0.0.1:9/hook")));

        SimulatedPaymentGateway.Settings sim = assertInstanceOf(SimulatedPaymentGateway.Settings.class, settings);
        assertEquals(0.25, sim.declineRate());
        assertEquals(URI.create("http://127.0.0.1:9/hook"), sim.webhookUrl());
    }

    @Test
    void settings_areRefused_forAProviderNoOneBuilt_namingTheBuiltInOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PaymentProviders.settings(payments(Map.of("boxoffice.payments.provider", "acme"))));

        assertTrue(e.getMessage().contains("boxoffice.payments.provider"), e.getMessage());
        assertTrue(e.getMessage().contains("'acme'"), e.getMessage());
        assertTrue(e.getMessage().contains("simulator"), e.getMessage());
    }

    @Test
    void theServiceDoesNotStart_whenTheConfigurationNamesAnUnknownProvider() {
        Config config = Config.just(ConfigSources.create(Map.of("boxoffice.auth.devtokens", "true",
                "boxoffice.payments.provider", "acme")));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AppSettings.from(config));

        assertTrue(e.getMessage().contains("no payment provider is named 'acme'"), e.getMessage());
    }

    /**
     * The member tells its provider where its webhook listens once its server does (Main does so at
     * start): the simulator, with no URL of its own, then delivers its events there, with no help
     * from the checkout path.
     */
    @Test
    void theProviderDeliversToTheMembersOwnWebhook_onceTheMemberServes() throws Exception {
        try (TestApp app = TestApp.start(s -> s.withCheckout(CheckoutFixture.settings(
                SimulatedPaymentGateway.Settings.reliable())))) {
            WebServer server = WebServer.builder().port(0).host("127.0.0.1").routing(app.app::routing).build().start();
            try {
                CheckoutFixture f = new CheckoutFixture(app, URI.create("http://127.0.0.1:" + server.port()));
                app.simulator().deliverTo(null); // as configured: no URL until the member serves
                String buyer = app.token("provider-wiring");
                TestApp.Http.Reply paid = f.checkout(buyer, f.hold(buyer, "comedy-2", "STALLS-9-1"), "card_ok");
                assertEquals(200, paid.status(), paid.body());
                assertTrue(CheckoutFixture.waitFor(() -> !app.simulator().sentEvents().isEmpty(), Duration.ofSeconds(5)));
                assertEquals(0, app.simulator().deliveredCount(), "nowhere to deliver yet");

                app.app.serving(server.port());

                assertTrue(CheckoutFixture.waitFor(() -> app.simulator().deliveredCount() > 0, Duration.ofSeconds(20)),
                        "the captured event reached the member's webhook");
                assertEquals("1", f.one("select count(*) from payment_events where type = 'payment.captured'"));
            } finally {
                server.stop();
            }
        }
    }
}
