package org.boxoffice.app.http;

import io.helidon.webserver.http.ServerResponse;
import org.boxoffice.domain.BotRefusal;
import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.Rejection;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one table that turns a refusal into an HTTP answer: its status and the error code clients
 * see, for the business's {@link Rejection}s, the door's {@link BotRefusal}s and the web layer's own
 * {@link Refusal}s. Managers return refusals as values ({@link Outcome.Refused}); services send them
 * through here, or throw the {@link ApiException} it makes ({@link #of}); nothing else names a status.
 */
public final class Refusals {

    private Refusals() {
    }

    public static int status(Rejection reason) {
        return switch (reason) {
            case SEATS_UNAVAILABLE, HOLD_EXPIRED, HOLD_RELEASED, PAYMENT_IN_PROGRESS, NO_ADJACENT_SEATS, NOT_ALLOWED,
                 SEATS_AVAILABLE, ALREADY_ON_WAITLIST, TRANSFER_PENDING, TICKET_NOT_TRANSFERABLE, TRANSFER_DECIDED,
                 TICKET_TRANSFERRED, SOLD_OUT -> 409;
            case PAYMENT_DECLINED -> 402;
            case TOO_MANY_SEATS, ACCOUNT_LIMIT, SALE_NOT_OPEN, UNKNOWN_SEAT, UNKNOWN_SECTION, UNKNOWN_AREA, TRANSFER_LIMIT,
                 TRANSFER_CLOSED -> 422;
            case UNKNOWN_SHOW, HOLD_NOT_FOUND, TICKET_NOT_FOUND -> 404;
        };
    }

    /** The {@code error} code of the answer: the reason's name, but NOT_FOUND for what does not exist. */
    public static String code(Rejection reason) {
        return switch (reason) {
            case UNKNOWN_SHOW, HOLD_NOT_FOUND, TICKET_NOT_FOUND -> "NOT_FOUND";
            default -> reason.name();
        };
    }

    public static int status(BotRefusal reason) {
        return switch (reason) {
            case RATE_LIMITED -> 429;
            case CHALLENGE_MISSING, CHALLENGE_INVALID, CHALLENGE_EXPIRED, CHALLENGE_REPLAYED, PASS_MISSING, PASS_EXPIRED,
                 PASS_INVALID, PASS_FOREIGN -> 403;
        };
    }

    /**
     * The {@code error} code of the answer: as coarse as a client needs (a missing or an expired pass
     * both mean "queue again"); the metric's label tells them apart ({@link BotRefusal#reason()}).
     */
    public static String code(BotRefusal reason) {
        return switch (reason) {
            case CHALLENGE_MISSING -> "CHALLENGE_REQUIRED";
            case PASS_MISSING, PASS_EXPIRED -> "PASS_REQUIRED";
            case PASS_FOREIGN -> "PASS_INVALID";
            default -> reason.name();
        };
    }

    public static int status(Refusal reason) {
        return switch (reason) {
            case BAD_REQUEST, INVALID_PHONE -> 400;
            case UNAUTHORIZED, INVALID_SIGNATURE -> 401;
            case FORBIDDEN, QUEUE_TOKEN_INVALID -> 403;
            case NOT_FOUND -> 404;
            case SHOW_EXISTS, AREA_EXISTS, CAPACITY_BELOW_TAKEN, SEAT_SOLD, HOLD_CONFIRMED, QUEUE_NOT_ACTIVE, CHALLENGE_NOT_REQUIRED,
                 PRINT_AT_HOME_OFF, TICKET_CANCELLING -> 409;
            case TICKET_CANCELLED -> 410;
            case PAYLOAD_TOO_LARGE -> 413;
            case UNKNOWN_EVENT, CANCELLATION_CLOSED, PAYMENT_MISMATCH -> 422;
            case STREAMS_FULL, PAYMENT_PROVIDER_UNAVAILABLE -> 503;
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

    /** The JSON error body of a business refusal: its reason's code, its message and its details. */
    public static Map<String, Object> body(Outcome.Refused<?> refused) {
        return body(refused.reason(), refused.message(), refused.details());
    }

    public static void send(ServerResponse res, Outcome.Refused<?> refused) {
        Json.send(res, status(refused.reason()), body(refused));
    }

    /** The refusal to throw from a handler; {@link ErrorHandlers} answers it. */
    public static ApiException of(Rejection reason, String message) {
        return of(reason, message, Map.of());
    }

    public static ApiException of(Rejection reason, String message, Map<String, Object> details) {
        return new ApiException(status(reason), code(reason), message, details);
    }

    public static ApiException of(BotRefusal reason, String message, Map<String, Object> details) {
        return new ApiException(status(reason), code(reason), message, details);
    }

    public static ApiException of(Refusal reason, String message) {
        return of(reason, message, Map.of());
    }

    /** {@code details} go into the answer beside the message; a {@code retryAfterSeconds} also becomes {@code Retry-After}. */
    public static ApiException of(Refusal reason, String message, Map<String, Object> details) {
        return new ApiException(status(reason), reason.name(), message, details);
    }
}
