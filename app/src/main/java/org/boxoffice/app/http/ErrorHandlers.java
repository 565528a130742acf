package org.boxoffice.app.http;

import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.grid.InventoryUnavailableException;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Maps every failure to an HTTP answer with a JSON error body, in one place. */
public final class ErrorHandlers {

    private static final Logger LOG = Logger.getLogger(ErrorHandlers.class.getName());
    /** PostgreSQL's SQLSTATE class of data exceptions: a value it refuses (NUL in text, out of range, too long). */
    private static final String DATA_EXCEPTION = "22";

    private ErrorHandlers() {
    }

    public static void register(HttpRouting.Builder routing) {
        routing.error(ApiException.class, (req, res, e) -> {
            if (e.details().get("retryAfterSeconds") instanceof Number seconds) {
                res.header(HeaderNames.RETRY_AFTER, Long.toString(seconds.longValue()));
            }
            if (e.status() == 401 && "UNAUTHORIZED".equals(e.code())) {
                res.header(HeaderNames.WWW_AUTHENTICATE, bearerChallenge(req));
            }
            send(res, e.status(), e.code(), e.getMessage(), e.details());
        });
        routing.error(InventoryUnavailableException.class, (req, res, e) -> {
            LOG.log(Level.WARNING, "seat inventory unavailable: " + e.getMessage());
            res.header(HeaderNames.RETRY_AFTER, "2");
            send(res, 503, "GRID_UNAVAILABLE", "seat inventory is temporarily unavailable; nothing was changed, try again",
                    Map.of());
        });
        routing.error(com.hazelcast.splitbrainprotection.SplitBrainProtectionException.class, (req, res, e) -> {
            LOG.log(Level.WARNING, "grid below its quorum: " + e.getMessage());
            res.header(HeaderNames.RETRY_AFTER, "2");
            send(res, 503, "GRID_UNAVAILABLE", "too few grid members are reachable to change seats safely; nothing was "
                    + "changed, try again", Map.of());
        });
        routing.error(org.boxoffice.grid.waitlist.WaitlistUnavailableException.class, (req, res, e) -> {
            LOG.log(Level.WARNING, "waitlist unavailable: " + e.getMessage());
            res.header(HeaderNames.RETRY_AFTER, "2");
            send(res, 503, "WAITLIST_UNAVAILABLE", "the waitlist cannot be joined now; nothing was changed, try again",
                    Map.of());
        });
        routing.error(org.boxoffice.domain.RefereeException.class, (req, res, e) -> {
            if (e.getCause() instanceof SQLException sql && sql.getSQLState() != null
                    && sql.getSQLState().startsWith(DATA_EXCEPTION)) {
                // PostgreSQL refused a value (a NUL character, a number out of range): the request is at fault
                LOG.log(Level.INFO, "value refused by the database on " + req.path().path() + ": " + sql.getMessage());
                send(res, 400, "BAD_REQUEST", "a value in the request cannot be stored (for example a NUL character "
                        + "or a number out of range); nothing was changed", Map.of());
                return;
            }
            LOG.log(Level.WARNING, "database unavailable: " + e.getMessage());
            res.header(HeaderNames.RETRY_AFTER, "2");
            send(res, 503, "DATABASE_UNAVAILABLE", "the database is not answering; nothing was changed, try again", Map.of());
        });
        // a search while members join or leave can find the cluster's view changing under it
        routing.error(com.hazelcast.sql.HazelcastSqlException.class, (req, res, e) -> {
            LOG.log(Level.WARNING, "grid query failed: " + e.getMessage());
            res.header(HeaderNames.RETRY_AFTER, "1");
            send(res, 503, "GRID_UNAVAILABLE", "the catalog cannot be searched this moment; try again", Map.of());
        });
        routing.error(com.hazelcast.core.HazelcastInstanceNotActiveException.class, (req, res, e) -> {
            res.header(HeaderNames.RETRY_AFTER, "2");
            send(res, 503, "GRID_UNAVAILABLE", "this member is shutting down; try again", Map.of());
        });
        // Helidon's own answers: a 304 from the web app's static content for a copy the browser still
        // has passes as it is; its client errors (a 404 for a path nothing serves, a 405, a body over
        // the limit) get the JSON error body like every other error.
        routing.error(io.helidon.http.HttpException.class, (req, res, e) -> {
            int status = e.status().code();
            if (status >= 500) {
                unexpected(req, res, e);
                return;
            }
            if (status < 400) {
                throw e;
            }
            if (status == 404 || status == 405) {
                HttpConventions.unrouted(req, res);     // 405 with Allow where another method answers
                return;
            }
            send(res, status, code(status), plainMessage(status, req.prologue().method().text() + " "
                    + req.path().path()), Map.of());
        });
        routing.error(Exception.class, ErrorHandlers::unexpected);
    }

