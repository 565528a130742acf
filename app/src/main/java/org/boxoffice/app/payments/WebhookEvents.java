package org.boxoffice.app.payments;

/**
 * The event types the service's webhook acts on ({@code POST /v1/payments/webhook}, in the OpenAPI
 * document): what every provider reports, in the service's words. Events of other types are
 * remembered and otherwise ignored.
 */
public final class WebhookEvents {

    /** The charge is captured: the money is taken. */
    public static final String CAPTURED = "payment.captured";
    /** The charge is declined: nothing was taken. */
    public static final String DECLINED = "payment.declined";
    /** A refund of the charge went through. */
    public static final String REFUNDED = "refund.succeeded";

    private WebhookEvents() {
    }
}
