package org.boxoffice.mapstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;
import org.boxoffice.domain.IdempotencyReplies;

import static org.boxoffice.mapstore.PostgresInventoryRepository.timestamp;

/**
 * The durable copy of answers to requests sent with an {@code Idempotency-Key} (migration V7), so a
 * key is honoured across a restart of the whole cluster for as long as it is remembered at all.
 * The first answer recorded for a key wins.
 *
 * <p>Answers remembered at the same time share one statement and one commit ({@link GroupLoad}):
 * in an on-sale every winner's answer is remembered, and one transaction each cost PostgreSQL a
 * commit per winner beside the holds' group commits. {@link #remember} still returns only once its
 * answer is durable, and each caller hears its own outcome: a batch that fails is applied again
 * one answer at a time. Thread-safe; the batching thread starts on first use and stops at
 * {@link #close}.
 */
public final class PostgresIdempotencyReplies implements IdempotencyReplies, AutoCloseable {

    /** The most answers in one statement. */
    static final int MAX_BATCH = 64;

    private final DataSource dataSource;
    private final GroupLoad<Remember, Kept> remembers;
    /** Answers remembered in a statement shared with others. */
    private final java.util.concurrent.atomic.LongAdder sharedAnswers = new java.util.concurrent.atomic.LongAdder();

