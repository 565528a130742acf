package org.boxoffice.app.ops;

import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import org.boxoffice.app.http.HttpConventions;

/**
 * Counts every answered request as {@code boxoffice_http_requests_total{method, route, status}}.
 * The route is the path template the request was routed by ({@code /v1/shows/{showId}/holds}),
 * never the path itself, so the series stay few: a request answered before routing (a 415, a 405,
 * a bad id) is counted under the documented template its path fits, a path nothing knows under
 * {@code other}. The status is read once the answer is sent, so answers written by the error
 * handlers count too. The first filter of the routing: it sees the method the client sent
 * ({@code HEAD} before it is run as {@code GET}). Thread-safe.
 */
public final class HttpRequestMeter implements Filter {

    private final OpsMetrics metrics;

    public HttpRequestMeter(OpsMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        String method = req.prologue().method().text();
        res.whenSent(() -> metrics.request(method, route(req), res.status().code()));
        chain.proceed();
    }

    private static String route(RoutingRequest req) {
        String pattern = req.matchingPattern().orElse(null);
        if (pattern != null && !pattern.endsWith("*")) {
            // the observe feature's routes end in '/' (/observe/metrics/)
            return pattern.length() > 1 && pattern.endsWith("/") ? pattern.substring(0, pattern.length() - 1) : pattern;
        }
        // the /v1 catch-all, the web app's files, or answered before routing
        String path = req.path().absolute().path();
        String template = HttpConventions.template(path);
        if (template != null) {
            return template;
        }
        return path.startsWith("/v1/") ? "other" : pattern != null ? "/*" : "other";
    }
}
