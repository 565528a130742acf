package org.boxoffice.bench.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ChallengeSolverTest {

    private static final HexFormat HEX = HexFormat.of();

    @Test
    void theKeyDerivation_isPbkdf2HmacSha256_ofTheNonceAndABigEndianCounter() {
        byte[] nonce = new byte[16];
        byte[] salt = new byte[16];
        for (int i = 0; i < 16; i++) {
            nonce[i] = (byte) i;
            salt[i] = (byte) (100 + i);
        }
        // Python: hashlib.pbkdf2_hmac('sha256', bytes(range(16)) + (7).to_bytes(4, 'big'), bytes(range(100, 116)), 50, 32)
        assertEquals("fe119cd5db0367b8b556050db32e52df55ac9bbaf0832807e3e279bfbaff41f9",
                HEX.formatHex(ChallengeSolver.deriveKey(nonce, 7, salt, 50, 32)));
    }

    @Test
    void aSolution_namesTheCounterWhoseKeyHasThePrefix() throws Exception {
        ObjectMapper json = new ObjectMapper();
        byte[] nonce = HEX.parseHex("000102030405060708090a0b0c0d0e0f");
        byte[] salt = HEX.parseHex("6465666768696a6b6c6d6e6f70717273");
        String key = HEX.formatHex(ChallengeSolver.deriveKey(nonce, 5, salt, 10, 32));
        JsonNode challenge = json.readTree("{\"parameters\":{\"algorithm\":\"PBKDF2/SHA-256\",\"cost\":10,\"keyLength\":32,"
                + "\"keyPrefix\":\"" + key.substring(0, 32) + "\",\"nonce\":\"000102030405060708090a0b0c0d0e0f\","
                + "\"salt\":\"6465666768696a6b6c6d6e6f70717273\"},\"signature\":\"s\"}");
        JsonNode payload = json.readTree(new String(Base64.getDecoder().decode(ChallengeSolver.solve(challenge)),
                StandardCharsets.UTF_8));
        assertEquals(5, payload.get("solution").get("counter").asInt());
        assertEquals(key, payload.get("solution").get("derivedKey").asText());
        assertEquals(challenge, payload.get("challenge"));
    }
}
