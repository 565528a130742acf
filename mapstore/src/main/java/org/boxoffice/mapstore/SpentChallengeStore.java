package org.boxoffice.mapstore;

import org.boxoffice.grid.limits.SpentChallenges;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The door's spent challenges on the referee (nonce and expiry, epoch ms): a challenge the grid
 * sees for the first time is inserted here too, and refused if its row was already there (spent
 * before the grid lost its entry). Rows of challenges expired for two minutes are deleted now and
 * then by whichever member spends one.
 */
public final class SpentChallengeStore implements SpentChallenges.Ledger {

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
    public boolean firstUse(String nonce, long expiresAt) {
        boolean first;
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO spent_challenges (nonce, expires_at_ms) VALUES (?, ?) ON CONFLICT DO NOTHING")) {
            ps.setString(1, nonce);
            ps.setLong(2, expiresAt);
            first = ps.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new DatabaseException("could not record a spent challenge", e);
        }
        purgeIfDue();
        return first;
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
