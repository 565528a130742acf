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
 * the codes issued before a transfer stop working.
 *
 * <p>Rotating codes, for the ticket app: every ticket has its own secret, an HMAC of the ticket and
 * its code version under the ticket secret, so a transfer (a new version) is a new secret, and no one
 * without the service's secret can derive any ticket's. Only the holder is given it. The app shows
 * {@code BXR.<base64url(bookingId/showId/seatId/version/step)>.<base64url(first 16 bytes of
 * HMAC-SHA256(ticket secret, that text))>}, where {@code step} is the Unix time divided by
 * {@value #STEP_SECONDS} seconds (as TOTP does); the gate admits a step at most one away from its own,
 * so a screenshot stops working within a minute. Thread-safe.
 */
public final class TicketCodes {

    private static final String VERSION = "BX1";
    private static final String ROTATING = "BXR";
    /** How long one step of a rotating code lasts. */
    public static final int STEP_SECONDS = 15;
    /** How many steps either side of the gate's own a rotating code may be (clock drift, a slow scan). */
    public static final int WINDOW_STEPS = 1;
    private static final int TAG_BYTES = 16;
    private static final int MAX_CODE = 512;

    private final SecretKeySpec key;

    /** What a valid code names. */
    public record Ticket(long bookingId, String showId, String seatId, int version) {
        /** The ticket as a rotating code names it: {@code bookingId/showId/seatId/version}. */
        public String named() {
            return bookingId + "/" + showId + "/" + seatId + "/" + version;
        }
    }

    /** What the gate makes of a code at a moment. */
    public sealed interface Reading {
        /** A code this service issued; {@code rotating} if it was a rotating one, within its window. */
        record Valid(Ticket ticket, boolean rotating) implements Reading {
        }

        /** A genuine rotating code whose window has passed (a screenshot, or a clock far off). */
        record Expired(Ticket ticket) implements Reading {
        }

        /** Malformed, forged, or signed with another secret. */
        record Invalid() implements Reading {
        }
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

    /** The step of a rotating code at {@code epochMillis}. */
    public static long step(long epochMillis) {
        return Math.floorDiv(epochMillis, STEP_SECONDS * 1000L);
    }

    /** The ticket's own secret (32 bytes): given to its holder only, new with each code version. */
    public byte[] secret(Ticket ticket) {
        return hmac(key, ("BXR-secret/" + ticket.named()).getBytes(StandardCharsets.UTF_8));
    }

    /** The rotating code of {@code ticket} at {@code step}, as the holder's app computes it. */
    public String rotatingCode(Ticket ticket, long step) {
        byte[] payload = (ticket.named() + "/" + step).getBytes(StandardCharsets.UTF_8);
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        return ROTATING + "." + b64.encodeToString(payload) + "."
                + b64.encodeToString(rotatingTag(ticket, payload));
    }

    /** Reads a printed or a rotating code as the gate does at {@code nowMillis}. */
    public Reading read(String code, long nowMillis) {
        if (code != null && code.startsWith(ROTATING + ".")) {
            return readRotating(code, nowMillis);
        }
        return read(code).<Reading>map(t -> new Reading.Valid(t, false)).orElseGet(Reading.Invalid::new);
    }

    private Reading readRotating(String code, long nowMillis) {
        String[] parts = code.length() > MAX_CODE ? new String[0] : code.split("\\.", -1);
        if (parts.length != 3) {
            return new Reading.Invalid();
        }
        byte[] payload;
        byte[] given;
        try {
            payload = Base64.getUrlDecoder().decode(parts[1]);
            given = Base64.getUrlDecoder().decode(parts[2]);
        } catch (IllegalArgumentException e) {
            return new Reading.Invalid();
        }
        String[] fields = new String(payload, StandardCharsets.UTF_8).split("/", -1);
        if (fields.length != 5 || !RequestGuard.ID.matcher(fields[1]).matches()
                || !RequestGuard.ID.matcher(fields[2]).matches()) {
            return new Reading.Invalid();
        }
        Ticket ticket;
        long step;
        try {
            ticket = new Ticket(Long.parseLong(fields[0]), fields[1], fields[2], Integer.parseInt(fields[3]));
            step = Long.parseLong(fields[4]);
        } catch (NumberFormatException e) {
            return new Reading.Invalid();
        }
        if (ticket.version() < 0 || !MessageDigest.isEqual(given, rotatingTag(ticket, payload))) {
            return new Reading.Invalid();
        }
        return Math.abs(step - step(nowMillis)) <= WINDOW_STEPS ? new Reading.Valid(ticket, true) : new Reading.Expired(ticket);
    }

    private byte[] rotatingTag(Ticket ticket, byte[] payload) {
        return Arrays.copyOf(hmac(new SecretKeySpec(secret(ticket), "HmacSHA256"), payload), TAG_BYTES);
    }

    private byte[] tag(byte[] payload) {
        return Arrays.copyOf(hmac(key, payload), TAG_BYTES);
    }

    private static byte[] hmac(SecretKeySpec key, byte[] payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(payload);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
