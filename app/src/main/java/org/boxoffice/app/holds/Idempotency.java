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
 * <p>Answers are remembered twice: on the grid (with a backup), where retries find them fast, and
 * in PostgreSQL ({@link IdempotencyReplies}), so that a key outlives a restart of the whole
 * cluster like the holds and payments it answers for. A request whose key the grid does not know
 * asks PostgreSQL once before it runs (if PostgreSQL cannot answer, the request is refused with 503
 * before it changes anything). What remains: a member that dies after the request changed something
 * and before its answer is written, or a whole-cluster restart right after a database outage that
 * kept the answer on the grid only, leaves the key unanswered, and a retry runs again.
 */
public final class Idempotency implements AutoCloseable {

    private static final long WAIT_FOR_FIRST_MILLIS = 5_000;
    private static final long IN_FLIGHT_TTL_SECONDS = 120;
    private static final long REMEMBER_HOURS = 24;
    private static final long REMEMBER_MILLIS = TimeUnit.HOURS.toMillis(REMEMBER_HOURS);

    private static final Logger LOG = Logger.getLogger(Idempotency.class.getName());
    private static final String CLUSTER_STARTED = "idempotency.cluster-started";

    private final IMap<String, StoredResponse> map;
    private final IdempotencyReplies durable;
    private final ScheduledExecutorService janitor = Daemons.scheduler("idempotency-janitor");
    private final LongSupplier clock;
    private final IMap<String, Long> cluster;
    /**
     * Until when a key may be known to PostgreSQL only: answers made before this grid cluster
     * started (a whole-cluster restart empties the grid's map) are honoured for 24 hours. 0 when
     * PostgreSQL held no such answer at start.
     */
    private volatile long durableOnlyUntil;

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
        durableOnlyUntil = latest == 0 ? 0 : latest + REMEMBER_MILLIS;
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
        // within a day of a whole-cluster restart, a key may be remembered by PostgreSQL only
        long now = clock.getAsLong();
        if (now >= durableOnlyUntil) {
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
     * @param key a {@linkplain #validKey valid} key
     */
    public Reply execute(String accountId, String key, String fingerprint, Supplier<Reply> action) {
        if (!validKey(key)) {
            throw new IllegalArgumentException(KEY_RULE);
        }
        String mapKey = accountId + "\u0000" + key;
        String hash = sha256(fingerprint);
        // the in-flight marker expires on its own: if the member running the first request dies,
        // a retry may run again after a while instead of answering "in progress" for a day
        StoredResponse existing = map.putIfAbsent(mapKey, new StoredResponse(hash, 0, null, clock.getAsLong()),
                IN_FLIGHT_TTL_SECONDS, TimeUnit.SECONDS);
        if (existing == null) {
            Reply reply;
            try {
                Optional<IdempotencyReplies.Reply> before =
                        durable.find(accountId, key, clock.getAsLong() - REMEMBER_MILLIS);
                if (before.isPresent()) {
                    // answered before the grid last started: the first answer stands
                    IdempotencyReplies.Reply b = before.get();
                    map.set(mapKey, new StoredResponse(b.requestHash(), b.status(), b.body(), b.createdAt()),
                            Math.max(1, b.createdAt() + REMEMBER_MILLIS - clock.getAsLong()), TimeUnit.MILLISECONDS);
                    if (!b.requestHash().equals(hash)) {
                        return reused();
                    }
                    return new Reply(b.status(), b.body());
                }
                reply = action.get();
                if (reply.status() < 500) {
                    reply = rememberDurably(accountId, key, hash, reply);
                }
            } catch (RuntimeException e) {
                map.remove(mapKey);
                throw e;
            }
            if (reply.status() >= 500) {
                map.remove(mapKey);
            } else {
                map.set(mapKey, new StoredResponse(hash, reply.status(), reply.body(), clock.getAsLong()),
                        REMEMBER_HOURS, TimeUnit.HOURS);
            }
            return reply;
        }
        if (!existing.requestHash().equals(hash)) {
            return reused();
        }
        long deadline = clock.getAsLong() + WAIT_FOR_FIRST_MILLIS;
        StoredResponse current = existing;
        while (current != null && current.inFlight() && clock.getAsLong() < deadline) {
            sleep();
            current = map.get(mapKey);
        }
        if (current == null) {
            return execute(accountId, key, fingerprint, action);
        }
        if (current.inFlight()) {
            return error(409, "REQUEST_IN_PROGRESS", "a request with this Idempotency-Key is still running");
        }
        return new Reply(current.status(), current.body());
    }

    /**
     * The answer as PostgreSQL keeps it (the first one recorded for the key wins). The request has
     * already done its work, so if PostgreSQL cannot take the answer now (an outage) the caller still
     * gets it, and the grid remembers it: a 503 here would say "nothing changed" about a hold that
     * exists.
     */
    private Reply rememberDurably(String accountId, String key, String hash, Reply reply) {
        try {
            IdempotencyReplies.Reply kept = durable.remember(accountId, key,
                    new IdempotencyReplies.Reply(hash, reply.status(), reply.body(), clock.getAsLong()),
                    clock.getAsLong() - REMEMBER_MILLIS);
            return new Reply(kept.status(), kept.body());
        } catch (RefereeException e) {
            LOG.log(Level.WARNING, "the answer to an Idempotency-Key is kept on the grid only: " + e.getMessage());
            return reply;
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
            Thread.sleep(25);
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
