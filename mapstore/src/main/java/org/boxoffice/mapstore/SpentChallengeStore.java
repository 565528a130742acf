package org.boxoffice.mapstore;

import com.hazelcast.map.MapStore;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Write-through store of the door's spent challenges (nonce to expiry, epoch ms): the grid's
 * {@code putIfAbsent} loads a nonce it does not hold from here first, so a challenge spent
 * before the grid lost its entry is still refused. Rows of challenges expired for more than the
 * grid's skew allowance are deleted now and then by whichever member stores.
 */
public final class SpentChallengeStore implements MapStore<String, Long> {

    private static final long PURGE_EVERY_MILLIS = 60_000;
    private static final long KEEP_AFTER_EXPIRY_MILLIS = 120_000;

    private final DataSource dataSource;
    private final LongSupplier clock;
    private final AtomicLong lastPurge = new AtomicLong();

    public SpentChallengeStore(DataSource dataSource, LongSupplier clock) {
        this.dataSource = dataSource;
        this.clock = clock;
    }

    @Override
    public void store(String nonce, Long expiresAt) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO spent_challenges (nonce, expires_at_ms) VALUES (?, ?) ON CONFLICT DO NOTHING")) {
            ps.setString(1, nonce);
            ps.setLong(2, expiresAt);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new DatabaseException("could not record a spent challenge", e);
        }
        purgeIfDue();
    }

    @Override
    public void storeAll(Map<String, Long> map) {
        map.forEach(this::store);
    }

    @Override
    public void delete(String key) {
        // a spent challenge stays spent until it expires; the purge removes it after that
    }

    @Override
    public void deleteAll(Collection<String> keys) {
    }

    @Override
    public Long load(String nonce) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT expires_at_ms FROM spent_challenges WHERE nonce = ?")) {
            ps.setString(1, nonce);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        } catch (SQLException e) {
            throw new DatabaseException("could not read a spent challenge", e);
        }
    }

    @Override
    public Map<String, Long> loadAll(Collection<String> keys) {
        Map<String, Long> out = new HashMap<>();
        for (String k : keys) {
            Long v = load(k);
            if (v != null) {
                out.put(k, v);
            }
        }
        return out;
    }

    @Override
    public Iterable<String> loadAllKeys() {
        return null;
    }

    private void purgeIfDue() {
        long now = clock.getAsLong();
        long last = lastPurge.get();
        if (now - last < PURGE_EVERY_MILLIS || !lastPurge.compareAndSet(last, now)) {
            return;
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "DELETE FROM spent_challenges WHERE expires_at_ms < ?")) {
            ps.setLong(1, now - KEEP_AFTER_EXPIRY_MILLIS);
            ps.executeUpdate();
        } catch (SQLException e) {
            // the next purge takes them; a spent challenge kept too long is still refused, which is right
        }
    }
}
