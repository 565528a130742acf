package org.boxoffice.app;

import io.helidon.webserver.WebServer;
import org.boxoffice.app.admission.DoorSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.boxoffice.app.TestApp.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A member issues at most {@code boxoffice.challenge.issuepersecond} challenges a second, whoever
 * asks: a flood from many accounts and addresses, each within its own limits, cannot take the
 * cores the sale needs (issuing one costs a key derivation).
 */
class ChallengeBudgetTest {

    private static final int PER_SECOND = 3;

    private static TestApp app;
    private static WebServer server;
    private static TestApp.Http http;

    private static AppSettings budget(AppSettings s) {
        return s.withAdmission(s.admission().withHoldLimits(0, 0).withStreamsPerMember(0).withDoor(new DoorSettings(
                "challenge-budget-test-secret-0123456789abc", 20, 3, Duration.ofMinutes(2), 0, 0, false, PER_SECOND)));
    }

    @BeforeAll
    static void start() {
        app = TestApp.start(ChallengeBudgetTest::budget);
        server = WebServer.builder().port(0).host("127.0.0.1").routing(app.app::routing)
                .addFeature(app.app.observe()).build().start();
        http = TestApp.Http.on(URI.create("http://127.0.0.1:" + server.port()));
        TestApp.Http.Reply on = http.put("/v1/admin/shows/fado-1/queue", app.token("ops", "admin"),
                "{\"mode\":\"ON\",\"admissionRate\":50,\"challengeDifficulty\":3}");
        assertEquals(200, on.status(), on.body());
    }

    @AfterAll
    static void stop() {
        server.stop();
        app.close();
    }

    @Test
    void twentyAccountsAskingAtOnce_getTheMembersBudget_andTheRestAreToldToAskAgain() throws Exception {
        int askers = 20;
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < askers; i++) {
            tokens.add(app.token("flood-" + i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(askers);
        List<TestApp.Http.Reply> replies = new ArrayList<>();
        try {
            CyclicBarrier together = new CyclicBarrier(askers);
            List<Future<TestApp.Http.Reply>> asked = new ArrayList<>();
            for (int i = 0; i < askers; i++) {
                String token = tokens.get(i);
                String address = "198.51.100." + (i + 1);
                Callable<TestApp.Http.Reply> ask = () -> {
                    together.await();
                    return http.get("/v1/challenge?showId=fado-1", token, "X-Forwarded-For", address);
                };
                asked.add(pool.submit(ask));
            }
            for (Future<TestApp.Http.Reply> f : asked) {
                replies.add(f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        long issued = replies.stream().filter(r -> r.status() == 200).count();
        // the bucket starts full (one second's worth) and refills while the requests arrive
        assertTrue(issued >= PER_SECOND && issued <= PER_SECOND + 1, "issued " + issued + " of " + askers);
        for (TestApp.Http.Reply r : replies) {
            if (r.status() != 200) {
                assertError(r, 429, "RATE_LIMITED");
                assertEquals("1", r.headers().firstValue("Retry-After").orElse(""), r.body());
            }
        }

        Thread.sleep(1_100);
        TestApp.Http.Reply later = http.get("/v1/challenge?showId=fado-1", tokens.get(0), "X-Forwarded-For", "198.51.100.1");
        assertEquals(200, later.status(), "a second later the budget has refilled: " + later.body());
    }
}
