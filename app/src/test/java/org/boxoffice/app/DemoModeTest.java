package org.boxoffice.app;

import org.boxoffice.app.auth.AuthSettings;
import org.boxoffice.app.ops.OpsSettings;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.boxoffice.app.TestApp.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Demo mode and production mode as {@code Main} reads them from the shipped configuration: the demo
 * starts out of the box on loopback with dev tokens that carry no roles; outside demo mode the
 * service refuses to start with any missing, public or short secret, naming each setting.
 */
@ServerTest
class DemoModeTest {

    private static final String STRONG = "an-operators-own-secret-of-more-than-32-bytes-";
    private static TestApp app;
    private final TestApp.Http http;

    DemoModeTest(URI uri) {
        this.http = TestApp.Http.on(uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server, s -> s.withAuth(new AuthSettings(TestApp.SECRET, null, null, true, false)));
    }

    /** The shipped application.yaml with {@code overrides} on top (no environment, no system properties). */
    private static AppSettings settings(Map<String, String> overrides) {
        return AppSettings.from(Config.just(ConfigSources.create(overrides), ConfigSources.classpath("application.yaml")));
    }

    private static Map<String, String> production() {
        Map<String, String> m = new HashMap<>();
        m.put("boxoffice.auth.devtokens", "false");
        m.put("boxoffice.demo.seed", "false");
        m.put("boxoffice.mail.host", "smtp.internal.example");
        m.put("boxoffice.mail.weburl", "https://tickets.example");
        m.put("boxoffice.sms.provider", "off");
        return m;
    }

    private static Map<String, String> strongSecrets(Map<String, String> m) {
        m.put("boxoffice.auth.secret", STRONG + "auth");
        m.put("boxoffice.room.secret", STRONG + "room");
        m.put("boxoffice.challenge.secret", STRONG + "challenge");
        m.put("boxoffice.tickets.secret", STRONG + "tickets");
        m.put("boxoffice.payments.webhooksecret", STRONG + "webhook");
        return m;
    }

    @Test
    void outsideDemoMode_mailThatWouldOnlyBeLogged_orSimulatedSms_refuseToStart_unlessTurnedOff() {
        Map<String, String> m = strongSecrets(production());
        m.remove("boxoffice.mail.host");
        m.remove("boxoffice.sms.provider");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> settings(m));
        assertTrue(e.getMessage().contains("boxoffice.mail.host is not set"), e.getMessage());
        assertTrue(e.getMessage().contains("BOXOFFICE_MAIL_ENABLED=false"), e.getMessage());
        assertTrue(e.getMessage().contains("boxoffice.sms.provider is simulator"), e.getMessage());
        assertTrue(e.getMessage().contains("BOXOFFICE_SMS_PROVIDER=off"), e.getMessage());

        m.put("boxoffice.mail.enabled", "false");
        m.put("boxoffice.sms.provider", "off");
        AppSettings off = settings(m);
        assertFalse(off.checkout().mail().enabled());
        assertTrue(off.notices().sms().off());

