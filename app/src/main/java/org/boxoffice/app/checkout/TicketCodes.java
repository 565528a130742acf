package org.boxoffice.app.checkout;

import org.boxoffice.app.http.RequestGuard;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

/**
 * Ticket codes: a token naming a booking, a show and a seat, signed with HMAC-SHA256 under the
 * ticket secret, so a gate can reject a forged code before asking the database. The code is what
 * the QR image carries: {@code BX1.<base64url(bookingId/showId/seatId)>.<base64url(first 16 bytes of the MAC)>}.
 * Thread-safe.
 */
public final class TicketCodes {

    private static final String VERSION = "BX1";
    private static final int TAG_BYTES = 16;
    private static final int MAX_CODE = 512;

    private final SecretKeySpec key;

    /** What a valid code names. */
    public record Ticket(long bookingId, String showId, String seatId) {
    }

    public TicketCodes(String secret) {
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    public String code(long bookingId, String showId, String seatId) {
        byte[] payload = (bookingId + "/" + showId + "/" + seatId).getBytes(StandardCharsets.UTF_8);
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        return VERSION + "." + b64.encodeToString(payload) + "." + b64.encodeToString(tag(payload));
    }

    /** The ticket a code names, or empty if it is malformed or its signature does not match. */
    public Optional<Ticket> read(String code) {
        if (code == null || code.length() > MAX_CODE) {
            return Optional.empty();
        }
        String[] parts = code.split("\\.", -1);
        if (parts.length != 3 || !VERSION.equals(parts[0])) {
            return Optional.empty();
        }
        byte[] payload;
        byte[] given;
        try {
            payload = Base64.getUrlDecoder().decode(parts[1]);
            given = Base64.getUrlDecoder().decode(parts[2]);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (!MessageDigest.isEqual(given, tag(payload))) {
            return Optional.empty();
        }
        String[] fields = new String(payload, StandardCharsets.UTF_8).split("/", 3);
        // ids as the service issues them, never anything the database would refuse (a NUL)
        if (fields.length != 3 || !RequestGuard.ID.matcher(fields[1]).matches()
                || !RequestGuard.ID.matcher(fields[2]).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Ticket(Long.parseLong(fields[0]), fields[1], fields[2]));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private byte[] tag(byte[] payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return Arrays.copyOf(mac.doFinal(payload), TAG_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
