package org.boxoffice.app.gates;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Codes a gate can check offline: {@code BXS.<base64url(bookingId/showId/seatId/version/step)>.<base64url(Ed25519
 * signature)>}, signed with the show's private key, checked with its public key. {@code step} is the
 * rotating step (Unix seconds / {@value #STEP_SECONDS}) the code is good for. About 130 characters: it
 * fits a small QR. Stateless and thread-safe.
 */
public final class SignedCodes {

    /** How long one step lasts: the ticket app's rotating codes use the same. */
    public static final int STEP_SECONDS = 15;
    private static final String PREFIX = "BXS.";
    private static final int MAX_CODE = 512;
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._~@:-]{1,64}");

    private SignedCodes() {
    }

    /** What a signed code names. */
    public record Claim(long bookingId, String showId, String seatId, int version, long step) {
        /** The ticket, without its version or step: {@code bookingId/seatId}. */
        public String ticket() {
            return bookingId + "/" + seatId;
        }

        String text() {
            return bookingId + "/" + showId + "/" + seatId + "/" + version + "/" + step;
        }
    }

    /** The step at {@code epochMillis}. */
    public static long step(long epochMillis) {
        return Math.floorDiv(epochMillis, STEP_SECONDS * 1000L);
    }

    public static String sign(Claim claim, PrivateKey key) {
        byte[] payload = claim.text().getBytes(StandardCharsets.UTF_8);
        try {
            Signature s = Signature.getInstance("Ed25519");
            s.initSign(key);
            s.update(payload);
            Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
            return PREFIX + b64.encodeToString(payload) + "." + b64.encodeToString(s.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether {@code code} looks like a signed code at all (before any check). */
    public static boolean isSigned(String code) {
        return code != null && code.startsWith(PREFIX);
    }

    /**
     * The show a signed code names, read before any check (so that its key can be found); empty if
     * the code is not even shaped like one. Trust nothing else about the code until {@link #read}.
     */
    public static Optional<String> claimedShow(String code) {
        if (!isSigned(code) || code.length() > MAX_CODE) {
            return Optional.empty();
        }
        String[] parts = code.substring(PREFIX.length()).split("\\.", -1);
        if (parts.length != 2) {
            return Optional.empty();
        }
        try {
            String[] f = new String(Base64.getUrlDecoder().decode(parts[0]), StandardCharsets.UTF_8).split("/", -1);
            return f.length == 5 && ID.matcher(f[1]).matches() ? Optional.of(f[1]) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** What the code claims, if it is well formed and {@code key} signed it; empty otherwise. */
    public static Optional<Claim> read(String code, PublicKey key) {
        if (!isSigned(code) || code.length() > MAX_CODE) {
            return Optional.empty();
        }
        String[] parts = code.substring(PREFIX.length()).split("\\.", -1);
        if (parts.length != 2) {
            return Optional.empty();
        }
        byte[] payload;
        byte[] signature;
        try {
            payload = Base64.getUrlDecoder().decode(parts[0]);
            signature = Base64.getUrlDecoder().decode(parts[1]);
            Signature s = Signature.getInstance("Ed25519");
            s.initVerify(key);
            s.update(payload);
            if (!s.verify(signature)) {
                return Optional.empty();
            }
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            return Optional.empty();
        }
        String[] f = new String(payload, StandardCharsets.UTF_8).split("/", -1);
        if (f.length != 5 || !ID.matcher(f[1]).matches() || !ID.matcher(f[2]).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Claim(Long.parseLong(f[0]), f[1], f[2], Integer.parseInt(f[3]), Long.parseLong(f[4])));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
