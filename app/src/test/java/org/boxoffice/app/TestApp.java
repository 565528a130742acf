package org.boxoffice.app;

import org.boxoffice.app.admission.AdmissionSettings;
import org.boxoffice.app.admission.DoorSettings;
import org.boxoffice.app.auth.AuthSettings;
import org.boxoffice.app.catalog.HoldDefaults;

import com.zaxxer.hikari.HikariDataSource;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import org.boxoffice.app.checkout.CheckoutSettings;
import org.boxoffice.app.notify.NotifySettings;
import org.boxoffice.app.ops.OpsSettings;
import org.boxoffice.app.payments.SimulatedPaymentGateway;
import org.boxoffice.app.waitlist.WaitlistSettings;
import org.boxoffice.grid.GridSettings;
import org.boxoffice.mapstore.DataSources;
import org.boxoffice.mapstore.DbSettings;
import org.boxoffice.mapstore.TestDatabase;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * A real Boxoffice for tests: a fresh migrated PostgreSQL database (embedded), the demo catalog
 * (seeded by the member, as the service's is), one grid member on loopback with its own cluster name, and the production wiring.
 */
public final class TestApp implements AutoCloseable {

    public static final String SECRET = "test-secret-for-boxoffice-tests-0123456789";

    public final DbSettings db;
    public final HikariDataSource dataSource;
    public final AppSettings settings;
    public final Boxoffice app;

    private TestApp(DbSettings db, HikariDataSource dataSource, AppSettings settings, Boxoffice app) {
        this.db = db;
        this.dataSource = dataSource;
        this.settings = settings;
        this.app = app;
    }

    /** The simulated payment provider the member runs (the tests' checkout settings name it). */
    public SimulatedPaymentGateway simulator() {
        return (SimulatedPaymentGateway) app.checkout().provider();
    }

    /** A new database with the demo catalog, and a member on it. */
    public static TestApp start() {
        return start(s -> s);
    }

    /** Like {@link #start()}, with settings adjusted by {@code tweak}. */
    public static TestApp start(UnaryOperator<AppSettings> tweak) {
        return start(tweak, System::currentTimeMillis);
    }

    /** Like {@link #start(java.util.function.UnaryOperator)}, on {@code clock} (epoch milliseconds). */
    public static TestApp start(UnaryOperator<AppSettings> tweak, LongSupplier clock) {
        DbSettings db = TestDatabase.newSettings(24);
        HikariDataSource ds = DataSources.pooled(db);
        AppSettings settings = tweak.apply(settings(db, "test-" + UUID.randomUUID()));
        return new TestApp(db, ds, settings, Boxoffice.start(settings, ds, clock));
    }

    /**
     * For a {@code @ServerTest}'s {@code @SetUpServer}: a new {@link #start() TestApp} behind the test's
     * server, through the production routing. The member and its database close when the server stops,
     * so the test class needs no {@code @AfterAll} for them.
     */
    public static TestApp serve(WebServerConfig.Builder server) {
        return serve(server, s -> s);
    }

    /** Like {@link #serve(WebServerConfig.Builder)}, with settings adjusted by {@code tweak}. */
    public static TestApp serve(WebServerConfig.Builder server, UnaryOperator<AppSettings> tweak) {
        return serve(server, tweak, System::currentTimeMillis);
    }

    /** Like {@link #serve(WebServerConfig.Builder, UnaryOperator)}, on {@code clock} (epoch milliseconds). */
    public static TestApp serve(WebServerConfig.Builder server, UnaryOperator<AppSettings> tweak, LongSupplier clock) {
        TestApp app = start(tweak, clock);
        server.routing(routing -> {
            app.app.routing(routing);
            routing.register(new HttpService() {
                @Override
                public void routing(HttpRules rules) {
                    // no routes: here only to hear that the server stopped
                }

                @Override
                public void afterStop() {
                    app.close();
                }
            });
        });
        return app;
    }

    /** The system clock, moved forward as far as the test says: give it to {@code start} or {@code serve}. */
    public static final class Clock implements LongSupplier {

        private final AtomicLong ahead = new AtomicLong();

        /** Epoch milliseconds on this clock. */
        public long now() {
            return System.currentTimeMillis() + ahead.get();
        }

        @Override
        public long getAsLong() {
            return now();
        }

        public void advance(Duration by) {
            ahead.addAndGet(by.toMillis());
        }
    }

    /** Another member process-equivalent on the same database (a restart), with a new cluster. */
    public static TestApp restartOn(DbSettings db) {
        return restartOn(db, s -> s);
    }

    /** Like {@link #restartOn(DbSettings)}, with settings adjusted by {@code tweak}. */
    public static TestApp restartOn(DbSettings db, UnaryOperator<AppSettings> tweak) {
        HikariDataSource ds = DataSources.pooled(db);
        AppSettings settings = tweak.apply(settings(db, "test-" + UUID.randomUUID()));
        return new TestApp(db, ds, settings, Boxoffice.start(settings, ds, System::currentTimeMillis));
    }

    /** A second member on the same database that joins {@code first}'s cluster (two members in one JVM). */
    public static TestApp joining(TestApp first) {
        return joining(first, s -> s);
    }

    /** Like {@link #joining(TestApp)}, with settings adjusted by {@code tweak}. */
    public static TestApp joining(TestApp first, UnaryOperator<AppSettings> tweak) {
        return joining(first, tweak, false);
    }

    /** A member joining {@code first}'s cluster that will rehearse first: a lite member until then. */
    public static TestApp joiningToRehearse(TestApp first) {
        return joining(first, s -> s, true);
    }

    private static TestApp joining(TestApp first, UnaryOperator<AppSettings> tweak, boolean rehearse) {
        HikariDataSource ds = DataSources.pooled(first.db);
        GridSettings firstGrid = first.settings.grid();
        AppSettings own = tweak.apply(settings(first.db, firstGrid.clusterName()));
        // the port the first member bound, not the one it was given: a port found taken is passed
        // over for the next (Hazelcast's auto-increment), and a member looking for the first at its
        // given port found nobody and formed a cluster of its own
        int firstPort = first.app.hazelcast().getCluster().getLocalMember().getAddress().getPort();
        GridSettings grid = GridSettings.loopback(firstGrid.clusterName(), own.grid().port(),
                List.of("127.0.0.1:" + firstPort, "127.0.0.1:" + own.grid().port()));
        AppSettings settings = own.withGrid(grid);
        return new TestApp(first.db, ds, settings, rehearse ? Boxoffice.startToRehearse(settings, ds, System::currentTimeMillis)
                : Boxoffice.start(settings, ds, System::currentTimeMillis));
    }

    static AppSettings settings(DbSettings db, String cluster) {
        int port = 20000 + (int) (Math.random() * 20000);
        // the member seeds the demo catalog into a new database, as the service does
        return new AppSettings(new DatabaseSettings(Path.of("target/test-data"), db, 0, db.poolSize(), true),
                GridSettings.loopback(cluster, port, List.of("127.0.0.1:" + port)),
                new InventorySettings(Duration.ofMillis(200), Duration.ofSeconds(1), Duration.ofMillis(100)),
                new HoldDefaults(10, 10, Duration.ofMinutes(7), Duration.ofSeconds(5), 16),
                new AuthSettings(SECRET, null, null, true, true),
                AdmissionSettings.defaults().withPassSecret("test-room-secret-for-boxoffice-tests-0123456789")
                        .withRoom(50, 2, Duration.ofMillis(100)).withHoldLimits(0, 0).withStreamsPerMember(0)
                        .withDoor(DoorSettings.open()),
                CheckoutSettings.defaults(), WaitlistSettings.defaults(), NotifySettings.defaults(),
                new OpsSettings(Duration.ofSeconds(5), Duration.ZERO));
    }

    public String token(String account, String... roles) {
        return app.authenticator().issue(account, Set.of(roles), Duration.ofHours(1));
    }

    /** A token for {@code account}, no roles, whose {@code email} claim is {@code email} (as an identity provider's). */
    public static String tokenWithEmail(String account, String email) {
        try {
            com.nimbusds.jwt.SignedJWT jwt = new com.nimbusds.jwt.SignedJWT(
                    new com.nimbusds.jose.JWSHeader(com.nimbusds.jose.JWSAlgorithm.HS256),
                    new com.nimbusds.jwt.JWTClaimsSet.Builder().subject(account)
                            .expirationTime(new java.util.Date(System.currentTimeMillis() + 3_600_000))
                            .claim("roles", java.util.List.of()).claim("email", email).build());
            jwt.sign(new com.nimbusds.jose.crypto.MACSigner(SECRET.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            return jwt.serialize();
        } catch (com.nimbusds.jose.JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Asserts that every invariant the member checks holds now (no violation of any kind). */
    public void assertInvariantsHold() {
        Map<String, Long> violations = app.invariants().checkNow();
        violations.forEach((kind, count) -> org.junit.jupiter.api.Assertions.assertEquals(0L, count, kind + ": " + violations));
    }

    @Override
    public void close() {
        app.close();
        dataSource.close();
    }

    /** The body as JSON. */
    public static com.fasterxml.jackson.databind.JsonNode json(Http.Reply r) {
        return r.json();
    }

    /** Asserts an error answer: the status, and a JSON body {"error": code, "message": ...}. */
    public static void assertError(Http.Reply r, int status, String code) {
        org.junit.jupiter.api.Assertions.assertEquals(status, r.status(), r.body());
        com.fasterxml.jackson.databind.JsonNode body = r.json();
        org.junit.jupiter.api.Assertions.assertEquals(code, body.path("error").asText(), r.body());
        org.junit.jupiter.api.Assertions.assertTrue(body.hasNonNull("message"), r.body());
    }

    /** A small HTTP client for the tests: JSON in, status and body out. */
    public record Http(URI base, HttpClient client) {

        public static Http on(URI base) {
            return new Http(base, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
        }

        public record Reply(int status, String body, java.net.http.HttpHeaders headers) {

            /** The body as JSON; fails the test if it is not JSON. */
            public com.fasterxml.jackson.databind.JsonNode json() {
                try {
                    return org.boxoffice.app.http.Json.MAPPER.readTree(body);
                } catch (Exception e) {
                    throw new AssertionError("not JSON: " + body);
                }
            }
        }

        public Reply get(String path, String token, String... headers) {
            HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).GET();
            return send(b, token, headers);
        }

        public Reply post(String path, String token, String json, String... headers) {
            HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path))
                    .header("Content-Type", "application/json")
                    .POST(json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
            return send(b, token, headers);
        }

        public Reply put(String path, String token, String json) {
            HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path))
                    .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(json));
            return send(b, token);
        }

        public Reply delete(String path, String token) {
            return send(HttpRequest.newBuilder(base.resolve(path)).DELETE(), token);
        }

        private Reply send(HttpRequest.Builder b, String token, String... headers) {
            if (token != null) {
                b.header("Authorization", "Bearer " + token);
            }
            for (int i = 0; i + 1 < headers.length; i += 2) {
                b.header(headers[i], headers[i + 1]);
            }
            HttpRequest request = b.timeout(Duration.ofSeconds(30)).build();
            Reply reply;
            try {
                HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
                reply = new Reply(r.statusCode(), r.body(), r.headers());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            // every answer a test receives is checked against the OpenAPI document (status and body)
            OpenApiAnswers.verify(request.method(), request.uri().getRawPath(), reply);
            return reply;
        }
    }
}
