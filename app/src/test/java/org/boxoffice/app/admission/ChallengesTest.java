package org.boxoffice.app.admission;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The protocol's pieces on their own: the key derivation browsers run, and the signed JSON. */
class ChallengesTest {

    @Test
    void theSignedParameters_areJsonWithSortedKeysAndNoSpaces_asJavaScriptWritesThem() {
        Map<String, Object> p = new TreeMap<>();
        p.put("salt", "ab");
        p.put("cost", 10);
        p.put("data", new TreeMap<>(Map.of("show", "s-1", "account", "a\"b")));
        p.put("expiresAt", 1_800_000_000L);
        assertEquals("{\"cost\":10,\"data\":{\"account\":\"a\\\"b\",\"show\":\"s-1\"},\"expiresAt\":1800000000,\"salt\":\"ab\"}",
                new String(Challenges.canonical(p), StandardCharsets.UTF_8));
    }

    @Test
    void theDrawnCounter_isUniformFromZero_soNoSolverCanSkipPartOfTheWork() {
        Challenges door = new Challenges("challenges-test-secret-0123456789-abcdef", 1, 60_000, null, () -> 1_800_000_000_000L);
        int difficulty = 40;
        int below = 0;
        long sum = 0;
        int n = 400;
        for (int i = 0; i < n; i++) {
            @SuppressWarnings("unchecked")
            Map<String, Object> parameters = (Map<String, Object>) door.issue("fan", "show", difficulty).get("parameters");
            int counter = ((Number) Challenges.solve(parameters, 4 * difficulty).get("counter")).intValue();
            assertTrue(counter < 2 * difficulty, "counter " + counter);
            below += counter < difficulty / 2 ? 1 : 0;
            sum += counter;
        }
        // uniform over [0, 80): a quarter of the counters lie below 20 (about 100 of 400); none would with a floor of d/2
        assertTrue(below > 60, below + " counters below half the difficulty");
        double mean = (double) sum / n;
        assertTrue(mean > 34 && mean < 46, "mean work " + mean);
    }
}
