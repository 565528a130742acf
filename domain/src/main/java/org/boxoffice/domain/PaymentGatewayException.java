package org.boxoffice.domain;

/**
 * A payment provider call ended without a known outcome (timed out, connection lost, provider
 * down). For a charge, money may have moved: the caller records the attempt as unknown and lets
 * the webhook, a status lookup or reconciliation decide. A technical failure, not a business one.
 */
public class PaymentGatewayException extends RuntimeException {
    public PaymentGatewayException(String message) {
        super(message);
    }

    public PaymentGatewayException(String message, Throwable cause) {
        super(message, cause);
    }
}
