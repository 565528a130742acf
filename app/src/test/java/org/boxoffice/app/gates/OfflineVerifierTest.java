package org.boxoffice.app.gates;

import org.junit.jupiter.api.Test;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Set;

import static org.boxoffice.app.gates.OfflineVerifier.Verdict.ACCEPT;
import static org.boxoffice.app.gates.OfflineVerifier.Verdict.ALREADY_SCANNED_HERE;
import static org.boxoffice.app.gates.OfflineVerifier.Verdict.BAD_SIGNATURE;
import static org.boxoffice.app.gates.OfflineVerifier.Verdict.EXPIRED_WINDOW;
import static org.boxoffice.app.gates.OfflineVerifier.Verdict.REVOKED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The offline check as a pure function: code, key, revocations, time, this gate's scans. */
class OfflineVerifierTest {

    private static final long NOW = 1_900_000_000_000L;
    private static final OfflineVerifier.Revocations NONE = new OfflineVerifier.Revocations(Set.of());
    private final KeyPair show = pair();
    private final KeyPair other = pair();

    private static KeyPair pair() {
        try {
            return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private String code(int version, long atMillis) {
        return SignedCodes.sign(new SignedCodes.Claim(42, "fado-1", "A-1-1", version, SignedCodes.step(atMillis)),
                show.getPrivate());
    }

    private OfflineVerifier.Verdict check(String code, OfflineVerifier.Revocations r, long now, Set<String> here) {
        return OfflineVerifier.verify(code, "fado-1", show.getPublic(), r, now, here);
    }

    @Test
    void aCodeOfThisStep_isAccepted_andFitsAQr() {
        String code = code(0, NOW);
        assertEquals(ACCEPT, check(code, NONE, NOW, Set.of()));
        assertEquals(ACCEPT, check(code, NONE, NOW + 15_000, Set.of()), "one step of drift is allowed");
        assertTrue(code.length() < 160, code);
    }

    @Test
    void aCodeOutsideItsWindow_isExpired() {
        assertEquals(EXPIRED_WINDOW, check(code(0, NOW), NONE, NOW + 60_000, Set.of()), "a screenshot a minute later");
        assertEquals(EXPIRED_WINDOW, check(code(0, NOW + 60_000), NONE, NOW, Set.of()), "a code from the future");
    }

    @Test
    void aReplacedVersion_orACancelledTicket_isRevoked() {
        OfflineVerifier.Revocations transferred = new OfflineVerifier.Revocations(Set.of("42/A-1-1/0"));
        assertEquals(REVOKED, check(code(0, NOW), transferred, NOW, Set.of()));
        assertEquals(ACCEPT, check(code(1, NOW), transferred, NOW, Set.of()), "the new version admits");
        assertEquals(REVOKED, check(code(1, NOW), new OfflineVerifier.Revocations(Set.of("42/A-1-1/*")), NOW, Set.of()));
    }

    @Test
    void aForgedOrForeignCode_hasABadSignature() {
        String good = code(0, NOW);
        String otherKey = SignedCodes.sign(new SignedCodes.Claim(42, "fado-1", "A-1-1", 0, SignedCodes.step(NOW)),
                other.getPrivate());
        String otherShow = SignedCodes.sign(new SignedCodes.Claim(42, "fado-2", "A-1-1", 0, SignedCodes.step(NOW)),
                show.getPrivate());
        String tampered = good.substring(0, 6) + (good.charAt(6) == 'A' ? 'B' : 'A') + good.substring(7);
        for (String bad : new String[]{otherKey, otherShow, tampered, "BXS.", "BXS.x.y", "BX1.a.b", "", good + "."}) {
            assertEquals(BAD_SIGNATURE, check(bad, NONE, NOW, Set.of()), bad);
        }
        assertEquals(BAD_SIGNATURE, check(null, NONE, NOW, Set.of()));
    }

    @Test
    void aTicketThisGateAdmitted_isAlreadyScannedHere() {
        assertEquals(ALREADY_SCANNED_HERE, check(code(0, NOW), NONE, NOW, Set.of("42/A-1-1")));
    }
}
