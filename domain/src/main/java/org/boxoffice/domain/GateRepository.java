package org.boxoffice.domain;

import java.util.List;
import java.util.Optional;

/**
 * What offline gates need kept by the referee: each show's key pair (made once whatever the race),
 * its revocation list read from the tickets themselves, and the scans gates upload, kept once per
 * scan id and marking the tickets they admitted used for the online check. Thread-safe.
 */
public interface GateRepository {

    /** A show's stored key pair: the public key (X.509) and the sealed private key. */
    record StoredKey(byte[] publicKey, byte[] sealedKey) {
    }

    /** One scan as a gate made it, the ticket read from its signed code. */
    record Scan(String scanId, long bookingId, String seatId, int codeVersion, String verdict, long scannedAt) {
    }

    /** A scan of a ticket presented more than once. */
    record SeenScan(String scanId, String gateId, String verdict, long scannedAt) {
    }

    /** A ticket presented more than once (at one gate or several), with its scans in time order. */
    record Duplicate(long bookingId, String seatId, List<SeenScan> scans) {
    }

    /** The show's key pair, if it has one. */
    Optional<StoredKey> key(String showId);

    /** Stores {@code key} as the show's unless it has one; answers the show's key either way. */
    StoredKey keepKey(String showId, StoredKey key, long now);

    /**
     * The show's revoked codes: {@code bookingId/seatId/version} for each version a transfer replaced,
     * {@code bookingId/seatId/*} for a ticket of a booking refunded, cancelled or being cancelled.
     */
    List<String> revocations(String showId);

    /**
     * Records the scans not recorded before (by scan id) and answers how many were new; each ticket a
     * new admitting scan let in is marked used for the online check (its first admission known: the
     * earliest scan's time), if the code scanned is still the ticket's current one and its booking
     * still admits. A scan uploaded again, by a retry or a parallel upload, is neither recorded nor
     * counted twice.
     */
    int record(String showId, String gateId, List<Scan> scans, long now);

    /** The show's tickets presented more than once (admitting scans: ACCEPT or ALREADY_SCANNED_HERE). */
    List<Duplicate> duplicates(String showId);

    /** Whether a gate let the holder in with this verdict (the ticket was presented and admitted, there or before). */
    static boolean admitting(String verdict) {
        return verdict.equals("ACCEPT") || verdict.equals("ALREADY_SCANNED_HERE");
    }
}
