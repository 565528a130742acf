package org.boxoffice.bench.load;

import java.util.Base64;

/**
 * One client's picture of a show's seats, as the availability endpoint draws it and as the
 * client's own outcomes correct it between reads. Not thread-safe: each connection keeps its own,
 * like each browser does.
 *
 * <p>The wire format is the service's {@code 2bit-base64}: two bits per seat in layout order, four
 * seats to a byte, the first seat in the lowest bits; 0 available, 1 held, 2 sold, 3 blocked.
 */
public final class SeatMap {

    public static final byte AVAILABLE = 0;
    public static final byte HELD = 1;
    public static final byte SOLD = 2;
    public static final byte BLOCKED = 3;

    private final byte[] statuses;
    private int free;
    private String etag;

    public SeatMap(int seatCount) {
        this.statuses = new byte[seatCount];
        this.free = seatCount;
    }

    /** One status byte per seat from the packed, base64-encoded form. */
    public static byte[] decode(String base64, int seatCount) {
        byte[] packed = Base64.getDecoder().decode(base64);
        if (packed.length != (seatCount + 3) / 4) {
            throw new IllegalArgumentException("availability data holds " + packed.length * 4
                    + " seat slots, expected " + seatCount);
        }
        byte[] out = new byte[seatCount];
        for (int i = 0; i < seatCount; i++) {
            out[i] = (byte) ((packed[i >> 2] >> ((i & 3) * 2)) & 3);
        }
        return out;
    }

    /** The inverse of {@link #decode}; the baseline server draws its maps with it. */
    public static String encode(byte[] statuses) {
        byte[] packed = new byte[(statuses.length + 3) / 4];
        for (int i = 0; i < statuses.length; i++) {
            packed[i >> 2] |= (byte) ((statuses[i] & 3) << ((i & 3) * 2));
        }
        return Base64.getEncoder().encodeToString(packed);
    }

    /** Replaces the whole picture with a freshly read one. */
    public void replace(byte[] fresh, String newEtag) {
        if (fresh.length != statuses.length) {
            throw new IllegalArgumentException("map of " + fresh.length + " seats for a show of " + statuses.length);
        }
        System.arraycopy(fresh, 0, statuses, 0, fresh.length);
        int count = 0;
        for (byte s : fresh) {
            if (s == AVAILABLE) {
                count++;
            }
        }
        free = count;
        etag = newEtag;
    }

    private static final byte[] DATA_FIELD = "\"data\":\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /**
     * Replaces the picture with the {@code data} field of an availability response body, without a
     * JSON parser: the body is the largest thing the load generator reads, and most of it is this
     * one string. Throws if the body has no such field or it does not fit the show.
     */
    public void replaceFromResponse(byte[] body, String newEtag) {
        int start = indexOf(body, DATA_FIELD);
        if (start < 0) {
            throw new IllegalArgumentException("no \"data\" in the availability response");
        }
        start += DATA_FIELD.length;
        int end = start;
        while (end < body.length && body[end] != '"') {
            end++;
        }
        byte[] packed = Base64.getDecoder().decode(java.util.Arrays.copyOfRange(body, start, end));
        if (packed.length != (statuses.length + 3) / 4) {
            throw new IllegalArgumentException("availability data holds " + packed.length * 4
                    + " seat slots, expected " + statuses.length);
        }
        int count = 0;
        for (int i = 0; i < statuses.length; i++) {
            byte status = (byte) ((packed[i >> 2] >> ((i & 3) * 2)) & 3);
            statuses[i] = status;
            if (status == AVAILABLE) {
                count++;
            }
        }
        free = count;
        etag = newEtag;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    public boolean free(int index) {
        return statuses[index] == AVAILABLE;
    }

    public byte status(int index) {
        return statuses[index];
    }

    /** Records what the client learned (a hold it got, a seat a 409 named) until the next read. */
    public void set(int index, byte status) {
        byte old = statuses[index];
        if (old == status) {
            return;
        }
        if (old == AVAILABLE) {
            free--;
        } else if (status == AVAILABLE) {
            free++;
        }
        statuses[index] = status;
    }

    public int freeCount() {
        return free;
    }

    public int size() {
        return statuses.length;
    }

    /** The entity tag of the last read, for If-None-Match; null before the first. */
    public String etag() {
        return etag;
    }
}
