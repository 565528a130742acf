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
