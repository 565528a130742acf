package org.boxoffice.app.http;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Who may keep an answer, and for how long: the one place that writes {@code Cache-Control},
 * {@code ETag} and 304s.
 *
 * <ul>
 *   <li>Every {@code /v1} answer is {@code no-store} unless its handler says otherwise, so nothing
 *       personal (holds, bookings, tickets, queue places) is ever kept by a browser or a CDN.
 *   <li>Public reads ({@link #sendPublic}) say {@code public, max-age, stale-while-revalidate} and
 *       carry a strong ETag; an {@code If-None-Match} naming it (or {@code *}) gets a 304.
 *   <li>A request that carries a bearer token never gets a publicly cacheable answer, even from a
 *       public read: it gets {@code private, no-store}.
 * </ul>
 */
public final class HttpCaching {

    /** What personal and changing answers say: nobody keeps them. */
    public static final String NO_STORE = "no-store";
    /** What a public read says to a request that carries a token. */
    public static final String PRIVATE = "private, no-store";

    private HttpCaching() {
    }

    /**
     * How long a public read may be kept: {@code maxAge} seconds fresh, then served stale for up
     * to {@code staleWhileRevalidate} more seconds while a cache fetches a new copy in the background.
     */
    public record Policy(long maxAge, long staleWhileRevalidate) {

        public Policy {
            if (maxAge < 0 || staleWhileRevalidate < 0) {
                throw new IllegalArgumentException("cache lifetimes are not negative");
            }
        }

        /** This policy, fresh for no longer than {@code seconds} (a sale that opens then must not be hidden). */
        public Policy atMost(long seconds) {
            long fresh = Math.max(0, Math.min(maxAge, seconds));
            return fresh == maxAge ? this : new Policy(fresh, Math.min(staleWhileRevalidate, fresh));
        }

        public String header() {
            return "public, max-age=" + maxAge + ", stale-while-revalidate=" + staleWhileRevalidate;
        }
    }

    /** An answer as sent: its JSON bytes and their strong ETag. Immutable; encoded once, sent many times. */
    public record Encoded(byte[] body, String etag) {

        /** The bytes of {@code value} as JSON, tagged by their content: members that encode the same bytes give the same ETag. */
        public static Encoded json(Object value) {
            byte[] body = value instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : Json.bytes(value);
            return new Encoded(body, etagOf(body));
        }
    }

    /** Makes {@code no-store} the default of every {@code /v1} answer; handlers of public reads replace it. */
    public static void register(HttpRouting.Builder routing) {
        routing.addFilter((chain, req, res) -> {
            if (req.path().path().startsWith("/v1/")) {
                res.header(HeaderNames.CACHE_CONTROL, NO_STORE);
            }
            chain.proceed();
        });
    }

    /**
     * Sends a public read: 304 without a body if the request's {@code If-None-Match} names its ETag,
     * else 200 with the body. Either way with its ETag and cache lifetime (private to a request that
     * carries a token).
     */
    public static void sendPublic(ServerRequest req, ServerResponse res, Encoded answer, Policy policy) {
        res.header(HeaderNames.ETAG, answer.etag());
        res.header(HeaderNames.CACHE_CONTROL,
                req.headers().contains(HeaderNames.AUTHORIZATION) ? PRIVATE : policy.header());
        if (notModified(req.headers().first(HeaderNames.IF_NONE_MATCH).orElse(null), answer.etag())) {
            res.status(304).send();
            return;
        }
        Json.sendBytes(res, 200, answer.body());
    }

    /**
     * Whether an {@code If-None-Match} value names {@code etag}: {@code *}, or a comma-separated
     * list of entity tags one of which matches by weak comparison (RFC 9110 13.1.2: {@code W/"x"}
     * matches {@code "x"}).
     */
    public static boolean notModified(String ifNoneMatch, String etag) {
        if (ifNoneMatch == null || ifNoneMatch.isBlank()) {
            return false;
        }
        String opaque = opaque(etag);
        int i = 0;
        int n = ifNoneMatch.length();
        while (i < n) {
            char c = ifNoneMatch.charAt(i);
            if (c == ' ' || c == '\t' || c == ',') {
                i++;
            } else if (c == '*') {
                return true;
            } else {
                int start = i;
                if (ifNoneMatch.startsWith("W/", i)) {
                    i += 2;
                }
                if (i < n && ifNoneMatch.charAt(i) == '"') {
                    int close = ifNoneMatch.indexOf('"', i + 1);
                    if (close < 0) {
                        return false; // malformed: no match rather than a guess
                    }
                    if (ifNoneMatch.substring(i, close + 1).equals(opaque)) {
                        return true;
                    }
                    i = close + 1;
                } else {
                    // not an entity tag: skip to the next comma
                    int comma = ifNoneMatch.indexOf(',', start);
                    i = comma < 0 ? n : comma + 1;
                }
            }
        }
        return false;
    }

    /** A strong ETag naming the bytes: the first 96 bits of their SHA-256, base64url. */
    public static String etagOf(byte[] body) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(body);
            return "\"" + Base64.getUrlEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOf(digest, 12)) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static String opaque(String etag) {
        return etag.startsWith("W/") ? etag.substring(2) : etag;
    }
}
