package org.boxoffice.bench.baseline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * HS256 JSON Web Tokens for the baseline server: the bench mints them, the server checks the
 * signature and expiry on every request, as Boxoffice does, so both sides pay for authentication.
 * Thread-safe.
 */
public final class Hs256 {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
    private static final String HEADER = ENCODER.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));

    private final SecretKeySpec key;

    public Hs256(String secret) {
        if (secret.length() < 32) {
            throw new IllegalArgumentException("an HS256 secret needs at least 32 bytes");
        }
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    public String mint(String subject, long expiresAtEpochSeconds) {
        String payload = "{\"sub\":" + quote(subject) + ",\"exp\":" + expiresAtEpochSeconds + "}";
        String signingInput = HEADER + "." + ENCODER.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        return signingInput + "." + ENCODER.encodeToString(sign(signingInput));
    }

    /** The token's subject if its signature is ours and it has not expired; null otherwise. */
    public String verify(String token, long nowEpochSeconds) {
        int first = token.indexOf('.');
        int second = first < 0 ? -1 : token.indexOf('.', first + 1);
        if (second < 0 || !token.startsWith(HEADER + ".")) {
            return null;
        }
        try {
            byte[] expected = sign(token.substring(0, second));
            if (!MessageDigest.isEqual(expected, DECODER.decode(token.substring(second + 1)))) {
                return null;
            }
            JsonNode claims = JSON.readTree(DECODER.decode(token.substring(first + 1, second)));
            if (claims.path("exp").asLong(0) <= nowEpochSeconds || !claims.path("sub").isTextual()) {
                return null;
            }
            return claims.get("sub").asText();
        } catch (IllegalArgumentException | java.io.IOException e) {
            return null;
        }
    }

    private byte[] sign(String input) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(input.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    private static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
