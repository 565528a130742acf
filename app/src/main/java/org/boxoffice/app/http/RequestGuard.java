package org.boxoffice.app.http;

import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

import java.util.regex.Pattern;

/**
 * Turns away, before any route runs, requests that no route could answer sensibly: a control
 * character (NUL and the like) anywhere in the decoded path or query, or a path segment under
 * {@code /v1} that is not an id. A NUL byte used to travel down to PostgreSQL, which refuses it,
 * and the client was told the database was down (503 with Retry-After, so it retried for ever).
 *
 * <p>The one id pattern ({@link #ID}): 1 to 64 characters of ASCII letters, digits and
 * {@code . _ ~ @ : -}. Show, event, hold, booking, seat and waitlist ids all fit it; so does every
 * fixed word of a path. Thread-safe.
 */
public final class RequestGuard implements Filter {

    /** Every id in a path: 1 to 64 letters, digits, '.', '_', '~', '@', ':' or '-'. */
    public static final Pattern ID = Pattern.compile("[A-Za-z0-9._~@:-]{1,64}");
    private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        String path = req.path().path();
        String query = req.query().rawValue();
        // runs on every request, the stampede's refusals included: plain loops, no regex, no split
        if (hasControl(path) || hasControl(query.indexOf('%') < 0 ? query : decoded(query))) {
            throw ApiException.badRequest("the URL holds a control character (such as NUL); ids are 1 to 64 "
                    + "letters, digits, '.', '_', '~', '@', ':' or '-'");
        }
        if (path.startsWith("/v1/")) {
            int from = 4;
            while (true) {
                int to = path.indexOf('/', from);
                int end = to < 0 ? path.length() : to;
                if (!isId(path, from, end)) {
                    throw ApiException.badRequest("'" + shorten(path.substring(from, end)) + "' is not a valid id: "
                            + "ids are 1 to 64 letters, digits, '.', '_', '~', '@', ':' or '-'");
                }
                if (to < 0) {
                    break;
                }
                from = to + 1;
            }
        }
        chain.proceed();
    }

    /** Whether {@code s[from, to)} matches {@link #ID}. */
    static boolean isId(String s, int from, int to) {
        int length = to - from;
        if (length < 1 || length > 64) {
            return false;
        }
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '~' || c == '@' || c == ':' || c == '-';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code s} holds a character of {@code \p{Cntrl}}: U+0000 to U+001F, or U+007F. */
    static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return true;
            }
        }
        return false;
    }

    private static String decoded(String raw) {
        try {
            return java.net.URLDecoder.decode(raw, java.nio.charset.StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("the query string is not well-formed (a '%' not followed by two hex digits)");
        }
    }

    private static String shorten(String s) {
        String printable = CONTROL.matcher(s).replaceAll("?");
        return printable.length() > 40 ? printable.substring(0, 40) + "…" : printable;
    }
}
