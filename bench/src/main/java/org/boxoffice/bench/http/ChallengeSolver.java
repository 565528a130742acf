package org.boxoffice.bench.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.boxoffice.domain.ProofOfWork;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Solves the waiting room door's challenge (ALTCHA v2, PBKDF2/SHA-256) as a fan's browser does:
 * counter 0, 1, 2, … until the derived key starts with the key prefix, with the service's own key
 * derivation, for the fans who join.
 */
public final class ChallengeSolver {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();
    private static final int MAX_COUNTER = 10_000_000;

    private ChallengeSolver() {
    }

    /** The {@code Challenge-Solution} header's value for a challenge from {@code GET /v1/challenge}. */
    public static String solve(JsonNode challenge) {
        JsonNode p = challenge.path("parameters");
        byte[] nonce = HEX.parseHex(p.path("nonce").asText());
        byte[] salt = HEX.parseHex(p.path("salt").asText());
        String prefix = p.path("keyPrefix").asText();
        int cost = p.path("cost").asInt();
        for (int counter = 0; counter < MAX_COUNTER; counter++) {
            String key = HEX.formatHex(deriveKey(nonce, counter, salt, cost, p.path("keyLength").asInt(32)));
            if (key.startsWith(prefix)) {
                return payload(challenge, counter, key);
            }
        }
        throw new IllegalStateException("no solution below " + MAX_COUNTER);
    }

    /** The header's value for a given solution, right or wrong (bots send made-up ones). */
    public static String payload(JsonNode challenge, int counter, String derivedKey) {
        var root = JSON.createObjectNode();
        root.set("challenge", challenge);
        root.putObject("solution").put("counter", counter).put("derivedKey", derivedKey);
        return Base64.getEncoder().encodeToString(root.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The service's key derivation ({@link ProofOfWork#deriveKey}), cut to {@code length} bytes. */
    static byte[] deriveKey(byte[] nonce, int counter, byte[] salt, int iterations, int length) {
        byte[] key = ProofOfWork.deriveKey(nonce, counter, salt, iterations);
        return java.util.Arrays.copyOf(key, Math.min(length, key.length));
    }
}
