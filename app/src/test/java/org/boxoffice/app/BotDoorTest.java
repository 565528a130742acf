package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.helidon.webserver.WebServer;
import org.boxoffice.app.admission.Challenges;
import org.boxoffice.app.admission.DoorSettings;
import org.boxoffice.app.admission.PassTokens;
import org.boxoffice.app.http.Json;
import org.boxoffice.domain.AccountAllowance;
import org.boxoffice.grid.AllowanceKey;
import org.boxoffice.grid.GridMaps;
import org.boxoffice.grid.limits.SpentChallenges;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.boxoffice.app.TestApp.assertError;
import static org.boxoffice.app.TestApp.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The waiting room's door on three real members, each with its own web server: a proof-of-work
 * challenge bound to account and show and good for one join whatever member it reaches, every
 * refusal reason answered and counted, and velocity limits that a client spreading its requests
 * over the members meets exactly as on one.
 */
class BotDoorTest {

    private static final String CHALLENGE_SECRET = "bot-door-test-challenge-secret-0123456789";
    private static final int DOOR_PER_ACCOUNT = 5;
    private static final int DOOR_PER_ADDRESS = 8;
    private static final int HOLDS_PER_ACCOUNT = 4;
    private static final List<TestApp> apps = new ArrayList<>();
    private static final List<WebServer> servers = new ArrayList<>();
    private static final List<TestApp.Http> http = new ArrayList<>();

    private static AppSettings door(AppSettings s) {
        return s.withAdmission(s.admission().withHoldLimits(HOLDS_PER_ACCOUNT, 0).withStreamsPerMember(0)
                .withDoor(new DoorSettings(CHALLENGE_SECRET, 20, 3, Duration.ofMinutes(2), DOOR_PER_ACCOUNT, DOOR_PER_ADDRESS,
                        true, 0)));
    }

    @BeforeAll
    static void start() {
        apps.add(TestApp.start(BotDoorTest::door));
        apps.add(TestApp.joining(apps.get(0), BotDoorTest::door));
        apps.add(TestApp.joining(apps.get(0), BotDoorTest::door));
        for (TestApp app : apps) {
            WebServer server = WebServer.builder().port(0).host("127.0.0.1").routing(app.app::routing)
                    .addFeature(app.app.observe()).build().start();
            servers.add(server);
            http.add(TestApp.Http.on(URI.create("http://127.0.0.1:" + server.port())));
        }
        TestApp.Http.Reply on = http.get(0).put("/v1/admin/shows/fado-1/queue", apps.get(0).token("ops", "admin"),
                "{\"mode\":\"ON\",\"admissionRate\":50,\"challengeDifficulty\":3}");
        assertEquals(200, on.status(), on.body());
        assertEquals(3, json(on).get("challengeDifficulty").asInt());
    }

    @AfterAll
    static void stop() {
        servers.forEach(WebServer::stop);
        for (int i = apps.size() - 1; i >= 0; i--) {
            apps.get(i).close();
        }
    }

    /** A fresh address per test, so the per-address limit of one test does not spill into another. */
    private static String[] from(String address) {
        return new String[] {"X-Forwarded-For", "203.0.113.99, " + address};
    }

    private static String token(String account) {
        return apps.get(0).token(account);
    }

    private static JsonNode challenge(TestApp.Http on, String token, String show, String address) {
        TestApp.Http.Reply r = on.get("/v1/challenge?showId=" + show, token, from(address));
        assertEquals(200, r.status(), r.body());
        assertEquals("private, no-store", r.headers().firstValue("Cache-Control").orElse(""));
        return json(r);
    }

