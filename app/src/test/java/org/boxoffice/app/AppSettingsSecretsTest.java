package org.boxoffice.app;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import org.boxoffice.app.admission.AdmissionSettings;
import org.boxoffice.app.auth.AuthSettings;
import org.boxoffice.app.checkout.CheckoutSettings;
import org.boxoffice.app.notify.NotifySettings;
import org.boxoffice.app.payments.PaymentSettings;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each module's settings record answers for its own secrets (which are still public, missing or short;
 * replacing its own public values in demo mode), and {@link AppSettings} only collects, in the order
 * operators read them.
 */
class AppSettingsSecretsTest {

    private static final String OWN = "an-operators-own-secret-of-more-than-32-bytes";
    private static final UnaryOperator<String> DEMOS_OWN = name -> "the-demos-own-secret-for-" + name;

    private static String demoValue(String key) {
        String env = key.toUpperCase(java.util.Locale.ROOT).replace('.', '_');
        return key + " is the public demo value; set your own secret (" + env + ")";
    }

    /** The shipped configuration: demo mode, every secret at its public demo value. */
    private static AppSettings shipped() {
        return AppSettings.from(Config.just(ConfigSources.create(Map.of()), ConfigSources.classpath("application.yaml")));
    }

    @Test
    void eachModule_namesItsOwnPublicDemoSecrets() {
        AppSettings demo = shipped();
        assertEquals(List.of(demoValue("boxoffice.auth.secret")), demo.auth().secretProblems());
        assertEquals(List.of(demoValue("boxoffice.room.secret"), demoValue("boxoffice.challenge.secret")),
                demo.admission().secretProblems());
        assertEquals(List.of(demoValue("boxoffice.challenge.secret")), demo.admission().door().secretProblems());
        assertEquals(List.of(demoValue("boxoffice.tickets.secret"), demoValue("boxoffice.payments.webhooksecret")),
                demo.checkout().secretProblems());
        assertEquals(List.of(demoValue("boxoffice.payments.webhooksecret")), demo.checkout().payments().secretProblems());
        assertEquals(List.of(), demo.notices().secretProblems(), "the simulated SMS provider needs no key");
    }

    @Test
    void theAppsSecretProblems_areTheModulesOwn_inTheOrderOperatorsRead() {
        AppSettings demo = shipped();
        AppSettings withSms = demo.withNotices(demo.notices().withSms(demo.notices().sms()
                .withHttp(URI.create("http://127.0.0.1:9/sms"), NotifySettings.DEMO_SMS_API_KEY, Duration.ofSeconds(1), 0)));
        assertEquals(List.of(demoValue("boxoffice.auth.secret"), demoValue("boxoffice.room.secret"),
                demoValue("boxoffice.challenge.secret"), demoValue("boxoffice.tickets.secret"),
                demoValue("boxoffice.payments.webhooksecret"),
                "boxoffice.sms.http.apikey is the public demo value; set your SMS provider's key (BOXOFFICE_SMS_HTTP_APIKEY)"),
                withSms.secretProblems());
    }

    @Test
    void anRs256PublicKey_needsNoHmacSecret() {
        assertEquals(List.of(), new AuthSettings(null, "-----BEGIN PUBLIC KEY-----", null, false, false).secretProblems());
        assertEquals(List.of("boxoffice.auth.secret is not set (BOXOFFICE_AUTH_SECRET)"),
                new AuthSettings(null, null, null, false, false).secretProblems());
    }

    @Test
    void inDemoMode_everyPublicSecret_isReplacedByTheDemosOwn_andTheOperatorsAreKept() {
        AppSettings demo = shipped();
        AppSettings mixed = demo.withCheckout(demo.checkout().withPayments(demo.checkout().payments().withWebhookSecret(OWN)));
        AppSettings own = mixed.withDemoSecrets(DEMOS_OWN);
        assertEquals(DEMOS_OWN.apply("boxoffice.auth.secret"), own.auth().hmacSecret());
        assertEquals(DEMOS_OWN.apply("boxoffice.room.secret"), own.admission().passSecret());
        assertEquals(DEMOS_OWN.apply("boxoffice.challenge.secret"), own.admission().door().challengeSecret());
        assertEquals(DEMOS_OWN.apply("boxoffice.tickets.secret"), own.checkout().ticketSecret());
        assertEquals(OWN, own.checkout().payments().webhookSecret(), "a secret the operator set is kept");
        assertEquals(List.of(), own.secretProblems(), "nothing left at a public value");
        assertEquals(own, own.withDemoSecrets(name -> "x"));
    }

    @Test
    void outsideDemoMode_theDemoSecretsStep_changesNothing_andTheMoneyPathsStillRefuseToStart() {
        AppSettings demo = shipped();
        AppSettings production = demo.withAuth(demo.auth().withDevTokens(false, false));
        assertSame(production, production.withDemoSecrets(DEMOS_OWN), "production never gets the demo's secrets");
        IllegalStateException e = assertThrows(IllegalStateException.class, production::requireStartable);
        for (String key : List.of("boxoffice.tickets.secret", "boxoffice.payments.webhooksecret", "boxoffice.auth.secret",
                "boxoffice.room.secret", "boxoffice.challenge.secret")) {
            assertTrue(e.getMessage().contains(demoValue(key)), e.getMessage());
        }
        assertEquals(CheckoutSettings.DEMO_TICKET_SECRET, production.checkout().ticketSecret());
        assertEquals(PaymentSettings.DEMO_WEBHOOK_SECRET, production.checkout().payments().webhookSecret());
        assertEquals(AdmissionSettings.DEMO_ROOM_SECRET, production.admission().passSecret());
    }
}
