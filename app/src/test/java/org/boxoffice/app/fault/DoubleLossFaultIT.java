package org.boxoffice.app.fault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.boxoffice.app.admission.Challenges;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three members (quorum 2, one backup) in a rush: twelve waiting rooms with a challenge at the
 * door, ten fans in each, some admitted. Two members are killed with SIGKILL at once, so every
 * partition whose two copies they held is gone from the grid; two new members replace them, as
 * Kubernetes would. Every fan must still have the place it was told, those admitted before must be
 * admitted again, a late fan must come after all of them, and no spent challenge may be used again.
 */
@Tag("fault")
class DoubleLossFaultIT {

    private static final int SHOWS = Integer.getInteger("doubleLoss.shows", 12);
    private static final int FANS = Integer.getInteger("doubleLoss.fans", 10);
    private static final Duration CALL = Duration.ofSeconds(15);

    private record Fan(String show, String account, String token, String solution, long position, String queueToken) {
    }

    @Test
    void twoOfThreeMembersKilledAtOnce_everyFanKeepsItsPlace_andNoChallengeIsUsedTwice() {
        FaultRig.run("double-loss", 5, 2, this::run);
    }

    private void run(FaultRig rig) {
        long t0 = System.nanoTime();
        rig.memberSetup((index, env, jvm) -> {
            env.put("BOXOFFICE_LIMITS_DOOR_ADDRESS", "0");
            // the replays come after the setup, the loss and two new members: the challenges must still be valid
            env.put("BOXOFFICE_CHALLENGE_SECONDS", "1800");
        });
        rig.startDatabase();
        List<Member> members = rig.startCluster(3);
        Member m1 = members.get(0);
        String admin = rig.adminToken(m1);
        List<String> shows = new ArrayList<>();
        for (int s = 0; s < SHOWS; s++) {
            String show = "double-loss-" + s;
            rig.createShow(m1, show, 1, 2, 10, members);
            Http.Reply on = rig.http.must(() -> rig.http.call("PUT", m1.base, "/v1/admin/shows/" + show + "/queue", admin,
                    "{\"mode\":\"ON\",\"admissionRate\":1,\"challengeDifficulty\":2}", CALL));
            assertEquals(200, on.status(), "room of " + show + ": " + on);
            shows.add(show);
        }

        List<Fan> fans = new ArrayList<>();
        for (String show : shows) {
            for (int f = 0; f < FANS; f++) {
                Member via = members.get((f + fans.size()) % members.size());
                String account = show + "-fan-" + f;
                long a = System.nanoTime();
                String token = rig.token(via, account, false);
                long b = System.nanoTime();
                Http.Reply c = rig.http.must(() -> rig.http.get(via.base, "/v1/challenge?showId=" + show, token, CALL));
                assertEquals(200, c.status(), "challenge for " + account + ": " + c);
                long d = System.nanoTime();
                String solution = solved(c.json());
                long e = System.nanoTime();
                Http.Reply joined = join(rig, via, show, token, solution);
                long g = System.nanoTime();
                if (g - a > 1_000_000_000L) {
                    rig.log("slow fan " + account + " via " + via + ": token " + (b - a) / 1_000_000 + " ms, challenge "
                            + (d - b) / 1_000_000 + " ms, solve " + (e - d) / 1_000_000 + " ms, join " + (g - e) / 1_000_000 + " ms");
                }
                assertEquals(200, joined.status(), account + " joins: " + joined);
                fans.add(new Fan(show, account, token, solution, joined.json().get("position").asLong(),
                        joined.json().get("queueToken").asText()));
            }
        }
        FaultRig.sleep(3_000); // a few admitted per room at one a second
        Map<String, Boolean> admittedBefore = new HashMap<>();
        for (Fan fan : fans) {
            JsonNode s = status(rig, m1, fan).json();
            assertEquals(fan.position(), s.get("position").asLong(), fan.account() + " before the loss: " + s);
            admittedBefore.put(fan.account(), s.get("admitted").asBoolean());
        }
        long admitted = admittedBefore.values().stream().filter(b -> b).count();
        assertTrue(admitted > 0, "nobody was admitted before the loss");

        Member m2 = members.get(1);
        Member m3 = members.get(2);
        m2.kill();
        m3.kill();
        rig.log("SIGKILL of " + m2 + " and " + m3 + " at once; " + fans.size() + " fans in " + SHOWS + " rooms, "
                + admitted + " admitted");
        Member m4 = rig.startMember(3);
        Member m5 = rig.startMember(4);
        List<Member> after = List.of(m1, m4, m5);
        for (Member m : after) {
            m.awaitReady(rig.http, 3, FaultRig.READY_TIMEOUT);
        }
        rig.log("three members again after " + FaultRig.millis(t0) + " ms");

        int i = 0;
        for (Fan fan : fans) {
            Member via = after.get(i++ % after.size());
            JsonNode s = status(rig, via, fan).json();
            assertEquals(fan.position(), s.get("position").asLong(), fan.account() + " kept its place: " + s);
            if (admittedBefore.get(fan.account())) {
                long deadline = System.currentTimeMillis() + 15_000;
                while (!s.get("admitted").asBoolean() && System.currentTimeMillis() < deadline) {
                    FaultRig.sleep(250);
                    s = status(rig, via, fan).json();
                }
                assertTrue(s.get("admitted").asBoolean(), fan.account() + " was admitted before the loss: " + s);
            }
            Http.Reply replay = join(rig, via, fan.show(), fan.token(), fan.solution());
            assertEquals(403, replay.status(), fan.account() + "'s spent challenge again: " + replay);
            assertEquals("CHALLENGE_REPLAYED", replay.code(), fan.account() + "'s spent challenge again: " + replay);
        }
        for (String show : shows) {
            long last = fans.stream().filter(f -> f.show().equals(show)).mapToLong(Fan::position).max().orElseThrow();
            String token = rig.token(m4, show + "-late", false);
            Http.Reply c = rig.http.must(() -> rig.http.get(m4.base, "/v1/challenge?showId=" + show, token, CALL));
            Http.Reply late = join(rig, m4, show, token, solved(c.json()));
            assertEquals(200, late.status(), "a late fan of " + show + ": " + late);
            assertTrue(late.json().get("position").asLong() > last,
                    "a fan joining after the loss comes after every earlier one: " + late + " (last " + last + ")");
        }
        long rebuilt = after.stream().mapToLong(m -> m.logLines("rebuilt the waiting room")).sum();
        rig.log("PASSED in " + FaultRig.millis(t0) + " ms: " + fans.size() + " fans kept their places, " + admitted
                + " admissions kept, every spent challenge refused; rooms rebuilt from PostgreSQL: " + rebuilt);
    }

    private static Http.Reply join(FaultRig rig, Member via, String show, String token, String solution) {
        return rig.http.must(() -> rig.http.call("POST", via.base, "/v1/shows/" + show + "/queue", token, null, CALL,
                "Challenge-Solution", solution));
    }

    private static Http.Reply status(FaultRig rig, Member via, Fan fan) {
        Http.Reply r = rig.http.must(() -> rig.http.call("GET", via.base, "/v1/shows/" + fan.show() + "/queue/status",
                fan.token(), null, CALL, "Queue-Token", fan.queueToken()));
        assertEquals(200, r.status(), fan.account() + " status: " + r);
        return r;
    }

    @SuppressWarnings("unchecked")
    private static String solved(JsonNode challenge) {
        Map<String, Object> parameters = Http.JSON.convertValue(challenge.get("parameters"), Map.class);
        Map<String, Object> solution = Challenges.solve(parameters, 10_000);
        assertNotNull(solution, "the challenge has a solution");
        ObjectNode p = Http.JSON.createObjectNode();
        p.set("challenge", challenge);
        p.set("solution", Http.JSON.valueToTree(solution));
        return Base64.getEncoder().encodeToString(p.toString().getBytes(StandardCharsets.UTF_8));
    }
}
