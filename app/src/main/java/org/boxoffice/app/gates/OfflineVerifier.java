package org.boxoffice.app.gates;

import java.security.PublicKey;
import java.util.Set;

/**
 * The check a gate runs with no network: a pure function of the code, the show's public key, the
 * revocation list it downloaded, the time and what this gate has scanned already. The gate page runs
 * the same steps in the browser. Thread-safe (stateless).
 */
public final class OfflineVerifier {

    /** How many steps either side of the gate's own a code may be. */
    public static final int WINDOW_STEPS = 1;

    /** What the gate does with a code. */
    public enum Verdict {
        ACCEPT, REVOKED, EXPIRED_WINDOW, BAD_SIGNATURE, ALREADY_SCANNED_HERE
    }

    /**
     * What the gate downloaded: revoked entries are {@code bookingId/seatId/version} (a version a
     * transfer replaced) or {@code bookingId/seatId/*} (a refunded or cancelled ticket).
     */
    public record Revocations(Set<String> revoked) {
        public boolean revokes(SignedCodes.Claim c) {
            return revoked.contains(c.ticket() + "/*") || revoked.contains(c.ticket() + "/" + c.version());
        }
    }

    private OfflineVerifier() {
    }

    /** Whether a gate whose clock reads {@code nowMillis} takes the code's step (offline or online alike). */
    public static boolean inWindow(SignedCodes.Claim claim, long nowMillis) {
        return Math.abs(claim.step() - SignedCodes.step(nowMillis)) <= WINDOW_STEPS;
    }

    /**
     * The verdict on {@code code} for show {@code showId} at {@code nowMillis}; {@code scannedHere}
     * holds the tickets ({@code bookingId/seatId}) this gate accepted before.
     */
    public static Verdict verify(String code, String showId, PublicKey key, Revocations revocations, long nowMillis,
                                 Set<String> scannedHere) {
        SignedCodes.Claim claim = SignedCodes.read(code, key).orElse(null);
        if (claim == null || !claim.showId().equals(showId)) {
            return Verdict.BAD_SIGNATURE;
        }
        if (revocations.revokes(claim)) {
            return Verdict.REVOKED;
        }
        if (!inWindow(claim, nowMillis)) {
            return Verdict.EXPIRED_WINDOW;
        }
        if (scannedHere.contains(claim.ticket())) {
            return Verdict.ALREADY_SCANNED_HERE;
        }
        return Verdict.ACCEPT;
    }
}
