package org.boxoffice.app.http;

/**
 * Refusals the web layer decides by itself, beside the business's {@link org.boxoffice.domain.Rejection}s
 * and the door's {@link org.boxoffice.domain.BotRefusal}s: who may call, what a request may carry, what
 * an endpoint answers about its own resource. Each name is the answer's {@code error} code;
 * {@link Refusals} gives its status.
 */
public enum Refusal {
    BAD_REQUEST,
    INVALID_PHONE,
    UNAUTHORIZED,
    INVALID_SIGNATURE,
    FORBIDDEN,
    QUEUE_TOKEN_INVALID,
    NOT_FOUND,
    PAYLOAD_TOO_LARGE,
    UNKNOWN_EVENT,
    CANCELLATION_CLOSED,
    PAYMENT_MISMATCH,
    SHOW_EXISTS,
    AREA_EXISTS,
    CAPACITY_BELOW_TAKEN,
    SEAT_SOLD,
    HOLD_CONFIRMED,
    QUEUE_NOT_ACTIVE,
    CHALLENGE_NOT_REQUIRED,
    STREAMS_FULL,
    PAYMENT_PROVIDER_UNAVAILABLE,
    PRINT_AT_HOME_OFF,
    /** The ticket exists, but its booking's cancellation is under way (refund asked, seats not yet back). */
    TICKET_CANCELLING,
    /** The ticket existed; its booking was refunded or cancelled. */
    TICKET_CANCELLED
}