        m.put("boxoffice.mail.enabled", "true");
        m.put("boxoffice.mail.host", "smtp.internal.example");
        assertEquals(java.util.List.of(), settings(m).channelProblems(), "a real SMTP host is a real channel");
    }

    @Test
    void outsideDemoMode_aChannelThatSends_needsTheWebAppsPublicAddress_forItsLinks() {
        Map<String, String> m = strongSecrets(production());
        m.remove("boxoffice.mail.weburl");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> settings(m));
        assertTrue(e.getMessage().contains("boxoffice.mail.weburl is not set"), e.getMessage());
        assertTrue(e.getMessage().contains("BOXOFFICE_MAIL_WEBURL"), e.getMessage());

        m.put("boxoffice.mail.enabled", "false");
        assertEquals(java.util.List.of(), settings(m).channelProblems(), "nothing sent, no link to get right");

        m.put("boxoffice.mail.enabled", "true");
        m.put("boxoffice.mail.weburl", "https://tickets.example");
        assertEquals("https://tickets.example/#/booking/7", settings(m).checkout().mail().ticketsLink(7));
    }

    @Test
    void inDemoMode_theLoggingMailAndTheSimulatedSms_areTheDefaults_andStart() {
        AppSettings demo = settings(Map.of());
        assertTrue(demo.checkout().mail().enabled() && demo.checkout().mail().logOnly());
        assertTrue(demo.notices().sms().simulated());
        assertEquals(2, demo.channelProblems().size(), "what production would refuse, the demo runs with");
    }

    @Test
    void theShippedConfiguration_isDemoMode_andStarts() {
        AppSettings demo = settings(Map.of());
        assertTrue(demo.demoMode());
        assertFalse(demo.auth().devRoles(), "dev tokens carry no roles unless asked for");
        assertFalse(demo.secretProblems().isEmpty(), "the shipped secrets are the public demo values");
    }

    @Test
    void aNegativeChallengeBudget_refusesToStart_namingTheSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("boxoffice.challenge.issuepersecond", "-5")));
        assertTrue(e.getMessage().contains("boxoffice.challenge.issuepersecond"), e.getMessage());
        assertEquals(0, settings(Map.of()).admission().door().issuePerSecond(), "off by default");
        assertEquals(200, settings(Map.of("boxoffice.challenge.issuepersecond", "200")).admission().door().issuePerSecond());
    }

    @Test
    void outsideDemoMode_theDemoSecrets_refuseToStart_namingEverySettingToChange() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> settings(production()));
        for (String key : new String[] {"boxoffice.auth.secret", "boxoffice.room.secret", "boxoffice.challenge.secret",
                "boxoffice.tickets.secret", "boxoffice.payments.webhooksecret"}) {
            assertTrue(e.getMessage().contains(key + " is the public demo value"), e.getMessage());
        }
        assertTrue(e.getMessage().contains("BOXOFFICE_TICKETS_SECRET"), e.getMessage());
    }

    @Test
    void outsideDemoMode_aShortOrMissingSecret_refusesToStart() {
        Map<String, String> m = production();
        m.put("boxoffice.auth.secret", STRONG + "auth");
        m.put("boxoffice.room.secret", STRONG + "room");
        m.put("boxoffice.challenge.secret", STRONG + "challenge");
        m.put("boxoffice.tickets.secret", "only-twenty-bytes-xx");
        m.put("boxoffice.payments.webhooksecret", STRONG + "webhook");
        IllegalStateException shortOne = assertThrows(IllegalStateException.class, () -> settings(m));
        assertTrue(shortOne.getMessage().contains("boxoffice.tickets.secret is shorter than 32 bytes"), shortOne.getMessage());
        assertFalse(shortOne.getMessage().contains("boxoffice.auth.secret"), shortOne.getMessage());

        m.put("boxoffice.tickets.secret", STRONG + "tickets");
        m.put("boxoffice.auth.secret", "");
        IllegalStateException missing = assertThrows(IllegalStateException.class, () -> settings(m));
        assertTrue(missing.getMessage().contains("boxoffice.auth.secret is not set"), missing.getMessage());
    }

    @Test
    void outsideDemoMode_aShortChallengeSecret_refusesToStart() {
        Map<String, String> m = production();
        m.put("boxoffice.auth.secret", STRONG + "auth");
        m.put("boxoffice.room.secret", STRONG + "room");
        m.put("boxoffice.challenge.secret", "short-challenge-key");
        m.put("boxoffice.tickets.secret", STRONG + "tickets");
        m.put("boxoffice.payments.webhooksecret", STRONG + "webhook");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> settings(m));
        assertTrue(e.getMessage().contains("boxoffice.challenge.secret is shorter than 32 bytes (BOXOFFICE_CHALLENGE_SECRET)"),
                e.getMessage());
    }

    @Test
    void outsideDemoMode_strongSecretsOfTheOperatorsOwn_start() {
        Map<String, String> m = production();
        m.put("boxoffice.auth.secret", STRONG + "auth");
        m.put("boxoffice.room.secret", STRONG + "room");
        m.put("boxoffice.challenge.secret", STRONG + "challenge");
        m.put("boxoffice.tickets.secret", STRONG + "tickets");
        m.put("boxoffice.payments.webhooksecret", STRONG + "webhook");
        AppSettings prod = settings(m);
        assertFalse(prod.demoMode());
        assertEquals(java.util.List.of(), prod.secretProblems());

        m.put("boxoffice.auth.devroles", "true");
        assertThrows(IllegalStateException.class, () -> settings(m), "dev roles are a demo setting");
    }

    @Test
    void outsideDemoMode_theHttpSmsProvider_refusesToStart_withTheDemoKeyOrNone() {
        Map<String, String> m = production();
        m.put("boxoffice.auth.secret", STRONG + "auth");
        m.put("boxoffice.room.secret", STRONG + "room");
        m.put("boxoffice.challenge.secret", STRONG + "challenge");
        m.put("boxoffice.tickets.secret", STRONG + "tickets");
        m.put("boxoffice.payments.webhooksecret", STRONG + "webhook");
        m.put("boxoffice.sms.provider", "http");
        m.put("boxoffice.sms.http.url", "http://127.0.0.1:9/sms");
        IllegalStateException demoKey = assertThrows(IllegalStateException.class, () -> settings(m));
        assertTrue(demoKey.getMessage().contains("boxoffice.sms.http.apikey is the public demo value"), demoKey.getMessage());
        assertTrue(demoKey.getMessage().contains("BOXOFFICE_SMS_HTTP_APIKEY"), demoKey.getMessage());

        m.put("boxoffice.sms.http.apikey", " ");
        IllegalStateException none = assertThrows(IllegalStateException.class, () -> settings(m));
        assertTrue(none.getMessage().contains("boxoffice.sms.http.apikey is not set"), none.getMessage());

        m.put("boxoffice.sms.http.apikey", "sk_live_providers_own");
        assertEquals(java.util.List.of(), settings(m).secretProblems(), "a provider's key is as long as the provider makes it");
        m.put("boxoffice.sms.provider", "off");
        m.remove("boxoffice.sms.http.apikey");
        assertEquals(java.util.List.of(), settings(m).secretProblems(), "SMS turned off needs no key");

        Map<String, String> demo = new HashMap<>();
        demo.put("boxoffice.sms.provider", "http");
        demo.put("boxoffice.sms.http.url", "http://127.0.0.1:9/sms");
        assertTrue(settings(demo).demoMode(), "the demo may try a provider with the demo key");
    }

    @Test
    void aDevToken_carriesNoRole_unlessTheDemoAllowsIt() {
        assertError(http.post("/v1/dev/tokens", null, "{\"accountId\":\"mallory\",\"roles\":[\"admin\"]}"), 403, "FORBIDDEN");
        assertError(http.post("/v1/dev/tokens", null, "{\"accountId\":\"mallory\",\"roles\":[\"staff\"]}"), 403, "FORBIDDEN");
        TestApp.Http.Reply plain = http.post("/v1/dev/tokens", null, "{\"accountId\":\"mallory\"}");
        assertEquals(201, plain.status(), plain.body());
        String token = plain.json().get("token").asText();
        assertTrue(plain.json().get("roles").isEmpty());
        assertEquals(403, http.post("/v1/admin/shows", token, "{}").status(), "a plain dev token is no admin");
    }

    @Test
    void theRehearsal_lasts20SecondsAtMostByDefault_andNonsenseIsRefusedAtStart() {
        assertEquals(Duration.ofSeconds(20), settings(Map.of()).ops().rehearsal());
        assertFalse(settings(Map.of("boxoffice.rehearsal.seconds", "0")).ops().rehearses(), "0: no rehearsal");
        assertEquals(Duration.ofSeconds(45), settings(Map.of("boxoffice.rehearsal.seconds", " 45 ")).ops().rehearsal());
        assertEquals(Duration.ofSeconds(OpsSettings.MAX_REHEARSAL_SECONDS),
                settings(Map.of("boxoffice.rehearsal.seconds", "300")).ops().rehearsal());
        for (String bad : new String[]{"-1", "ten", "1.5", "301", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> settings(Map.of("boxoffice.rehearsal.seconds", bad)), bad);
            assertEquals("boxoffice.rehearsal.seconds is a whole number of seconds from 0 (no rehearsal) to 300; not '"
                    + bad + "'", e.getMessage());
        }
    }

    @Test
    void twoDemoRunsWithTheirOwnDataFolders_areTwoClusters_andAConfiguredNameWins() {
        String one = settings(Map.of("boxoffice.data.dir", "/tmp/boxoffice-a")).grid().clusterName();
        String two = settings(Map.of("boxoffice.data.dir", "/tmp/boxoffice-b")).grid().clusterName();
        assertTrue(one.startsWith("boxoffice-demo-"), one);
        assertFalse(one.equals(two), "two data folders, two clusters: " + one);
        assertEquals(one, settings(Map.of("boxoffice.data.dir", "/tmp/./boxoffice-a")).grid().clusterName(),
                "one folder, however written: one cluster");
        assertEquals("shop", settings(Map.of("boxoffice.data.dir", "/tmp/boxoffice-a", "boxoffice.grid.cluster", "shop"))
                .grid().clusterName());
        assertEquals("boxoffice", settings(Map.of("boxoffice.db.url", "jdbc:postgresql://db.internal/boxoffice"))
                .grid().clusterName(), "an external database: the shared default, the referee check guards it");
    }
}
