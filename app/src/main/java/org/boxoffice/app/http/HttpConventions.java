package org.boxoffice.app.http;

import io.helidon.http.HeaderNames;
import io.helidon.http.HttpPrologue;
import io.helidon.http.Method;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The HTTP method and media-type conventions (RFC 9110), for every route in one place:
 * <ul>
 *   <li>{@code HEAD} answers wherever {@code GET} does, with the same status and headers, its
 *       {@code Content-Length} included, and no body: the request runs as a {@code GET}, and every
 *       body the service sends goes through {@link #send}, which sends only its length in answer to a
 *       {@code HEAD}. The metrics endpoint (Helidon's own) streams its body: there what it writes is
 *       dropped, and Helidon declares {@code Content-Length: 0}. The event stream never ends, so
 *       {@code HEAD} on it is a 405.</li>
 *   <li>A known path with a method it does not answer is a 405 with {@code Allow}; {@code OPTIONS}
 *       is a 204 with {@code Allow}. No CORS is configured: the web app is served from the same
 *       origin, and no {@code Access-Control-*} header is ever sent.</li>
 *   <li>An {@code Accept} header that allows nothing the endpoint produces is a 406, under {@code /v1}
 *       and for {@code /openapi}: JSON everywhere under {@code /v1} but the event stream
 *       ({@code text/event-stream}) and the ticket QR codes ({@code image/png}); YAML for the
 *       document. No {@code Accept}, {@code *}{@code /*}, {@code application/*} and the exact type
 *       all do; a range with {@code q=0} refuses. The 406's own body is the JSON error, as RFC 9110
 *       allows.</li>
 *   <li>A body sent to {@code /v1} must be JSON: a {@code Content-Type} other than
 *       {@code application/json} (or {@code application/*+json}) is a 415, and so is a
 *       {@code charset} other than UTF-8. A body without a {@code Content-Type} is read as JSON.</li>
 * </ul>
 * The known paths and their methods are those of the OpenAPI document (kept in step with the routes
 * by {@code OpenApiDocumentTest}) plus the health and metrics endpoints. The filter itself costs a
 * method comparison per request, plus a scan of the {@code Content-Type} value for a request with
 * a body; path matching runs only for {@code HEAD}, {@code OPTIONS} and requests nothing routed.
 * Thread-safe.
 */
public final class HttpConventions implements Filter {

    /** Paths whose {@code GET} answers a stream that never ends: no {@code HEAD}. */
    private static final Set<String> STREAMS = Set.of("/v1/shows/{showId}/events");
    /** What the paths that do not answer JSON produce. */
    private static final Map<String, String> PRODUCES = Map.of(
            "/v1/shows/{showId}/events", "text/event-stream",
            "/v1/bookings/{bookingId}/tickets/{seatId}/qr.png", "image/png",
            "/openapi", "application/yaml");
    private static final String[] OBSERVE = {"/observe/health", "/observe/health/live", "/observe/health/ready",
            "/observe/health/safe",
            "/observe/metrics"};
    private static final List<Route> ROUTES = routes();
    /** Set while a {@code HEAD} runs as a {@code GET} on this (virtual) thread: {@link #send} sends no body. */
    private static final ThreadLocal<Boolean> HEAD = new ThreadLocal<>();

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        Method method = req.prologue().method();
        if (method == Method.HEAD) {
            // until its answer is sent, whatever sends it (a 405, a 406, an error handler after a throw);
            // a connection's requests run one after the other on one thread
            HEAD.set(Boolean.TRUE);
            res.whenSent(HEAD::remove);
            head(chain, req, res);
            return;
        }
        if (method == Method.OPTIONS) {
            Route route = find(req.path().path());
            if (route != null) {
                res.header(HeaderNames.ALLOW, route.allow);
                res.status(204).send();
                return;
            }
        } else if (method != Method.GET && req.path().path().startsWith("/v1/")) {
            String refused = refusedContentType(req);
            if (refused != null) {
                ErrorHandlers.send(res, 415, "UNSUPPORTED_MEDIA_TYPE", refused, Map.of());
                return;
            }
        }
        if (notAcceptable(req, res)) {
            return;
        }
        chain.proceed();
    }

    /** A {@code HEAD}: run as the {@code GET} it asks about, whose body {@link #send} leaves out. */
    private static void head(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        Route route = find(req.path().path());
        if (route != null && route.stream) {
            notAllowed(res, route, Method.HEAD);
            return;
        }
        if (notAcceptable(req, res)) {
            return;
        }
        HttpPrologue p = req.prologue();
        req.prologue(HttpPrologue.create(p.rawProtocol(), p.protocol(), p.protocolVersion(), Method.GET,
                p.uriPath(), p.query(), p.fragment()));
        if (route != null && route.template.equals("/observe/metrics")) {
            res.streamFilter(HeadOutput::new);  // Helidon's own handler streams its body past send
        }
        chain.proceed();
    }

    /**
     * Answers 406 when the request's {@code Accept} allows nothing its endpoint produces. Only a
     * request that carries an {@code Accept} without JSON in it costs a path lookup.
     */
    private static boolean notAcceptable(RoutingRequest req, RoutingResponse res) {
        String accept = req.headers().first(HeaderNames.ACCEPT).orElse(null);
        if (accept == null) {
            return false;
        }
        String path = req.path().path();
        boolean document = path.equals("/openapi");
        if (!document && (!path.startsWith("/v1/") || accepts(accept, "application/json"))) {
            return false;
        }
        Route route = find(path);
        if (route == null) {
            return false;   // a 404 says more
        }
        String produces = PRODUCES.getOrDefault(route.template, "application/json");
        if (accepts(accept, produces)) {
            return false;
        }
        ErrorHandlers.send(res, 406, "NOT_ACCEPTABLE", "this resource answers " + produces
                + " only: send an Accept header that allows it, or none", Map.of());
        return true;
    }

    /**
     * Whether an {@code Accept} value allows {@code type} ({@code "application/json"}): a media range
     * naming it, its type with {@code *}, or {@code *}{@code /*}, without {@code q=0}. A blank value
     * allows anything. Scans in place.
     */
    static boolean accepts(String accept, String type) {
        int slash = type.indexOf('/');
        boolean blank = !HttpCaching.anyListed(accept, (range, refused) -> true);
        return blank || HttpCaching.anyListed(accept, (range, refused) -> !refused && (range.equals("*/*")
                || range.equalsIgnoreCase(type) || (range.length() == slash + 2 && range.endsWith("/*")
                        && range.regionMatches(true, 0, type, 0, slash + 1))));
    }

    /**
     * Sends {@code body} as the answer, or in answer to a {@code HEAD} only its length: the same
     * {@code Content-Length} a {@code GET} gets, and no bytes. Helidon keeps a declared length when the
     * body sent is empty; it writes {@code Content-Length: 0} for a body streamed as nothing.
     */
    public static void send(ServerResponse res, byte[] body) {
        if (HEAD.get() != null) {
            res.header(HeaderNames.CONTENT_LENGTH, Integer.toString(body.length));
            res.send();
        } else {
            res.send(body);
        }
    }

    /**
     * The answer for a request no route took: 405 with {@code Allow} when the path is known (another
     * method answers it), else 404. Shared by the {@code /v1} catch-all and the error handlers.
     */
    public static void unrouted(ServerRequest req, ServerResponse res) {
        Route route = find(req.path().path());
        Method method = req.prologue().method();
        if (route == null) {
            ErrorHandlers.send(res, 404, "NOT_FOUND", "no such resource: " + method.text() + " " + req.path().path(),
                    Map.of());
        } else {
            notAllowed(res, route, method);
        }
    }

    /**
     * The documented path template a path belongs to ({@code /v1/holds/{holdId}} for
     * {@code /v1/holds/H1}), or {@code null} for a path this service does not know.
     */
    public static String template(String path) {
        Route route = find(path);
        return route == null ? null : route.template;
    }

    /** The {@code Allow} value for a path, or {@code null} for a path this service does not know. */
    static String allow(String path) {
        Route route = find(path);
        return route == null ? null : route.allow;
    }

    private static void notAllowed(ServerResponse res, Route route, Method method) {
        res.header(HeaderNames.ALLOW, route.allow);
        ErrorHandlers.send(res, 405, "METHOD_NOT_ALLOWED", "this resource does not answer " + method.text()
                + "; it answers " + route.allow, Map.of());
    }

    /**
     * Why the body's declared type is refused, or {@code null} if it is JSON in UTF-8 (or undeclared,
     * or there is no body). Reads the header value in place: no regex, no parsing into objects.
     */
    static String refusedContentType(ServerRequest req) {
        if (!req.content().hasEntity()) {
            return null;
        }
        String type = req.headers().first(HeaderNames.CONTENT_TYPE).orElse(null);
        return type == null ? null : refusedContentType(type);
    }

    static String refusedContentType(String type) {
        int semi = type.indexOf(';');
        int end = semi < 0 ? type.length() : semi;
        while (end > 0 && type.charAt(end - 1) == ' ') {
            end--;
        }
        boolean json = (end == 16 && type.regionMatches(true, 0, "application/json", 0, 16))
                || (end > 17 && type.regionMatches(true, 0, "application/", 0, 12)
                        && type.regionMatches(true, end - 5, "+json", 0, 5));
        if (!json) {
            return "this endpoint reads JSON: send Content-Type: application/json";
        }
        int at = semi;
        while (at >= 0) {
            int start = at + 1;
            while (start < type.length() && type.charAt(start) == ' ') {
                start++;
            }
            int next = type.indexOf(';', start);
            int stop = next < 0 ? type.length() : next;
            if (type.regionMatches(true, start, "charset=", 0, 8)) {
                int v = start + 8;
                int w = stop;
                while (w > v && type.charAt(w - 1) == ' ') {
                    w--;
                }
                if (w > v && type.charAt(v) == '"' && type.charAt(w - 1) == '"') {
                    v++;
                    w--;
                }
                if (!(w - v == 5 && type.regionMatches(true, v, "utf-8", 0, 5))) {
                    return "JSON bodies are read as UTF-8 only: send charset=utf-8 or no charset";
                }
            }
            at = next;
        }
        return null;
    }

    private static Route find(String path) {
        for (Route route : ROUTES) {
            if (route.matches(path)) {
                return route;
            }
        }
        return null;
    }

    /** One path template with the methods it answers. */
    private record Route(String template, String[] segments, String allow, boolean stream) {

        boolean matches(String path) {
            int at = 0;
            int n = path.length();
            for (String segment : segments) {
                if (at >= n || path.charAt(at) != '/') {
                    return false;
                }
                int end = path.indexOf('/', at + 1);
                if (end < 0) {
                    end = n;
                }
                if (segment.startsWith("{")) {
                    if (end == at + 1) {
                        return false;
                    }
                } else if (end - at - 1 != segment.length() || !path.regionMatches(at + 1, segment, 0, segment.length())) {
                    return false;
                }
                at = end;
            }
            return at == n;
        }
    }

    /** Path templates and methods: the OpenAPI document's paths, then the health and metrics endpoints. */
    private static List<Route> routes() {
        Map<String, Set<String>> methods = new LinkedHashMap<>();
        try (InputStream in = HttpConventions.class.getResourceAsStream("/openapi.yaml");
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String path = null;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.startsWith("  /") && line.endsWith(":") && line.indexOf(' ', 2) < 0) {
                    path = line.substring(2, line.length() - 1);
                    methods.put(path, new TreeSet<>());
                } else if (!line.startsWith(" ") && !line.isEmpty()) {
                    path = null;    // left the paths section
                } else if (path != null && line.startsWith("    ") && !line.startsWith("     ") && line.endsWith(":")) {
                    String m = line.trim().substring(0, line.trim().length() - 1);
                    if (Set.of("get", "post", "put", "delete", "patch").contains(m)) {
                        methods.get(path).add(m.toUpperCase(java.util.Locale.ROOT));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String path : OBSERVE) {
            methods.put(path, new TreeSet<>(Set.of("GET")));
        }
        List<Route> routes = new ArrayList<>();
        methods.forEach((path, set) -> {
            boolean stream = STREAMS.contains(path);
            List<String> allow = new ArrayList<>(set);
            if (set.contains("GET") && !stream) {
                allow.add(allow.indexOf("GET") + 1, "HEAD");
            }
            allow.add("OPTIONS");
            routes.add(new Route(path, path.substring(1).split("/"), String.join(", ", allow), stream));
        });
        return List.copyOf(routes);
    }

    /**
     * The body of an answer to {@code HEAD} on the metrics endpoint: never sent. Helidon 4.5's HTTP/1
     * response then declares {@code Content-Length: 0} (it writes that header for a streamed body that
     * wrote nothing, whatever length was declared), not the length a {@code GET} would carry.
     */
    private static final class HeadOutput extends OutputStream {
        private final OutputStream out;

        HeadOutput(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) {
        }

        @Override
        public void write(byte[] b, int off, int len) {
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
