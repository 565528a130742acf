package org.boxoffice.domain;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;

/**
 * The key derivation of the waiting room door's proof of work (ALTCHA v2, {@code PBKDF2/SHA-256}),
 * the one both sides compute: the service to check a solution, and a client (a fan's browser, the
 * bench) to find one. A solution is the counter whose derived key starts with the challenge's prefix.
 */
public final class ProofOfWork {

    /** Bytes of a derived key: one block of SHA-256. */
    public static final int KEY_LENGTH = 32;

    private ProofOfWork() {
    }

    /**
     * PBKDF2-HMAC-SHA-256 of the password {@code nonce ‖ uint32be(counter)} with {@code salt},
     * {@code iterations} rounds, one 32-byte block. (The JDK's PBKDF2 takes the password as
     * characters, not bytes, so the one block is computed here.)
     */
    public static byte[] deriveKey(byte[] nonce, int counter, byte[] salt, int iterations) {
        byte[] password = ByteBuffer.allocate(nonce.length + 4).put(nonce).putInt(counter).array();
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(password, "HmacSHA256"));
            mac.update(salt);
            byte[] u = mac.doFinal(new byte[] {0, 0, 0, 1});
            byte[] t = u.clone();
            for (int i = 1; i < iterations; i++) {
                u = mac.doFinal(u);
                for (int j = 0; j < t.length; j++) {
                    t[j] ^= u[j];
                }
            }
            return t;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
