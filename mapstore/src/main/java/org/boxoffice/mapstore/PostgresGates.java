package org.boxoffice.mapstore;

import org.boxoffice.domain.GateRepository;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import javax.sql.DataSource;

import static org.boxoffice.mapstore.PostgresInventoryRepository.timestamp;

/**
 * What offline gates need from PostgreSQL (migration V20): a show's key pair, made once whatever the
 * race ({@code INSERT ... ON CONFLICT DO NOTHING}, then read what won), its revocation list read from
 * the tickets themselves, and uploaded scans kept once per scan id (the primary key decides between
 * parallel uploads) and marking the tickets they admitted used for the online check. Thread-safe; one
 * pooled connection per call.
 */
public final class PostgresGates implements GateRepository {

    private final DataSource dataSource;

    public PostgresGates(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource);
    }

    @Override
    public Optional<StoredKey> key(String showId) {
        return Transactions.inTransaction(dataSource, "reading show " + showId + "'s gate key", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT public_key, sealed_key FROM show_gate_keys WHERE show_id = ?")) {
                ps.setString(1, showId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(new StoredKey(rs.getBytes(1), rs.getBytes(2))) : Optional.<StoredKey>empty();
                }
            }
        });
    }

    @Override
    public StoredKey keepKey(String showId, StoredKey key, long now) {
        Transactions.inTransaction(dataSource, "storing show " + showId + "'s gate key", c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO show_gate_keys (show_id, public_key, sealed_key, created_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (show_id) DO NOTHING""")) {
                ps.setString(1, showId);
                ps.setBytes(2, key.publicKey());
                ps.setBytes(3, key.sealedKey());
                ps.setObject(4, timestamp(now));
                return ps.executeUpdate();
            }
        });
        return key(showId).orElseThrow();
    }

    @Override
    public List<String> revocations(String showId) {
        return Transactions.inSnapshot(dataSource, "reading show " + showId + "'s revocations", c -> {
            List<String> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT bs.booking_id, bs.seat_id, bs.code_version, b.status = 'CONFIRMED' AND NOT b.cancelling AND bs.live
                    FROM booking_seats bs JOIN bookings b ON b.booking_id = bs.booking_id
                    WHERE bs.show_id = ? AND (bs.code_version > 0 OR NOT (b.status = 'CONFIRMED' AND NOT b.cancelling AND bs.live))
                    ORDER BY bs.booking_id, bs.seat_id""")) {
                ps.setString(1, showId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String ticket = rs.getLong(1) + "/" + rs.getString(2) + "/";
                        if (!rs.getBoolean(4)) {
                            out.add(ticket + "*");
                        } else {
                            for (int v = 0; v < rs.getInt(3); v++) {
                                out.add(ticket + v);
                            }
                        }
                    }
                }
            }
            return out;
        });
    }

    /**
     * Records the scans not recorded before (by scan id) and answers how many were new; in the same
     * transaction, each ticket a new admitting scan let in is marked used for the online check (its
     * first admission known: the earliest scan's time), if the code scanned is still the ticket's
     * current one and its booking still admits. A scan uploaded again, by a retry or a parallel
     * upload, is neither recorded nor counted twice: the primary key decides. Scans are inserted in
     * scan id order and tickets marked after, in ticket order, so parallel uploads wait for each other
     * rather than deadlock.
     */
    @Override
    public int record(String showId, String gateId, List<Scan> scans, long now) {
        List<Scan> ordered = scans.stream().sorted(Comparator.comparing(Scan::scanId)).toList();
        return Transactions.inTransaction(dataSource, "recording scans of show " + showId, c -> {
            Map<String, Scan> admitted = new TreeMap<>();
            int added = 0;
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO gate_scans (scan_id, show_id, gate_id, booking_id, seat_id, code_version, verdict,
                                            scanned_at, uploaded_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scan_id) DO NOTHING""")) {
                for (Scan s : ordered) {
                    ps.setString(1, s.scanId());
                    ps.setString(2, showId);
                    ps.setString(3, gateId);
                    ps.setLong(4, s.bookingId());
                    ps.setString(5, s.seatId());
                    ps.setInt(6, s.codeVersion());
                    ps.setString(7, s.verdict());
                    ps.setObject(8, timestamp(s.scannedAt()));
                    ps.setObject(9, timestamp(now));
                    // one by one: a batch may answer "done, count unknown", and the count is the answer here
                    int inserted = ps.executeUpdate();
                    added += inserted;
                    if (inserted == 1 && GateRepository.admitting(s.verdict())) {
                        admitted.merge(s.bookingId() + "/" + s.seatId() + "/" + s.codeVersion(), s,
                                (x, y) -> x.scannedAt() <= y.scannedAt() ? x : y);
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE booking_seats bs SET used_at = ?
                    FROM bookings b WHERE b.booking_id = bs.booking_id AND b.status = 'CONFIRMED' AND NOT b.cancelling
                      AND bs.booking_id = ? AND bs.show_id = ? AND bs.seat_id = ? AND bs.live AND bs.code_version = ?
                      AND (bs.used_at IS NULL OR bs.used_at > ?)""")) {
                for (Scan s : admitted.values()) {
                    ps.setObject(1, timestamp(s.scannedAt()));
                    ps.setLong(2, s.bookingId());
                    ps.setString(3, showId);
                    ps.setString(4, s.seatId());
                    ps.setInt(5, s.codeVersion());
                    ps.setObject(6, timestamp(s.scannedAt()));
                    ps.executeUpdate();
                }
            }
            return added;
        });
    }

    @Override
    public List<Duplicate> duplicates(String showId) {
        return Transactions.inSnapshot(dataSource, "reading show " + showId + "'s duplicate scans", c -> {
            Map<String, Duplicate> out = new LinkedHashMap<>();
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT s.booking_id, s.seat_id, s.scan_id, s.gate_id, s.verdict, epoch_ms(s.scanned_at)
                    FROM gate_scans s
                    WHERE s.show_id = ? AND s.verdict IN ('ACCEPT', 'ALREADY_SCANNED_HERE')
                      AND (s.booking_id, s.seat_id) IN (
                          SELECT booking_id, seat_id FROM gate_scans
                          WHERE show_id = ? AND verdict IN ('ACCEPT', 'ALREADY_SCANNED_HERE')
                          GROUP BY booking_id, seat_id HAVING count(*) > 1)
                    ORDER BY s.booking_id, s.seat_id, s.scanned_at, s.scan_id""")) {
                ps.setString(1, showId);
                ps.setString(2, showId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        long booking = rs.getLong(1);
                        String seat = rs.getString(2);
                        out.computeIfAbsent(booking + "/" + seat, k -> new Duplicate(booking, seat, new ArrayList<>()))
                                .scans().add(new SeenScan(rs.getString(3), rs.getString(4), rs.getString(5), rs.getLong(6)));
                    }
                }
            }
            return List.copyOf(out.values());
        });
    }
}
