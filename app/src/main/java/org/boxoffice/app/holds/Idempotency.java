package org.boxoffice.app.holds;

import org.boxoffice.grid.Daemons;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import org.boxoffice.app.http.JsonBytes;
import org.boxoffice.grid.GridMaps;
import org.boxoffice.grid.StoredResponse;
import org.boxoffice.domain.IdempotencyReplies;
import org.boxoffice.domain.RefereeException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs a request once per account and {@code Idempotency-Key}, and answers retries with the
 * remembered response for 24 hours. The same key with a different request is refused with 422; a
 * retry that arrives while the first is still running waits for it. Server failures (5xx) are not
 * remembered, so a retry after one runs again.
 *
 * <p>Every key is known twice: the grid keeps a mark (with a backup) for as long as the key is
 * honoured, which tells a retry that the key was used and for which request, and PostgreSQL
 * ({@link IdempotencyReplies}) keeps the answer, so that a key outlives a restart of the whole
 * cluster like the holds and payments it answers for. A retry reads the answer from PostgreSQL
 * (an answer PostgreSQL could not take, in an outage, is kept on the grid instead). The grid knows
 * every key PostgreSQL knows, unless it forgot some: so a request whose key the grid does not know
 * asks PostgreSQL before it runs only for the 24 hours after the grid may have forgotten keys (if
 * PostgreSQL cannot answer then, the request is refused with 503 before it changes anything). The
 * grid forgets keys
 * <ul>
 *   <li>when the whole cluster restarts (an empty grid): every member learns at its start when the
 *       cluster started and the latest answer PostgreSQL kept before;
 *   <li>when a partition of the marks is lost with its backups (more members lost at once than
 *       the backup count), or a mark is evicted (a member at the map's size limit): every member
 *       hears of it, and the time is kept on the grid for members that join later;
 *   <li>when an answer PostgreSQL could not take could not be written to the grid either.
 * </ul>
 * So a new key costs one write to the grid and one to PostgreSQL (shared with the answers remembered
 * at the same time), and no read. What remains: a member that dies after the request changed
 * something and before its answer is written, or a whole-cluster restart right after a database
 * outage that kept the answer on the grid only, leaves the key unanswered, and a retry runs again
 * (a mark left without an answer for two minutes is taken for a request that died).
 */
public final class Idempotency implements AutoCloseable {

    private static final long WAIT_FOR_FIRST_MILLIS = 5_000;
    /** A mark this old without an answer is a request that died with its member. */
    private static final long ABANDONED_AFTER_MILLIS = 120_000;
    private static final long REMEMBER_HOURS = 24;
    private static final long REMEMBER_MILLIS = TimeUnit.HOURS.toMillis(REMEMBER_HOURS);

    private static final Logger LOG = Logger.getLogger(Idempotency.class.getName());
    private static final String CLUSTER_STARTED = "idempotency.cluster-started";
    /** Until when the grid may lack answers PostgreSQL keeps, after it forgot some while running ({@link #forgot}). */
    private static final String FORGOTTEN_UNTIL = "idempotency.forgotten-until";

    private final IMap<String, StoredResponse> map;
    private final IdempotencyReplies durable;
    private final ScheduledExecutorService janitor = Daemons.scheduler("idempotency-janitor");
    private final LongSupplier clock;
    private final IMap<String, Long> cluster;
    /**
     * Until when a key may be known to PostgreSQL only: answers made before this grid cluster
     * started (a whole-cluster restart empties the grid's map), or before the grid forgot some, are
     * honoured for 24 hours. 0 when PostgreSQL held no such answer at start and nothing was forgotten.
     */
    private final java.util.concurrent.atomic.AtomicLong durableOnlyUntil = new java.util.concurrent.atomic.AtomicLong();
    /** Until when this member last told the grid that answers were forgotten. */
    private volatile long toldUntil;

    public Idempotency(HazelcastInstance hz, IdempotencyReplies durable, LongSupplier clock) {
        this.map = hz.getMap(GridMaps.IDEMPOTENCY);
        this.cluster = hz.getMap(GridMaps.CLUSTER);
        this.durable = durable;
        this.clock = clock;
    }

    /** Forgets the durable answers older than the 24 hours keys are honoured. */
    public int forgetExpired() {
        return durable.forgetBefore(clock.getAsLong() - REMEMBER_MILLIS);
    }

    /**
     * Forgets expired durable answers every hour from now on (any member may; deleting twice is
     * harmless), and learns how long keys from before this cluster started may be in PostgreSQL only:
     * every member reads the cluster's start from the grid (the first member wrote it), so they all
     * agree, and a member joining a running cluster does not start asking PostgreSQL again.
     */
    public Idempotency start() {
        long now = clock.getAsLong();
        Long started = cluster.putIfAbsent(CLUSTER_STARTED, now);
        long latest = durable.latestBefore(started == null ? now : started);
        durableOnlyUntil.accumulateAndGet(latest == 0 ? 0 : latest + REMEMBER_MILLIS, Math::max);
        // answers the grid forgot while it ran, as the members then told it
        map.addPartitionLostListener(event -> forgot("partition " + event.getPartitionId()
                + " of the answers was lost with its backups"));
        map.addEntryListener((com.hazelcast.map.listener.EntryEvictedListener<String, StoredResponse>) event ->
                forgot("an answer was evicted (the map is at its size limit)"), false);
        Long forgotten = cluster.get(FORGOTTEN_UNTIL);
        if (forgotten != null) {
            durableOnlyUntil.accumulateAndGet(forgotten, Math::max);
        }
        janitor.scheduleWithFixedDelay(() -> {
            try {
                forgetExpired();
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "could not forget expired Idempotency-Key answers now", e);
            }
        }, 1, 1, TimeUnit.HOURS);
        return this;
    }

    @Override
    public void close() {
        janitor.shutdownNow();
    }

    /**
     * The grid forgot answers PostgreSQL keeps: for the 24 hours they are honoured, a key the grid
     * does not know is asked of PostgreSQL. Called on Hazelcast's event threads: the grid is told
     * (for members that join later) on the janitor's thread, once a minute at most.
     */
    private void forgot(String why) {
        long until = clock.getAsLong() + REMEMBER_MILLIS;
        durableOnlyUntil.accumulateAndGet(until, Math::max);
        if (until - toldUntil < 60_000) {
            return;
        }
        toldUntil = until;
        LOG.warning(() -> "the grid forgot answers to Idempotency-Keys (" + why + "): for 24 hours, keys the grid does "
                + "not know are asked of PostgreSQL before their request runs");
        try {
            janitor.execute(() -> {
                try {
                    cluster.set(FORGOTTEN_UNTIL, until); // every member tells the same day's end, give or take its clock
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "could not tell the grid that answers were forgotten; members that join "
                            + "later ask PostgreSQL only for answers from before their cluster started", e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closing
        }
    }

    /** Whether a key the grid does not know may have an answer in PostgreSQL only (package-visible for tests). */
    boolean mayBeDurableOnly(long now) {
        return now < durableOnlyUntil.get();
    }

    /** A response to send: status and JSON body. */
    public record Reply(int status, String body) {
    }

    /**
     * Whether a request with this key is running or remembered (one read, no write, no backup).
     * A request under a new key that the fast gate refuses is not remembered at all: it changed
     * nothing, and a retry is decided afresh.
     */
    public boolean known(String accountId, String key) {
        if (key.isEmpty() || key.length() > 255) {
            return false;
        }
        if (map.containsKey(accountId + "\u0000" + key)) {
            return true;
        }
        // within a day of a whole-cluster restart or of answers the grid forgot, a key may be remembered by PostgreSQL only
        long now = clock.getAsLong();
        if (!mayBeDurableOnly(now)) {
            return false;
        }
        try {
            return durable.find(accountId, key, now - REMEMBER_MILLIS).isPresent();
        } catch (RefereeException e) {
            // PostgreSQL is out: the fast gate's refusal changes nothing, so it may stand
            return false;
        }
    }

    /** Whether {@code key} can be an Idempotency-Key: 1 to 255 characters ({@link #KEY_RULE}). */
    public static boolean validKey(String key) {
        return !key.isEmpty() && key.length() <= 255;
    }

    /** What {@link #validKey} asks, for the 400 a service answers to a bad key. */
    public static final String KEY_RULE = "Idempotency-Key must be 1 to 255 characters";

    /**
     * Runs {@code action} once per key: a retry gets the first answer. A key reused for another
     * request is answered 422 {@code IDEMPOTENCY_KEY_REUSED}, a retry while the first request still
     * runs 409 {@code REQUEST_IN_PROGRESS}; neither runs the action.
     *
     * <p>The first request leaves a mark on the grid for as long as the key is honoured, and its
     * answer in PostgreSQL: a retry finds the mark and reads the answer there. Only an answer
     * PostgreSQL could not take (an outage) is written to the grid in the mark's place. Before, every
     * answer was also written to the grid (one more write with its backup for every keyed request,
     * in an on-sale every winner's) for the sake of retries, which are rare.
     *
     * @param key a {@linkplain #validKey valid} key
     */
    public Reply execute(String accountId, String key, String fingerprint, Supplier<Reply> action) {
        if (!validKey(key)) {
            throw new IllegalArgumentException(KEY_RULE);
        }
        String mapKey = accountId + "\u0000" + key;
        String hash = sha256(fingerprint);
        StoredResponse mark = new StoredResponse(hash, 0, null, clock.getAsLong());
        StoredResponse existing = map.putIfAbsent(mapKey, mark, REMEMBER_HOURS, TimeUnit.HOURS);
        if (existing == null) {
            return runFirst(accountId, key, mapKey, mark, action);
        }
        if (!existing.requestHash().equals(hash)) {
            return reused();
        }
        return answerOf(accountId, key, fingerprint, mapKey, existing, action);
    }

    /** Runs the first request under a key, whose mark is on the grid now. */
    private Reply runFirst(String accountId, String key, String mapKey, StoredResponse mark, Supplier<Reply> action) {
        String hash = mark.requestHash();
        Reply reply;
        boolean inPostgres;
        try {
            long now = clock.getAsLong();
            Optional<IdempotencyReplies.Reply> before = mayBeDurableOnly(now)
                    ? durable.find(accountId, key, now - REMEMBER_MILLIS) : Optional.empty();
            if (before.isPresent()) {
                // answered before the grid last forgot answers: the first answer stands
                IdempotencyReplies.Reply b = before.get();
                map.set(mapKey, new StoredResponse(b.requestHash(), b.status(), b.body(), b.createdAt()),
                        Math.max(1, b.createdAt() + REMEMBER_MILLIS - clock.getAsLong()), TimeUnit.MILLISECONDS);
                if (!b.requestHash().equals(hash)) {
                    return reused();
                }
                return new Reply(b.status(), b.body());
            }
            reply = action.get();
            Optional<Reply> kept = reply.status() < 500 ? rememberDurably(accountId, key, hash, reply) : Optional.empty();
            inPostgres = kept.isPresent();
            reply = kept.orElse(reply);
        } catch (RuntimeException e) {
            map.remove(mapKey, mark);
            throw e;
        }
        if (reply.status() >= 500) {
            map.remove(mapKey, mark); // not remembered: a retry runs again
        } else if (!inPostgres) {
            // PostgreSQL could not take the answer: the grid keeps it instead of the mark
            try {
                map.set(mapKey, new StoredResponse(hash, reply.status(), reply.body(), clock.getAsLong()),
                        REMEMBER_HOURS, TimeUnit.HOURS);
            } catch (RuntimeException e) {
                forgot("an answer could not be written to the grid: " + e.getMessage());
                throw e;
            }
        }
        return reply;
    }

    /**
     * The answer to a request whose key has a mark (or an answer) on the grid: the answer kept on
     * the grid, else the one PostgreSQL keeps, else, while the first request still runs, a wait of
     * up to {@value #WAIT_FOR_FIRST_MILLIS} ms for it. A mark left {@value #ABANDONED_AFTER_MILLIS} ms
     * ago without an answer belongs to a request that died with its member: the request runs again.
     */
    private Reply answerOf(String accountId, String key, String fingerprint, String mapKey, StoredResponse seen,
                           Supplier<Reply> action) {
        long deadline = clock.getAsLong() + WAIT_FOR_FIRST_MILLIS;
        StoredResponse current = seen;
        while (true) {
            if (current == null) {
                return execute(accountId, key, fingerprint, action); // the first ended without an answer (5xx)
            }
            if (!current.inFlight()) {
                return new Reply(current.status(), current.body());
            }
            long now = clock.getAsLong();
            Optional<IdempotencyReplies.Reply> kept = durable.find(accountId, key, now - REMEMBER_MILLIS);
            if (kept.isPresent()) {
                IdempotencyReplies.Reply k = kept.get();
                return k.requestHash().equals(current.requestHash()) ? new Reply(k.status(), k.body()) : reused();
            }
            if (now - current.createdAt() >= ABANDONED_AFTER_MILLIS) {
                StoredResponse again = new StoredResponse(current.requestHash(), 0, null, now);
                if (map.replace(mapKey, current, again)) {
                    LOG.info(() -> "a request under Idempotency-Key " + key + " left no answer in "
                            + ABANDONED_AFTER_MILLIS / 1000 + " s: it runs again");
                    return runFirst(accountId, key, mapKey, again, action);
                }
            } else if (now >= deadline) {
                return error(409, "REQUEST_IN_PROGRESS", "a request with this Idempotency-Key is still running");
            }
            sleep();
            current = map.get(mapKey);
            if (current != null && !current.requestHash().equals(seen.requestHash())) {
                return reused(); // another request took the key meanwhile
            }
        }
    }

    /**
     * The answer as PostgreSQL keeps it (the first one recorded for the key wins). The request has
     * already done its work, so if PostgreSQL cannot take the answer now (an outage) the caller still
     * gets it, and the grid remembers it: a 503 here would say "nothing changed" about a hold that
     * exists.
     */
    private Optional<Reply> rememberDurably(String accountId, String key, String hash, Reply reply) {
        try {
            IdempotencyReplies.Reply kept = durable.remember(accountId, key,
                    new IdempotencyReplies.Reply(hash, reply.status(), reply.body(), clock.getAsLong()),
                    clock.getAsLong() - REMEMBER_MILLIS);
            return Optional.of(new Reply(kept.status(), kept.body()));
        } catch (RefereeException e) {
            LOG.log(Level.WARNING, "the answer to an Idempotency-Key is kept on the grid only: " + e.getMessage());
            return Optional.empty();
        }
    }

    private static Reply reused() {
        return error(422, "IDEMPOTENCY_KEY_REUSED", "this Idempotency-Key was used for a different request; use a new key");
    }

    private static Reply error(int status, String code, String message) {
        return new Reply(status, new String(new JsonBytes().field("error", code).field("message", message).toBytes(),
                StandardCharsets.UTF_8));
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
