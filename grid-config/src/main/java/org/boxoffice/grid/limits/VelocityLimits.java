package org.boxoffice.grid.limits;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * Token buckets in the grid ({@value #MAP}), so a limit holds whatever member a request reaches:
 * a client that spreads its requests over n members is limited exactly as on one. Each take is
 * one entry processor on the key's partition ({@link TakeTokenProcessor}); two keys (an account
 * and an address) are taken in parallel, so a request waits for one round trip, not two.
 *
 * <p>Keys are namespaced by the caller ({@code "hold:acct:alice"}, {@code "door:addr:10.0.0.7"}).
 * Buckets live without backups and lapse after {@value #IDLE_SECONDS} s unused: a full bucket and
 * a missing one are the same, so a member's loss (its buckets with it) can only forgive a minute's
 * count, never block anyone. A backup would cost a message to another member at every take, for
 * state whose loss costs that little.
 */
public final class VelocityLimits {

    public static final String MAP = "velocity";
    /** A bucket unused this long is full again anyway, so it may go. */
    public static final int IDLE_SECONDS = 90;
    private static final long WAIT_SECONDS = 10;

    private final IMap<String, RateBucket> buckets;
    private final LongSupplier clock;

    public VelocityLimits(HazelcastInstance hz, LongSupplier clock) {
        this.buckets = hz.getMap(MAP);
        this.clock = clock;
    }

    /** Takes a token for {@code key}; 0 if allowed, else the milliseconds to wait. {@code perMinute <= 0}: no limit. */
    public long take(String key, int perMinute) {
        if (perMinute <= 0) {
            return 0;
        }
        return buckets.executeOnKey(key, new TakeTokenProcessor(perMinute, clock.getAsLong()));
    }

    /**
     * Starts taking a token for {@code key}: the answer (0 if allowed, else the milliseconds to
     * wait) comes later, so the caller may go on meanwhile; {@link #await} waits for it.
     */
    public CompletionStage<Long> takeAsync(String key, int perMinute) {
        if (perMinute <= 0) {
            return java.util.concurrent.CompletableFuture.completedFuture(0L);
        }
        return buckets.submitToKey(key, new TakeTokenProcessor(perMinute, clock.getAsLong()));
    }

    /**
     * Takes a token from each of two buckets at once (both are taken, so each counts the request);
     * returns the longer wait, 0 if both allow it.
     */
    public long take(String first, int firstPerMinute, String second, int secondPerMinute) {
        if (firstPerMinute <= 0) {
            return take(second, secondPerMinute);
        }
        if (secondPerMinute <= 0) {
            return take(first, firstPerMinute);
        }
        long now = clock.getAsLong();
        CompletionStage<Long> a = buckets.submitToKey(first, new TakeTokenProcessor(firstPerMinute, now));
        CompletionStage<Long> b = buckets.submitToKey(second, new TakeTokenProcessor(secondPerMinute, now));
        return Math.max(await(a), await(b));
    }

    /** Waits for an answer of {@link #takeAsync}, at most {@value #WAIT_SECONDS} s. */
    public static long await(CompletionStage<Long> stage) {
        try {
            return stage.toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while taking a token", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the velocity limits did not answer within " + WAIT_SECONDS + " s", e);
        }
    }
}
