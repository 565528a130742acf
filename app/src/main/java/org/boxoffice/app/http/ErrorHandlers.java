package org.boxoffice.app.http;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.grid.InventoryUnavailableException;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Maps every failure to an HTTP answer with a JSON error body, in one place. */
public final class ErrorHandlers {

    private static final Logger LOG = Logger.getLogger(ErrorHandlers.class.getName());

    private ErrorHandlers() {
    }

    public static void register(HttpRouting.Builder routing) {
        routing.error(ApiException.class, (req, res, e) -> {
            if (e.details().get("retryAfterSeconds") instanceof Number seconds) {
                res.header(HeaderNames.RETRY_AFTER, Long.toString(seconds.longValue()));
            }
            send(res, e.status(), e.code(), e.getMessage(), e.details());
        });
        routing.error(InventoryUnavailableException.class, (req, res, e) -> {
            LOG.log(Level.WARNING, "seat write refused: " + e.getMessage());
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
        routing.error(org.boxoffice.mapstore.DatabaseException.class, (req, res, e) -> {
            LOG.log(Level.WARNING, "database unavailable: " + e.getMessage());
            res.header(HeaderNames.RETRY_AFTER, "2");
            send(res, 503, "DATABASE_UNAVAILABLE", "the database is not answering; nothing was changed, try again", Map.of());
        });
        routing.error(com.hazelcast.core.HazelcastInstanceNotActiveException.class, (req, res, e) -> {
            res.header(HeaderNames.RETRY_AFTER, "2");
            send(res, 503, "GRID_UNAVAILABLE", "this member is shutting down; try again", Map.of());
        });
        // Helidon's own answers are not failures: a 304 from the web app's static content for a copy
        // the browser still has, a 404 for a path nothing serves. Helidon sends them as they are.
        routing.error(io.helidon.http.HttpException.class, (req, res, e) -> {
            if (e.status().code() >= 500) {
                unexpected(req, res, e);
                return;
            }
            throw e;
        });
        routing.error(Exception.class, ErrorHandlers::unexpected);
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

    private static Map<String, Object> body(String code, String message, Map<String, Object> details) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", code);
        body.put("message", message);
        body.putAll(details);
        return body;
    }
}
