package org.boxoffice.app.http;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.zip.GZIPOutputStream;

/**
 * Who may keep an answer, and for how long: the one place that writes {@code Cache-Control},
 * {@code ETag} and 304s.
 *
 * <ul>
 *   <li>Every {@code /v1} answer is {@code no-store} unless its handler says otherwise, so nothing
 *       personal (holds, bookings, tickets, queue places) is ever kept by a browser or a CDN.
 *   <li>Public reads ({@link #sendPublic}) say {@code public, max-age, stale-while-revalidate} and
 *       carry a strong ETag; an {@code If-None-Match} naming it (or {@code *}) gets a 304. Bodies of
 *       1 KB and more go gzipped to clients that accept it, compressed once per answer.
 *   <li>A request that carries a bearer token never gets a publicly cacheable answer, even from a
 *       public read: it gets {@code private, no-store}.
 * </ul>
 */
public final class HttpCaching {

    /** Bodies from this size on are offered gzipped to clients that accept it. */
    static final int GZIP_MIN_BYTES = 1024;

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

    /**
     * An answer as sent: its JSON bytes, their strong ETag, and (for bodies worth it) the same bytes
     * gzipped, compressed once on first use, with an ETag of their own (a strong ETag names one
     * representation). Encoded once, sent many times; thread-safe.
     */
    public static final class Encoded {

        private final byte[] body;
        private final String etag;
        private volatile byte[] gzip;

        public Encoded(byte[] body, String etag) {
            this.body = body;
            this.etag = etag;
        }

        /** The bytes of {@code value} as JSON, tagged by their content: members that encode the same bytes give the same ETag. */
        public static Encoded json(Object value) {
            byte[] body = value instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : Json.bytes(value);
            return new Encoded(body, etagOf(body));
        }

        public byte[] body() {
            return body;
        }

        public String etag() {
            return etag;
        }

        /** Whether a gzipped copy is offered: small bodies gain nothing from it. */
        public boolean compressible() {
            return body.length >= GZIP_MIN_BYTES;
        }

        /** The ETag of the gzipped copy: the identity ETag with {@code -gz} inside the quotes. */
        public String gzipEtag() {
            return etag.substring(0, etag.length() - 1) + "-gz\"";
        }

        /** The body gzipped (computed once; a race computes it twice, harmlessly). */
        public byte[] gzip() {
            byte[] g = gzip;
            if (g == null) {
                ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 4 + 64);
                try (GZIPOutputStream z = new GZIPOutputStream(out)) {
                    z.write(body);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                g = out.toByteArray();
                gzip = g;
            }
            return g;
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
     * Sends a public read: 304 without a body if the request's {@code If-None-Match} names its ETag
     * (either copy's), else 200 with the body, gzipped if the client accepts it and the body is
     * worth it. Either way with the ETag of the copy the client gets and the cache lifetime
     * (private to a request that carries a token).
     */
    public static void sendPublic(ServerRequest req, ServerResponse res, Encoded answer, Policy policy) {
        sendTagged(req, res, answer, req.headers().contains(HeaderNames.AUTHORIZATION) ? PRIVATE : policy.header(),
                "application/json");
    }

    /**
     * Sends an answer as {@link #sendPublic} does, with the given {@code Cache-Control} and
     * {@code Content-Type}: 304 when {@code If-None-Match} names either copy's ETag, else 200 with the
     * body, gzipped to a client that accepts it when the body is worth it.
     */
    public static void sendTagged(ServerRequest req, ServerResponse res, Encoded answer, String cacheControl,
                                  String contentType) {
        boolean gzip = answer.compressible() && acceptsGzip(req.headers().first(HeaderNames.ACCEPT_ENCODING).orElse(null));
        String etag = gzip ? answer.gzipEtag() : answer.etag();
        res.header(HeaderNames.ETAG, etag);
        res.header(HeaderNames.CACHE_CONTROL, cacheControl);
        if (answer.compressible()) {
            res.header(HeaderNames.VARY, "Accept-Encoding"); // a cache keeps the gzipped and the plain copy apart
        }
        String ifNoneMatch = req.headers().first(HeaderNames.IF_NONE_MATCH).orElse(null);
        if (notModified(ifNoneMatch, answer.etag()) || (answer.compressible() && notModified(ifNoneMatch, answer.gzipEtag()))) {
            res.status(304).send();
            return;
        }
        res.status(200);
        res.header(HeaderNames.CONTENT_TYPE, contentType);
        if (gzip) {
            res.header(HeaderNames.CONTENT_ENCODING, "gzip");
            HttpConventions.send(res, answer.gzip());
        } else {
            HttpConventions.send(res, answer.body());
        }
    }

    /**
     * Whether an {@code Accept-Encoding} value accepts gzip: {@code gzip} or {@code *}, without
     * {@code q=0}. Scans in place: it runs on every public read.
     */
    static boolean acceptsGzip(String acceptEncoding) {
        return acceptEncoding != null && anyListed(acceptEncoding,
                (name, refused) -> !refused && (name.equalsIgnoreCase("gzip") || name.equals("*")));
    }

    /**
     * Whether some element of a comma-separated header value ({@code Accept}, {@code Accept-Encoding})
     * satisfies {@code test}, given its name (before any {@code ;}, stripped, never empty) and whether
     * its parameters weigh it {@code q=0}. Scans in place.
     */
    static boolean anyListed(String value, java.util.function.BiPredicate<String, Boolean> test) {
        int n = value.length();
        int i = 0;
        while (i < n) {
            int comma = value.indexOf(',', i);
            int end = comma < 0 ? n : comma;
            int semicolon = value.indexOf(';', i);
            int nameEnd = semicolon >= 0 && semicolon < end ? semicolon : end;
            String name = value.substring(i, nameEnd).strip();
            if (!name.isEmpty() && test.test(name, zeroWeight(value, nameEnd, end))) {
                return true;
            }
            i = end + 1;
        }
        return false;
    }

    /** Whether the parameters ({@code ;name=value}) between {@code from} and {@code to} give a weight of 0. */
    static boolean zeroWeight(String value, int from, int to) {
        int p = value.indexOf(';', from);
        while (p >= 0 && p < to) {
            int next = value.indexOf(';', p + 1);
            int stop = next < 0 || next > to ? to : next;
            String param = value.substring(p + 1, stop).strip();
            if (param.regionMatches(true, 0, "q=", 0, 2)) {
                try {
                    return Double.parseDouble(param.substring(2)) <= 0;
                } catch (NumberFormatException e) {
                    return true; // a weight we cannot read is no promise to accept gzip
                }
            }
            p = stop == to ? -1 : next;
        }
        return false;
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
