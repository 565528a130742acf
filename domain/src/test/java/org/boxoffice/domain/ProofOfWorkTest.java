package org.boxoffice.domain;

import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class ProofOfWorkTest {

    @Test
    void theKeyDerivation_isPbkdf2HmacSha256_ofTheNonceAndABigEndianCounter_asWebCryptoComputesIt() {
        byte[] nonce = new byte[16];
        byte[] salt = new byte[16];
        for (int i = 0; i < 16; i++) {
            nonce[i] = (byte) i;
            salt[i] = (byte) (100 + i);
        }
        // Python: hashlib.pbkdf2_hmac('sha256', bytes(range(16)) + (7).to_bytes(4, 'big'), bytes(range(100, 116)), 50, 32)
        assertEquals("fe119cd5db0367b8b556050db32e52df55ac9bbaf0832807e3e279bfbaff41f9",
                HexFormat.of().formatHex(ProofOfWork.deriveKey(nonce, 7, salt, 50)));
        assertEquals(ProofOfWork.KEY_LENGTH, ProofOfWork.deriveKey(nonce, 7, salt, 1).length);
        assertNotEquals(HexFormat.of().formatHex(ProofOfWork.deriveKey(nonce, 8, salt, 50)),
                HexFormat.of().formatHex(ProofOfWork.deriveKey(nonce, 7, salt, 50)));
    }
}
