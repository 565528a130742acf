package org.boxoffice.app;

import com.zaxxer.hikari.HikariDataSource;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.admission.AdmissionSettings;
import org.boxoffice.app.admission.DoorSettings;
import org.boxoffice.app.admission.PassTokens;
import org.boxoffice.app.auth.AuthSettings;
import org.boxoffice.app.auth.Authenticator;
import org.boxoffice.app.checkout.CheckoutSettings;
import org.boxoffice.app.payments.PaymentSettings;
import org.boxoffice.app.payments.WebhookSignature;
import org.boxoffice.app.secrets.SecretSetting;
import org.boxoffice.mapstore.DataSources;
import org.boxoffice.mapstore.DbSettings;
import org.boxoffice.mapstore.DemoSecrets;
import org.boxoffice.mapstore.TestDatabase;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

import static org.boxoffice.app.TestApp.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A demo signs with secrets of its own, made on its first start and kept in its database, never
 * with the public values of the shipped configuration: a token, pass, ticket code or webhook forged
 * with those is refused, while the demo's own dev tokens work as before.
 */
@ServerTest
class DemoSecretsTest {

    private static TestApp app;
    private final TestApp.Http http;

    DemoSecretsTest(URI uri) {
        this.http = TestApp.Http.on(uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server, s -> demo(s.database().external()).apply(s));
    }

    /** The shipped demo's secrets and switches, as {@code Main} sets them after migrating the database at {@code db}. */
    private static UnaryOperator<AppSettings> demo(DbSettings db) {
        return s -> {
            AppSettings shipped = AppSettings.from(Config.just(ConfigSources.create(Map.of()),
                    ConfigSources.classpath("application.yaml")));
            AppSettings demo = s.withAuth(shipped.auth()).withAdmission(shipped.admission())
                    .withCheckout(s.checkout().withTicketSecret(shipped.checkout().ticketSecret())
                    .withPayments(s.checkout().payments().withWebhookSecret(shipped.checkout().payments().webhookSecret())));
            try (HikariDataSource ds = DataSources.pooled(db)) {
                return demo.withDemoSecrets(new DemoSecrets(ds)::secret);
            }
        };
    }

    @Test
    void theDemosSecrets_areItsOwn_theSameForEveryMemberOfItsDatabase_andNewForAnotherDatabase() {
        AppSettings mine = app.settings;
        List<String> secrets = List.of(mine.auth().hmacSecret(), mine.admission().passSecret(),
                mine.admission().door().challengeSecret(), mine.checkout().ticketSecret(),
                mine.checkout().payments().webhookSecret());
        List<String> publicOnes = List.of(AuthSettings.DEMO_AUTH_SECRET, AdmissionSettings.DEMO_ROOM_SECRET,
                DoorSettings.DEMO_CHALLENGE_SECRET, CheckoutSettings.DEMO_TICKET_SECRET, PaymentSettings.DEMO_WEBHOOK_SECRET);
        for (int i = 0; i < secrets.size(); i++) {
            assertNotEquals(publicOnes.get(i), secrets.get(i));
            assertTrue(secrets.get(i).getBytes(StandardCharsets.UTF_8).length >= SecretSetting.MIN_BYTES);
        }
        assertEquals(5, Set.copyOf(secrets).size(), "one secret per setting");
        assertTrue(mine.withDemoSecrets(name -> "x").equals(mine), "nothing left at a public value");

        AppSettings second = demo(app.db).apply(TestApp.settings(app.db, "another-member"));
        assertEquals(mine.auth().hmacSecret(), second.auth().hmacSecret(), "a second member (or a restart) reads the same");
        assertEquals(mine.checkout().ticketSecret(), second.checkout().ticketSecret());
        DbSettings otherDb = TestDatabase.newSettings(2);
        AppSettings other = demo(otherDb).apply(TestApp.settings(otherDb, "another-demo"));
        assertNotEquals(mine.auth().hmacSecret(), other.auth().hmacSecret(), "another demo has its own");
    }

    @Test
    void tokensPassesAndWebhooks_forgedWithThePublicValues_areRefused() {
        String forgedAdmin = new Authenticator(new AuthSettings(AuthSettings.DEMO_AUTH_SECRET, null, null, true, true),
                System::currentTimeMillis).issue("mallory", Set.of("admin", "staff"), Duration.ofHours(1));
        assertError(http.get("/v1/admin/shows/comedy-2/seats/STALLS-7-7/history", forgedAdmin), 401, "UNAUTHORIZED");
        assertError(http.get("/v1/accounts/me/bookings", forgedAdmin), 401, "UNAUTHORIZED");

        String devToken = TestApp.json(http.post("/v1/dev/tokens", null, "{\"accountId\":\"alice\"}")).get("token").asText();
        assertEquals(200, http.get("/v1/accounts/me/bookings", devToken).status(), "the demo's own tokens work");

        String body = "{\"id\":\"evt_forged\",\"type\":\"charge.captured\",\"created\":1,\"data\":{\"chargeId\":\"ch_1\","
                + "\"idempotencyKey\":\"bx-H1-1\",\"amount\":100,\"currency\":\"EUR\"}}";
        assertError(http.post("/v1/payments/webhook", null, body, WebhookSignature.HEADER,
                new WebhookSignature(PaymentSettings.DEMO_WEBHOOK_SECRET).sign(body.getBytes(StandardCharsets.UTF_8))),
                401, "INVALID_SIGNATURE");

        String forgedPass = new PassTokens(AdmissionSettings.DEMO_ROOM_SECRET, System::currentTimeMillis)
                .pass("alice", "comedy-2", 1, System.currentTimeMillis(), 600_000);
        PassTokens.Check check = new PassTokens(app.settings.admission().passSecret(), System::currentTimeMillis)
                .verify(forgedPass, "pass");
        assertEquals(PassTokens.Problem.INVALID, check.problem());
    }
}