    /**
     * Answers for requests that fail before routing (a request line or headers that cannot be read,
     * a URL or headers over the limits, a body over {@code server.max-payload-size}): the same JSON
     * error body, in plain words. Installed on the listener by {@code Main.serverBuilder}.
     */
    public static DirectHandlers directHandlers() {
        DirectHandlers.Builder builder = DirectHandlers.builder();
        for (DirectHandler.EventType type : DirectHandler.EventType.values()) {
            builder.addHandler(type, ErrorHandlers::direct);
        }
        return builder.build();
    }

    private static DirectHandler.TransportResponse direct(DirectHandler.TransportRequest req, DirectHandler.EventType type,
                                                          Status status, ServerResponseHeaders headers, String message) {
        int code = status.code();
        if (type == DirectHandler.EventType.INTERNAL_ERROR && "".equals(req.method())) {
            // the request line or the headers could not be read; headers over Helidon's size limit end
            // here too, as an "Internal error" without its cause, so they get this 400 and not a 431
            code = 400;
        }
        if (code >= 500 && code != 501) {
            LOG.log(Level.WARNING, "request failed before routing (" + type + "): " + message);
        }
        byte[] body = Json.write(body(code(code), plainMessage(code, null), Map.of()))
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        SecurityHeaders.stampDirect(headers, code);
        DirectHandler.TransportResponse.Builder out = DirectHandler.TransportResponse.builder()
                .status(Status.create(code))
                .headers(headers)
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .keepAlive(type.keepAlive() && code < 500)
                .entity(body);
        return out.build();
    }

    /**
     * The challenge of a 401 (RFC 6750 section 3): plain {@code Bearer} when no credentials came,
     * {@code error="invalid_request"} for an Authorization header that is not a bearer token, and
     * {@code error="invalid_token"} for a bearer token that is refused (malformed, forged, expired).
     */
    private static String bearerChallenge(ServerRequest req) {
        String given = req.headers().first(HeaderNames.AUTHORIZATION).orElse(null);
        if (given == null) {
            return "Bearer realm=\"boxoffice\"";
        }
        if (!given.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return "Bearer realm=\"boxoffice\", error=\"invalid_request\"";
        }
        return "Bearer realm=\"boxoffice\", error=\"invalid_token\"";
    }

    /** The error code of an HTTP status the service itself did not choose. */
    private static String code(int status) {
        return switch (status) {
            case 400 -> "BAD_REQUEST";
            case 401 -> "UNAUTHORIZED";
            case 403 -> "FORBIDDEN";
            case 404 -> "NOT_FOUND";
            case 405 -> "METHOD_NOT_ALLOWED";
            case 408 -> "REQUEST_TIMEOUT";
            case 413 -> "PAYLOAD_TOO_LARGE";
            case 414 -> "URI_TOO_LONG";
            case 415 -> "UNSUPPORTED_MEDIA_TYPE";
            case 431 -> "HEADERS_TOO_LARGE";
            case 501 -> "NOT_IMPLEMENTED";
            case 505 -> "HTTP_VERSION_NOT_SUPPORTED";
            default -> status >= 500 ? "INTERNAL" : "BAD_REQUEST";
        };
    }

    private static String plainMessage(int status, String what) {
        return switch (status) {
            case 404 -> "no such resource" + (what == null ? "" : ": " + what);
            case 405 -> "this resource does not answer that method" + (what == null ? "" : ": " + what);
            case 413 -> "the request body is larger than this service accepts";
            case 414 -> "the URL is longer than this service accepts";
            case 431 -> "the request headers are larger than this service accepts";
            case 501 -> "the request's Transfer-Encoding is not implemented: a request body may only be chunked";
            case 505 -> "only HTTP/1.1 and HTTP/2 are served";
            default -> status >= 500 ? "unexpected server error"
                    : "the request could not be understood (a malformed request line, header or body)";
        };
    }

    private static void unexpected(ServerRequest req, ServerResponse res, Exception e) {
        LOG.log(Level.SEVERE, "unexpected failure on " + req.prologue().method() + " " + req.path().path(), e);
        send(res, 500, "INTERNAL", "unexpected server error", Map.of());
    }

    public static void send(ServerResponse res, int status, String code, String message, Map<String, Object> details) {
        Json.send(res, status, body(code, message, details));
    }

    /** The JSON error body: {@code {"error": CODE, "message": ..., ...details}}. */
    public static Map<String, Object> body(ApiException e) {
        return body(e.code(), e.getMessage(), e.details());
    }

    static Map<String, Object> body(String code, String message, Map<String, Object> details) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", code);
        body.put("message", message);
        body.putAll(details);
        return body;
    }
}
