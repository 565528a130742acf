package org.boxoffice.app.http;

import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.domain.Rejection;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one table that turns a business refusal into an HTTP answer: its status and the error code
 * clients see. Managers return refusals as values; services send them through here.
 */
public final class Refusals {

    private Refusals() {
    }

    public static int status(Rejection reason) {
        return switch (reason) {
            case SEATS_UNAVAILABLE, HOLD_EXPIRED, HOLD_RELEASED, PAYMENT_IN_PROGRESS, NO_ADJACENT_SEATS, NOT_ALLOWED,
                 SEATS_AVAILABLE, ALREADY_ON_WAITLIST -> 409;
            case PAYMENT_DECLINED -> 402;
            case TOO_MANY_SEATS, ACCOUNT_LIMIT, SALE_NOT_OPEN, UNKNOWN_SEAT, UNKNOWN_SECTION -> 422;
            case UNKNOWN_SHOW, HOLD_NOT_FOUND -> 404;
        };
    }

    /** The {@code error} code of the answer: the reason's name, but NOT_FOUND for what does not exist. */
    public static String code(Rejection reason) {
        return switch (reason) {
            case UNKNOWN_SHOW, HOLD_NOT_FOUND -> "NOT_FOUND";
            default -> reason.name();
        };
    }

    /** The JSON error body: {@code {"error": CODE, "message": ..., ...details}}. */
    public static Map<String, Object> body(Rejection reason, String message, Map<String, Object> details) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", code(reason));
        body.put("message", message);
        body.putAll(details);
        return body;
    }

    public static void send(ServerResponse res, Rejection reason, String message, Map<String, Object> details) {
        Json.send(res, status(reason), body(reason, message, details));
    }
}