    public PostgresIdempotencyReplies(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource);
        this.remembers = new GroupLoad<>("referee-idempotency-commit", this::rememberTogether, MAX_BATCH);
    }

    /** One answer waiting to be remembered; told apart by identity (two requests may carry equal ones). */
    private static final class Remember {
        final String accountId;
        final String key;
        final Reply reply;
        final long expiredBefore;

        Remember(String accountId, String key, Reply reply, long expiredBefore) {
            this.accountId = accountId;
            this.key = key;
            this.reply = reply;
            this.expiredBefore = expiredBefore;
        }

        String id() {
            return accountId + "\u0000" + key;
        }

        @Override
        public String toString() {
            return "the answer to Idempotency-Key " + key + " of " + accountId;
        }
    }

    /** How remembering one answer ended: the answer remembered now, or the failure its caller alone hears. */
    private record Kept(Reply reply, RuntimeException failure) {
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
        Kept kept = remembers.load(new Remember(accountId, key, reply, expiredBefore));
        if (kept.failure() != null) {
            throw kept.failure();
        }
        return kept.reply();
    }

    /**
     * Remembers a batch in one statement and one transaction: every answer that is new (or replaces
     * an expired one) is inserted, the others read back as remembered before. Two answers for one key
     * in a batch (the grid lost the first's in-flight mark) go one after the other instead, and a
     * batch that fails is applied one answer at a time, so that each caller hears its own outcome.
     */
    private Map<Remember, Kept> rememberTogether(List<Remember> batch) {
        Map<Remember, Kept> out = new HashMap<>();
        List<Remember> together = new ArrayList<>(batch.size());
        List<Remember> after = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (Remember r : batch) {
            (ids.add(r.id()) ? together : after).add(r);
        }
        if (together.size() > 1) {
            try {
                out.putAll(rememberMany(together));
            } catch (SQLException e) {
                out.clear(); // rolled back: each is remembered on its own below
                after.addAll(0, together);
            }
        } else {
            after.addAll(0, together);
        }
        for (Remember r : after) {
            try {
                out.put(r, new Kept(rememberOne(r), null));
            } catch (RuntimeException e) {
                out.put(r, new Kept(null, e));
            }
        }
        return out;
    }

    private Map<Remember, Kept> rememberMany(List<Remember> batch) throws SQLException {
        // an answer made before the earliest cut-off of the batch is replaced (the cut-offs differ by the milliseconds between the calls)
        long expiredBefore = batch.stream().mapToLong(r -> r.expiredBefore).min().orElseThrow();
        String insert = """
                INSERT INTO idempotency_replies (account_id, idem_key, request_hash, status, body, created_at)
                SELECT a, k, h, s, b, timestamptz 'epoch' + t * interval '1 millisecond'
                FROM unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::bigint[]) AS n(a, k, h, s, b, t)
                ON CONFLICT (account_id, idem_key) DO UPDATE
                    SET request_hash = excluded.request_hash, status = excluded.status, body = excluded.body,
                        created_at = excluded.created_at
                    WHERE idempotency_replies.created_at < ?
                RETURNING account_id, idem_key, request_hash, status, body, epoch_ms(created_at)""";
        String kept = """
                SELECT r.account_id, r.idem_key, r.request_hash, r.status, r.body, epoch_ms(r.created_at)
                FROM idempotency_replies r JOIN unnest(?::text[], ?::text[]) AS n(a, k) ON r.account_id = n.a AND r.idem_key = n.k""";
        Map<String, Remember> byId = new HashMap<>();
        batch.forEach(r -> byId.put(r.id(), r));
        Map<Remember, Kept> out = new HashMap<>();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                try (PreparedStatement ps = c.prepareStatement(insert)) {
                    ps.setArray(1, c.createArrayOf("text", batch.stream().map(r -> r.accountId).toArray()));
                    ps.setArray(2, c.createArrayOf("text", batch.stream().map(r -> r.key).toArray()));
                    ps.setArray(3, c.createArrayOf("text", batch.stream().map(r -> r.reply.requestHash()).toArray()));
                    ps.setArray(4, c.createArrayOf("int4", batch.stream().map(r -> r.reply.status()).toArray()));
                    ps.setArray(5, c.createArrayOf("text", batch.stream().map(r -> r.reply.body()).toArray()));
                    ps.setArray(6, c.createArrayOf("int8", batch.stream().map(r -> r.reply.createdAt()).toArray()));
                    ps.setObject(7, timestamp(expiredBefore), Types.TIMESTAMP_WITH_TIMEZONE);
                    collect(ps, byId, out);
                }
                if (out.size() < batch.size()) {
                    // the keys that kept an earlier answer: read in the same transaction, as the insert left them
                    List<Remember> left = batch.stream().filter(r -> !out.containsKey(r)).toList();
                    try (PreparedStatement ps = c.prepareStatement(kept)) {
                        ps.setArray(1, c.createArrayOf("text", left.stream().map(r -> r.accountId).toArray()));
                        ps.setArray(2, c.createArrayOf("text", left.stream().map(r -> r.key).toArray()));
                        collect(ps, byId, out);
                    }
                }
                c.commit();
                sharedAnswers.add(batch.size());
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
        for (Remember r : batch) {
            // a row gone between the insert and the read (forgotten meanwhile): the answer given stands
            out.putIfAbsent(r, new Kept(r.reply, null));
        }
        return out;
    }

    private static void collect(PreparedStatement ps, Map<String, Remember> byId, Map<Remember, Kept> out)
            throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                Remember r = byId.get(rs.getString(1) + "\u0000" + rs.getString(2));
                if (r != null) {
                    out.put(r, new Kept(new Reply(rs.getString(3), rs.getInt(4), rs.getString(5), rs.getLong(6)), null));
                }
            }
        }
    }

    /** Remembers one answer in a transaction of its own. */
    private Reply rememberOne(Remember r) {
        String sql = """
                INSERT INTO idempotency_replies (account_id, idem_key, request_hash, status, body, created_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (account_id, idem_key) DO UPDATE
                    SET request_hash = excluded.request_hash, status = excluded.status, body = excluded.body,
                        created_at = excluded.created_at
                    WHERE idempotency_replies.created_at < ?
                RETURNING request_hash, status, body, epoch_ms(created_at)""";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, r.accountId);
            ps.setString(2, r.key);
            ps.setString(3, r.reply.requestHash());
            ps.setInt(4, r.reply.status());
            ps.setString(5, r.reply.body());
            ps.setObject(6, timestamp(r.reply.createdAt()), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setObject(7, timestamp(r.expiredBefore), Types.TIMESTAMP_WITH_TIMEZONE);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return new Reply(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getLong(4));
                }
            }
        } catch (SQLException e) {
            throw new DatabaseException("remembering the answer to an Idempotency-Key", e);
        }
        return find(r.accountId, r.key, r.expiredBefore).orElse(r.reply);
    }

    /** Answers remembered in batches so far: batches and answers (tests). */
    GroupLoad.Stats batches() {
        return remembers.stats();
    }

    /** Answers remembered so far in a statement shared with others (tests). */
    long sharedAnswers() {
        return sharedAnswers.sum();
    }

    /** Stops the batching thread; answers still queued fail (their requests keep them on the grid only). */
    @Override
    public void close() {
        remembers.close();
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
