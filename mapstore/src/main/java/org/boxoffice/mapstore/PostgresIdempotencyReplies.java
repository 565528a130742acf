package org.boxoffice.mapstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.boxoffice.domain.IdempotencyReplies;

import static org.boxoffice.mapstore.PostgresInventoryRepository.timestamp;

/**
 * The durable copy of answers to requests sent with an {@code Idempotency-Key} (migration V7), so a
 * key is honoured across a restart of the whole cluster for as long as it is remembered at all.
 * The first answer recorded for a key wins. Thread-safe; one pooled connection per call.
 */
public final class PostgresIdempotencyReplies implements IdempotencyReplies {

    private final DataSource dataSource;

    public PostgresIdempotencyReplies(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource);
    }

    @Override
    public Optional<Reply> find(String accountId, String key, long notBefore) {
        String sql = """
                SELECT request_hash, status, body, epoch_ms(created_at) FROM idempotency_replies
                WHERE account_id = ? AND idem_key = ? AND created_at >= ?""";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, accountId);
            ps.setString(2, key);
            ps.setObject(3, timestamp(notBefore), Types.TIMESTAMP_WITH_TIMEZONE);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new Reply(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getLong(4)))
                        : Optional.empty();
            }
        } catch (SQLException e) {
            throw new DatabaseException("reading the answer remembered for an Idempotency-Key", e);
        }
    }

    @Override
    public Reply remember(String accountId, String key, Reply reply, long expiredBefore) {
        String sql = """
                INSERT INTO idempotency_replies (account_id, idem_key, request_hash, status, body, created_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (account_id, idem_key) DO UPDATE
                    SET request_hash = excluded.request_hash, status = excluded.status, body = excluded.body,
                        created_at = excluded.created_at
                    WHERE idempotency_replies.created_at < ?
                RETURNING request_hash, status, body, epoch_ms(created_at)""";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, accountId);
            ps.setString(2, key);
            ps.setString(3, reply.requestHash());
            ps.setInt(4, reply.status());
            ps.setString(5, reply.body());
            ps.setObject(6, timestamp(reply.createdAt()), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setObject(7, timestamp(expiredBefore), Types.TIMESTAMP_WITH_TIMEZONE);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return new Reply(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getLong(4));
                }
            }
        } catch (SQLException e) {
            throw new DatabaseException("remembering the answer to an Idempotency-Key", e);
        }
        return find(accountId, key, expiredBefore).orElse(reply);
    }

    @Override
    public int forgetBefore(long before) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("DELETE FROM idempotency_replies WHERE created_at < ?")) {
            ps.setObject(1, timestamp(before), Types.TIMESTAMP_WITH_TIMEZONE);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new DatabaseException("forgetting old Idempotency-Key answers", e);
        }
    }

    @Override
    public long latestBefore(long before) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "SELECT coalesce(epoch_ms(max(created_at)), 0) FROM idempotency_replies WHERE created_at < ?")) {
            ps.setObject(1, timestamp(before), Types.TIMESTAMP_WITH_TIMEZONE);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new DatabaseException("reading when the last Idempotency-Key answer was made", e);
        }
    }
}