    private static String solved(JsonNode challenge) {
        return payload(challenge, solution(challenge));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> solution(JsonNode challenge) {
        Map<String, Object> parameters = Json.MAPPER.convertValue(challenge.get("parameters"), Map.class);
        Map<String, Object> solution = Challenges.solve(parameters, 1_000);
        assertNotNull(solution, "the challenge has a solution");
        return solution;
    }

    private static String payload(JsonNode challenge, Object solution) {
        ObjectNode p = Json.MAPPER.createObjectNode();
        p.set("challenge", challenge);
        p.set("solution", Json.MAPPER.valueToTree(solution));
        return Base64.getEncoder().encodeToString(Json.write(p).getBytes(StandardCharsets.UTF_8));
    }

    private static TestApp.Http.Reply join(TestApp.Http on, String token, String show, String address, String solution) {
        List<String> headers = new ArrayList<>(List.of(from(address)));
        if (solution != null) {
            headers.addAll(List.of("Challenge-Solution", solution));
        }
        return on.post("/v1/shows/" + show + "/queue", token, null, headers.toArray(String[]::new));
    }

    private static long refusals(String reason, String show) {
        String text = http.get(0).get("/observe/metrics", null, "Accept", "text/plain").body();
        return text.lines().filter(l -> l.startsWith("boxoffice_bot_refusals_total{") && l.contains("reason=\"" + reason + "\"")
                        && l.contains("show=\"" + show + "\""))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    @Test
    void aSolvedChallenge_letsTheFanJoin_once_whateverMemberTheReplayReaches() {
        assertEquals(3, apps.get(0).app.hazelcast().getCluster().getMembers().size(), "one cluster of three");
        String ann = token("ann");
        JsonNode c = challenge(http.get(0), ann, "fado-1", "198.51.100.1");
        JsonNode params = c.get("parameters");
        assertEquals("PBKDF2/SHA-256", params.get("algorithm").asText());
        assertEquals("ann", params.get("data").get("account").asText());
        assertEquals("fado-1", params.get("data").get("show").asText());
        String solution = solved(c);
        long replayed = refusals("challenge_replayed", "fado-1");

        TestApp.Http.Reply joined = join(http.get(1), ann, "fado-1", "198.51.100.1", solution);
        assertEquals(200, joined.status(), joined.body());
        assertTrue(json(joined).has("queueToken"));
        assertError(join(http.get(2), ann, "fado-1", "198.51.100.1", solution), 403, "CHALLENGE_REPLAYED");
        assertError(join(http.get(1), ann, "fado-1", "198.51.100.1", solution), 403, "CHALLENGE_REPLAYED");
        assertEquals(replayed + 2, refusals("challenge_replayed", "fado-1"));
    }

    @Test
    void everyRefusalAtTheDoor_isAnsweredAndCountedByReason() {
        String bea = token("bea");
        String address = "198.51.100.2";
        long missing = refusals("challenge_missing", "fado-1");
        long invalid = refusals("challenge_invalid", "fado-1");
        long expired = refusals("challenge_expired", "fado-1");

        assertError(join(http.get(0), bea, "fado-1", address, null), 403, "CHALLENGE_REQUIRED");
        // someone else's solved challenge: bound to the account
        String carls = solved(challenge(http.get(1), token("carl"), "fado-1", address));
        assertError(join(http.get(2), bea, "fado-1", address, carls), 403, "CHALLENGE_INVALID");
        // a challenge for another show
        assertEquals(200, http.get(0).put("/v1/admin/shows/jazz-1/queue", apps.get(0).token("ops", "admin"),
                "{\"mode\":\"ON\",\"challengeDifficulty\":2}").status());
        String jazz = solved(challenge(http.get(0), token("dora"), "jazz-1", "198.51.100.3"));
        assertError(join(http.get(0), token("dora"), "fado-1", "198.51.100.3", jazz), 403, "CHALLENGE_INVALID");
        // a wrong key, a made-up solution, a challenge made easier, garbage
        JsonNode own = challenge(http.get(0), token("eve"), "fado-1", "198.51.100.4");
        assertError(join(http.get(0), token("eve"), "fado-1", "198.51.100.4",
                payload(own, Map.of("counter", 0, "derivedKey", "00".repeat(32)))), 403, "CHALLENGE_INVALID");
        ObjectNode easier = own.deepCopy();
        ((ObjectNode) easier.get("parameters")).put("cost", 1);
        assertError(join(http.get(1), token("eve"), "fado-1", "198.51.100.4", payload(easier, solution(own))), 403,
                "CHALLENGE_INVALID");
        assertError(join(http.get(1), token("eve"), "fado-1", "198.51.100.4", "not base64 at all!"), 403, "CHALLENGE_INVALID");
        assertError(join(http.get(1), token("eve"), "fado-1", "198.51.100.4", Base64.getEncoder().encodeToString(
                "{\"challenge\":[]}".getBytes(StandardCharsets.UTF_8))), 403, "CHALLENGE_INVALID");
        // a challenge signed with this secret an hour ago
        Challenges past = new Challenges(CHALLENGE_SECRET, 20, 60_000, new SpentChallenges(apps.get(0).app.hazelcast()),
                () -> System.currentTimeMillis() - 3_600_000);
        JsonNode old = Json.MAPPER.valueToTree(past.issue("fay", "fado-1", 2));
        assertError(join(http.get(2), token("fay"), "fado-1", "198.51.100.5", solved(old)), 403, "CHALLENGE_EXPIRED");

        assertEquals(missing + 1, refusals("challenge_missing", "fado-1"));
        assertEquals(invalid + 6, refusals("challenge_invalid", "fado-1"));
        assertEquals(expired + 1, refusals("challenge_expired", "fado-1"));
        // and the solutions that were refused for another account or show were not spent: their owners join
        assertEquals(200, join(http.get(0), token("carl"), "fado-1", address, carls).status());
    }

    @Test
    void theDoorsLimits_holdAcrossThreeMembers_exactlyAsOnOne() {
        String gus = token("gus");
        int ok = 0;
        TestApp.Http.Reply last = null;
        for (int i = 0; i < 3 * DOOR_PER_ACCOUNT; i++) {
            TestApp.Http.Reply r = http.get(i % 3).get("/v1/challenge?showId=fado-1", gus, from("198.51.100." + (10 + i)));
            if (r.status() == 200) {
                ok++;
            } else {
                last = r;
            }
        }
        assertEquals(DOOR_PER_ACCOUNT, ok, "one account: the limit of one member, though spread over three");
        assertError(last, 429, "RATE_LIMITED");
        assertTrue(Long.parseLong(last.headers().firstValue("Retry-After").orElse("0")) >= 1);

        ok = 0;
        for (int i = 0; i < 3 * DOOR_PER_ADDRESS; i++) {
            // a scripted client: a new account each time, one address, round robin over the members
            if (http.get(i % 3).get("/v1/challenge?showId=fado-1", token("bot-" + i), from("192.0.2.7")).status() == 200) {
                ok++;
            }
        }
        assertEquals(DOOR_PER_ADDRESS, ok, "one address: the limit of one member");
    }

    @Test
    void theHoldLimitPerAccount_holdsAcrossThreeMembers() {
        String hal = token("hal");
        long limited = refusals("rate_limited", "comedy-2");
        int answered = 0;
        for (int i = 0; i < 3 * HOLDS_PER_ACCOUNT; i++) {
            int status = http.get(i % 3).post("/v1/shows/comedy-2/holds", hal, "{\"seatIds\":[\"NO-SUCH-SEAT\"]}").status();
            if (status != 429) {
                answered++;
            }
        }
        assertEquals(HOLDS_PER_ACCOUNT, answered);
        assertEquals(limited + 2 * HOLDS_PER_ACCOUNT, refusals("rate_limited", "comedy-2"));
    }

    @Test
    void aHoldOverTheAccountsLimit_claimsNothing_andGivesItsReservationBack() {
        String mo = token("mo");
        long firstToken = System.nanoTime();
        for (int i = 1; i <= HOLDS_PER_ACCOUNT; i++) {
            TestApp.Http.Reply r = http.get(i % 3).post("/v1/shows/echoes-berlin-1/holds", mo, "{\"seatIds\":[\"W-7-" + i + "\"]}");
            assertEquals(201, r.status(), r.body());
            assertEquals(204, http.get(0).delete("/v1/holds/" + json(r).get("holdId").asText(), mo).status());
        }
        // the bucket is empty: a member asks for the token while the allowance is reserved (and gives
        // the reservation back when refused), or, having seen the account refused, waits for it first
        long refill = java.util.concurrent.TimeUnit.MINUTES.toNanos(1) / HOLDS_PER_ACCOUNT;
        int refused = 0;
        for (int i = 0; i < 6; i++) {
            long sent = System.nanoTime();
            TestApp.Http.Reply r = http.get(i % 3).post("/v1/shows/echoes-berlin-1/holds", mo, "{\"seatIds\":[\"W-7-20\"]}");
            if (r.status() == 201 && sent - firstToken >= refill) {
                // a slow machine: the bucket has refilled a token since the first hold, and this hold had it
                assertEquals(204, http.get(0).delete("/v1/holds/" + json(r).get("holdId").asText(), mo).status());
                continue;
            }
            assertError(r, 429, "RATE_LIMITED");
            refused++;
        }
        assertTrue(refused > 0, "the account's holds over its limit were refused");
        AccountAllowance left = apps.get(0).app.hazelcast().<AllowanceKey, AccountAllowance>getMap(GridMaps.ALLOWANCES)
                .get(new AllowanceKey("echoes-berlin-1", "mo"));
        assertTrue(left == null || left.holds().isEmpty(), "every reservation was given back: " + left);
        assertEquals(201, http.get(1).post("/v1/shows/echoes-berlin-1/holds", token("ned"),
                "{\"seatIds\":[\"W-7-20\"]}").status(), "the refused holds claimed nothing");
    }

    @Test
    void holdsTheSeatMapRefuses_takeNoToken_fromTheAccountsBucket() {
        assertEquals(201, http.get(0).post("/v1/shows/echoes-berlin-1/holds", token("kai"),
                "{\"seatIds\":[\"A-1-1\"]}").status());
        String lou = token("lou");
        for (int i = 0; i < 3 * HOLDS_PER_ACCOUNT; i++) {
            TestApp.Http.Reply r = http.get(0).post("/v1/shows/echoes-berlin-1/holds", lou, "{\"seatIds\":[\"A-1-1\"]}");
            assertError(r, 409, "SEATS_UNAVAILABLE");
        }
        assertEquals(201, http.get(1).post("/v1/shows/echoes-berlin-1/holds", lou, "{\"seatIds\":[\"A-1-9\"]}").status(),
                "refusals from the seat map cost the account nothing");
    }

    @Test
    void passRefusals_areCountedByReason() {
        assertEquals(200, http.get(0).put("/v1/admin/shows/mahler-5-1/queue", apps.get(0).token("ops", "admin"),
                "{\"mode\":\"ON\",\"challengeDifficulty\":0}").status());
        String show = "mahler-5-1";
        String hold = "{\"seatIds\":[\"STALLS-2-2\"]}";
        PassTokens passes = new PassTokens("test-room-secret-for-boxoffice-tests-0123456789", System::currentTimeMillis);
        long now = System.currentTimeMillis();
        Map<String, Long> before = new java.util.HashMap<>();
        for (String reason : List.of("pass_missing", "pass_expired", "pass_invalid", "pass_foreign")) {
            before.put(reason, refusals(reason, show));
        }
        assertError(http.get(0).post("/v1/shows/" + show + "/holds", token("ida"), hold), 403, "PASS_REQUIRED");
        assertError(http.get(1).post("/v1/shows/" + show + "/holds", token("ida"), hold, "Queue-Pass",
                passes.pass("ida", show, 1, now - 3_600_000, 60_000)), 403, "PASS_REQUIRED");
        assertError(http.get(2).post("/v1/shows/" + show + "/holds", token("ida"), hold, "Queue-Pass",
                new PassTokens("someone-elses-room-secret-0123456789-abcdef", System::currentTimeMillis)
                        .pass("ida", show, 1, now, 60_000)), 403, "PASS_INVALID");
        assertError(http.get(0).post("/v1/shows/" + show + "/holds", token("ida"), hold, "Queue-Pass",
                passes.pass("jon", show, 1, now, 60_000)), 403, "PASS_INVALID");
        for (String reason : List.of("pass_missing", "pass_expired", "pass_invalid", "pass_foreign")) {
            assertEquals(before.get(reason) + 1, refusals(reason, show), reason);
        }
    }

    @Test
    void aRoomAskingNoChallenge_letsFansJoinWithout_andBadQuestionsAre4xx() {
        assertEquals(200, http.get(0).put("/v1/admin/shows/comedy-2/queue", apps.get(0).token("ops", "admin"),
                "{\"mode\":\"ON\",\"challengeDifficulty\":0}").status());
        String kim = token("kim");
        assertError(http.get(1).get("/v1/challenge?showId=comedy-2", kim), 409, "CHALLENGE_NOT_REQUIRED");
        assertEquals(200, join(http.get(2), kim, "comedy-2", "198.51.100.40", null).status());
        assertEquals(0, json(http.get(0).get("/v1/shows/comedy-2/queue/summary", null)).get("challengeDifficulty").asInt());
        assertEquals(200, http.get(0).put("/v1/admin/shows/comedy-2/queue", apps.get(0).token("ops", "admin"),
                "{\"mode\":\"OFF\"}").status());

        assertError(http.get(0).get("/v1/challenge", kim), 400, "BAD_REQUEST");
        assertError(http.get(0).get("/v1/challenge?showId=no-such-show", kim), 404, "NOT_FOUND");
        assertEquals(401, http.get(0).get("/v1/challenge?showId=fado-1", null).status());
        for (String bad : List.of("-1", "1.5", "\"hard\"", "100001")) {
            assertError(http.get(0).put("/v1/admin/shows/fado-1/queue", apps.get(0).token("ops", "admin"),
                    "{\"mode\":\"ON\",\"challengeDifficulty\":" + bad + "}"), 400, "BAD_REQUEST");
        }
    }
}
