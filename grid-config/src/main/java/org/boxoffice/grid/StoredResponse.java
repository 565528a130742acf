package org.boxoffice.grid;

/**
 * A response remembered under an idempotency key, with a fingerprint of the request that produced
 * it, so a retry with the same key and body gets the same answer and another body is refused.
 *
 * @param requestHash fingerprint of method, path and body
 * @param status      HTTP status, or 0 while the first request is still running
 * @param body        the JSON body that was sent
 */
public record StoredResponse(String requestHash, int status, String body, long createdAt) {

    public boolean inFlight() {
        return status == 0;
    }
}
