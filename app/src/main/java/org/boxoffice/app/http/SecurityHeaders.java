package org.boxoffice.app.http;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * The headers that tell a browser what it may do with an answer, stamped as it is sent (so answers
 * written by the error handlers, after the response was reset, carry them too):
 * <ul>
 *   <li>every answer: {@code X-Content-Type-Options: nosniff}, so a browser never reads JSON or
 *       YAML as a script or a page;</li>
 *   <li>every 4xx: {@code Cache-Control: no-store}, so no browser or CDN keeps a refusal (a 404 for a
 *       show about to be announced, a 429) past the moment it was true;</li>
 *   <li>the web app's files (every path outside {@code /v1}): a Content Security Policy that allows
 *       what the app loads and nothing else (its own scripts, styles, images and challenge workers, the
 *       ticket QR codes it fetches with the fan's token and shows as {@code blob:} URLs, its own API and
 *       event stream; no inline script or style, no eval, no framing) and
 *       {@code Referrer-Policy: no-referrer}.</li>
 * </ul>
 * The answers written before routing (an unreadable request line, headers over the limits) get the
 * first two from {@link ErrorHandlers#directHandlers()}. Thread-safe.
 */
public final class SecurityHeaders implements Filter {

    /** What the fan's web app loads: everything from its own origin, nothing inline, never framed. */
    static final String POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; "
            + "connect-src 'self'; worker-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; "
            + "frame-ancestors 'none'";

    static final Header NOSNIFF = HeaderValues.createCached(HeaderNames.X_CONTENT_TYPE_OPTIONS, "nosniff");
    private static final Header NO_STORE = HeaderValues.createCached(HeaderNames.CACHE_CONTROL, HttpCaching.NO_STORE);
    private static final Header CSP = HeaderValues.createCached(HeaderNames.create("Content-Security-Policy"), POLICY);
    private static final Header REFERRER = HeaderValues.createCached(HeaderNames.create("Referrer-Policy"), "no-referrer");

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        boolean webApp = !req.path().path().startsWith("/v1/");
        res.beforeSend(() -> {
            ServerResponseHeaders headers = res.headers();
            headers.set(NOSNIFF);
            if (res.status().code() >= 400 && res.status().code() < 500) {
                headers.set(NO_STORE);
            }
            if (webApp) {
                headers.set(CSP);
                headers.set(REFERRER);
            }
        });
        chain.proceed();
    }

    /** The headers every answer written before routing carries: {@code nosniff}, and {@code no-store} on a 4xx. */
    static void stampDirect(ServerResponseHeaders headers, int status) {
        headers.set(NOSNIFF);
        if (status >= 400 && status < 500) {
            headers.set(NO_STORE);
        }
    }
}
