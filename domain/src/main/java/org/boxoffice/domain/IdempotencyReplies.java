package org.boxoffice.domain;

import java.util.Optional;

/**
 * The durable copy of answers to requests sent with an {@code Idempotency-Key}, so a key is
 * honoured across a restart of the whole cluster for as long as it is remembered at all. The first
 * answer recorded for a key wins. Thread-safe.
 */
public interface IdempotencyReplies {

    /** A remembered answer: the request's fingerprint, the status and body answered, when (epoch ms). */
    record Reply(String requestHash, int status, String body, long createdAt) {
    }

    /** The answer remembered for {@code key} of {@code accountId} since {@code notBefore}, if any. */
    Optional<Reply> find(String accountId, String key, long notBefore);

    /**
     * Remembers {@code reply} for {@code key} of {@code accountId} unless an answer is remembered
     * already (one made before {@code expiredBefore} is replaced); returns the answer remembered now.
     */
    Reply remember(String accountId, String key, Reply reply, long expiredBefore);

    /** Forgets answers remembered before {@code before}; returns how many. */
    int forgetBefore(long before);

    /** When the latest answer remembered before {@code before} was made (epoch millis), or 0 if none. */
    long latestBefore(long before);
}
