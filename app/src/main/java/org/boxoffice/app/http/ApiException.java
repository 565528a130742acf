package org.boxoffice.app.http;

import java.util.Map;

/**
 * A client-facing failure: an HTTP status, a stable error code and a message, plus optional
 * details merged into the JSON body ({@code {"error": CODE, "message": ..., ...details}}).
 * Made from the one refusal table ({@link Refusals#of}), thrown from handlers, turned into a response
 * in one place ({@link ErrorHandlers}).
 */
public class ApiException extends RuntimeException {

    private final int status;
    private final String code;
    private final Map<String, Object> details;

    ApiException(int status, String code, String message, Map<String, Object> details) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.details = details;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public Map<String, Object> details() {
        return details;
    }

    public static ApiException badRequest(String message) {
        return Refusals.of(Refusal.BAD_REQUEST, message);
    }

    public static ApiException notFound(String what) {
        return Refusals.of(Refusal.NOT_FOUND, what + " not found");
    }
}
