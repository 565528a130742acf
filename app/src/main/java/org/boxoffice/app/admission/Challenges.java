package org.boxoffice.app.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.boxoffice.domain.ProofOfWork;
import org.boxoffice.grid.limits.SpentChallenges;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * The door's proof of work: ALTCHA's protocol v2 (PBKDF2/SHA-256 key derivation) in its
 * deterministic mode, bound to an account and a show, short-lived and single-use across the
 * cluster.
 *
 * <p>A challenge names a random nonce and salt; the solver derives
 * {@code PBKDF2-HMAC-SHA-256(nonce ‖ uint32be(counter), salt, cost, 32 bytes)} for counter 0, 1, 2,
 * … until the key starts with {@code keyPrefix}. The server drew that counter uniformly from
 * {@code [0, 2 x difficulty)} ({@code difficulty} on average, nothing to skip), derived its key once, and signed the key ({@code keySignature})
 * and the whole parameter set ({@code signature}, HMAC over the parameters' JSON with sorted keys),
 * so checking a solution is two HMACs: no key derivation, whatever a client sends. The account and
 * show ride in the signed {@code data}. A used challenge's nonce is spent in the grid
 * ({@link SpentChallenges}) so a replay is refused on every member.
 *
 * <p>ALTCHA's Java library on Maven Central ({@code org.altcha:altcha} 1.3.0) implements only the
 * protocol's first version (a SHA-256 hash puzzle), so v2 is implemented here with the JDK's HMAC;
 * the format is the one ALTCHA's v2 libraries and widget read and write.
 */
public final class Challenges {

    public static final String ALGORITHM = "PBKDF2/SHA-256";
    static final int KEY_LENGTH = ProofOfWork.KEY_LENGTH;
    /** How much of the derived key the solver must match: half, so only the drawn counter does. */
    static final int PREFIX_LENGTH = KEY_LENGTH / 2;
    /** A payload longer than this is no solution (a real one is about 700 bytes of base64). */
    static final int MAX_PAYLOAD = 4_096;
    private static final Set<String> PARAMETERS = Set.of("algorithm", "cost", "data", "expiresAt", "keyLength",
            "keyPrefix", "keySignature", "nonce", "salt");
    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();
    private static final HexFormat HEX = HexFormat.of();

    /** Why a solution was refused, or OK. */
    public enum Verdict { OK, MISSING, INVALID, EXPIRED, REPLAYED }

    private final byte[] signatureKey;
    private final byte[] keySignatureKey;
    private final int cost;
    private final long ttlMillis;
    private final SpentChallenges spent;
    private final LongSupplier clock;
    private final SecureRandom random = new SecureRandom();

    /**
     * @param secret the operator's secret ({@code boxoffice.challenge.secret}); two keys are derived
     *               from it, one signing the parameters and one the expected key
     */
    public Challenges(String secret, int cost, long ttlMillis, SpentChallenges spent, LongSupplier clock) {
        if (cost < 1) {
            throw new IllegalArgumentException("boxoffice.challenge.cost must be at least 1");
        }
        byte[] master = secret.getBytes(StandardCharsets.UTF_8);
        this.signatureKey = hmac(master, "boxoffice challenge parameters".getBytes(StandardCharsets.UTF_8));
        this.keySignatureKey = hmac(master, "boxoffice challenge key".getBytes(StandardCharsets.UTF_8));
        this.cost = cost;
        this.ttlMillis = ttlMillis;
        this.spent = spent;
        this.clock = clock;
    }

    /**
     * A new challenge for this account and show, as ALTCHA's v2 JSON: {@code {"parameters": {...},
     * "signature": "..."}}. Costs the server one key derivation.
     *
     * @param difficulty key derivations the solver runs on average (at least 1)
     */
    public Map<String, Object> issue(String accountId, String showId, int difficulty) {
        byte[] nonce = new byte[16];
        byte[] salt = new byte[16];
        random.nextBytes(nonce);
        random.nextBytes(salt);
        int d = Math.max(1, difficulty);
        // uniform over [0, 2d): d on average, and no range a solver could skip (a floor of d/2 would halve the work)
        int counter = random.nextInt(2 * d);
        byte[] key = deriveKey(nonce, counter, salt, cost);
        Map<String, Object> parameters = new TreeMap<>();
        parameters.put("algorithm", ALGORITHM);
        parameters.put("cost", cost);
        parameters.put("data", new TreeMap<>(Map.of("account", accountId, "show", showId)));
        parameters.put("expiresAt", (clock.getAsLong() + ttlMillis) / 1000);
        parameters.put("keyLength", KEY_LENGTH);
        parameters.put("keyPrefix", HEX.formatHex(key, 0, PREFIX_LENGTH));
        parameters.put("keySignature", HEX.formatHex(hmac(keySignatureKey, key)));
        parameters.put("nonce", HEX.formatHex(nonce));
        parameters.put("salt", HEX.formatHex(salt));
        Map<String, Object> challenge = new LinkedHashMap<>();
        challenge.put("parameters", parameters);
        challenge.put("signature", HEX.formatHex(hmac(signatureKey, canonical(parameters))));
        return challenge;
    }

    /**
     * Checks a solution sent by {@code accountId} for {@code showId}, and spends it if it is good.
     * Cheap whatever it is sent: parsing, two HMACs and, only for a good solution, one grid write.
     *
     * @param payload base64 of ALTCHA's v2 payload {@code {"challenge": {...}, "solution": {"counter": n,
     *                "derivedKey": "hex"}}}, or null
     */
    public Verdict verify(String payload, String accountId, String showId) {
        if (payload == null || payload.isBlank()) {
            return Verdict.MISSING;
        }
        Parsed p = parse(payload.trim());
        if (p == null || !MessageDigest.isEqual(p.signature(), hmac(signatureKey, canonical(p.parameters())))) {
            return Verdict.INVALID;
        }
        long now = clock.getAsLong();
        if (p.expiresAtSeconds() * 1000 < now) {
            return Verdict.EXPIRED;
        }
        if (!accountId.equals(p.account()) || !showId.equals(p.show())
                || !MessageDigest.isEqual(p.keySignature(), hmac(keySignatureKey, p.derivedKey()))
                || !HEX.formatHex(p.derivedKey(), 0, PREFIX_LENGTH).equals(p.keyPrefix())) {
            return Verdict.INVALID;
        }
        return spent.spend(p.nonce(), p.expiresAtSeconds() * 1000, now) ? Verdict.OK : Verdict.REPLAYED;
    }

    private record Parsed(Map<String, Object> parameters, byte[] signature, String account, String show,
                          long expiresAtSeconds, String keyPrefix, byte[] keySignature, String nonce, byte[] derivedKey) {
    }

    /** The payload's parts, or null if it is not exactly the shape this service issues. */
    private Parsed parse(String payload) {
        if (payload.length() > MAX_PAYLOAD) {
            return null;
        }
        try {
            JsonNode root = CANONICAL.readTree(Base64.getDecoder().decode(payload));
            JsonNode challenge = root.path("challenge");
            JsonNode params = challenge.path("parameters");
            JsonNode solution = root.path("solution");
            if (!params.isObject() || params.size() != PARAMETERS.size() || !challenge.path("signature").isTextual()
                    || !solution.path("derivedKey").isTextual()) {
                return null;
            }
            for (Iterator<String> it = params.fieldNames(); it.hasNext(); ) {
                if (!PARAMETERS.contains(it.next())) {
                    return null;
                }
            }
            JsonNode data = params.get("data");
            if (!data.isObject() || data.size() != 2 || !data.path("account").isTextual() || !data.path("show").isTextual()
                    || !ALGORITHM.equals(params.get("algorithm").asText()) || !params.get("cost").isInt()
                    || !params.get("keyLength").isInt() || params.get("keyLength").asInt() != KEY_LENGTH
                    || !params.get("expiresAt").isIntegralNumber()) {
                return null;
            }
            for (String text : new String[] {"keyPrefix", "keySignature", "nonce", "salt"}) {
                if (!params.get(text).isTextual()) {
                    return null;
                }
            }
            Map<String, Object> parameters = new TreeMap<>();
            parameters.put("algorithm", ALGORITHM);
            parameters.put("cost", params.get("cost").asInt());
            parameters.put("data", new TreeMap<>(Map.of("account", data.get("account").asText(),
                    "show", data.get("show").asText())));
            parameters.put("expiresAt", params.get("expiresAt").asLong());
            parameters.put("keyLength", KEY_LENGTH);
            parameters.put("keyPrefix", params.get("keyPrefix").asText());
            parameters.put("keySignature", params.get("keySignature").asText());
            parameters.put("nonce", params.get("nonce").asText());
            parameters.put("salt", params.get("salt").asText());
            byte[] derivedKey = HEX.parseHex(solution.get("derivedKey").asText());
            if (derivedKey.length != KEY_LENGTH) {
                return null;
            }
            return new Parsed(parameters, HEX.parseHex(challenge.get("signature").asText()), data.get("account").asText(),
                    data.get("show").asText(), params.get("expiresAt").asLong(), params.get("keyPrefix").asText(),
                    HEX.parseHex(params.get("keySignature").asText()), params.get("nonce").asText(), derivedKey);
        } catch (IllegalArgumentException | java.io.IOException e) {
            return null;
        }
    }

    /** The parameters' JSON as ALTCHA signs it: keys sorted, no spaces (what JSON.stringify writes). */
    static byte[] canonical(Map<String, Object> parameters) {
        try {
            return CANONICAL.writeValueAsBytes(parameters);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** ALTCHA v2's key derivation ({@link ProofOfWork#deriveKey}). */
    static byte[] deriveKey(byte[] nonce, int counter, byte[] salt, int iterations) {
        return ProofOfWork.deriveKey(nonce, counter, salt, iterations);
    }

    /** Solves a challenge as a browser would (tests and the bench): the counter and its key, or null if none below {@code max}. */
    public static Map<String, Object> solve(Map<String, Object> parameters, int max) {
        byte[] nonce = HEX.parseHex((String) parameters.get("nonce"));
        byte[] salt = HEX.parseHex((String) parameters.get("salt"));
        String prefix = (String) parameters.get("keyPrefix");
        int iterations = ((Number) parameters.get("cost")).intValue();
        for (int counter = 0; counter < max; counter++) {
            byte[] key = deriveKey(nonce, counter, salt, iterations);
            if (HEX.formatHex(key).startsWith(prefix)) {
                return Map.of("counter", counter, "derivedKey", HEX.formatHex(key));
            }
        }
        return null;
    }

    private static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
