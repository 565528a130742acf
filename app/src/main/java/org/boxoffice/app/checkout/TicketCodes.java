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
 * A ticket that changed hands has a code version above 0, written after the seat
 * ({@code bookingId/showId/seatId/version}); the gate admits only the ticket's current version, so
 * the codes issued before a transfer stop working. Thread-safe.
 */
public final class TicketCodes {

    private static final String VERSION = "BX1";
    private static final int TAG_BYTES = 16;
    private static final int MAX_CODE = 512;

    private final SecretKeySpec key;

    /** What a valid code names. */
    public record Ticket(long bookingId, String showId, String seatId, int version) {
    }

    public TicketCodes(String secret) {
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    public String code(long bookingId, String showId, String seatId) {
        return code(bookingId, showId, seatId, 0);
    }

    /** The code of version {@code version} of a ticket (0: as booked, never transferred). */
    public String code(long bookingId, String showId, String seatId, int version) {
        String named = bookingId + "/" + showId + "/" + seatId + (version == 0 ? "" : "/" + version);
        byte[] payload = named.getBytes(StandardCharsets.UTF_8);
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
        String[] fields = new String(payload, StandardCharsets.UTF_8).split("/", -1);
        // ids as the service issues them, never anything the database would refuse (a NUL)
        if (fields.length < 3 || fields.length > 4 || !RequestGuard.ID.matcher(fields[1]).matches()
                || !RequestGuard.ID.matcher(fields[2]).matches()) {
            return Optional.empty();
        }
        try {
            int version = fields.length == 4 ? Integer.parseInt(fields[3]) : 0;
            if (version < 0 || (fields.length == 4 && version == 0)) {
                return Optional.empty();
            }
            return Optional.of(new Ticket(Long.parseLong(fields[0]), fields[1], fields[2], version));
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
