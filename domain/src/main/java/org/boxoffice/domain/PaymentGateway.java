package org.boxoffice.domain;

import java.util.List;
import java.util.Optional;

/**
 * The payment provider, as checkout needs it: one-step charges (authorize and capture together),
 * refunds, and lookups of what the provider knows. Every money-moving call carries an idempotency
 * key chosen by the caller; a provider must treat a repeated key as the same request and never move
 * money twice for it. The provider also reports outcomes asynchronously through the service's
 * webhook ({@code POST /v1/payments/webhook}), signed with a shared secret.
 *
 * <p>Implementations are thread-safe and may block for as long as the provider takes (bounded by
 * their own timeout). A call whose outcome is unknown (timeout, connection lost) throws
 * {@link PaymentGatewayException}: money may or may not have moved, so the caller must find out
 * later (status lookup, webhook, reconciliation) instead of assuming either.
 */
public interface PaymentGateway {

    /** Charges the payment method; the same {@code idempotencyKey} never charges twice. */
    ChargeResult charge(ChargeRequest request);

    /** Refunds (part of) a captured charge; the same {@code refundKey} never refunds twice. */
    RefundResult refund(RefundRequest request);

    /** What the provider knows about the charge made under {@code idempotencyKey}, or empty if none was made. */
    Optional<ChargeStatus> status(String idempotencyKey);

    /** Every charge the provider holds that was created at or after {@code since} (epoch millis), for reconciliation. */
    List<ChargeStatus> charges(long since);

    /**
     * @param idempotencyKey one per payment attempt (see {@link PaymentAttempt#idempotencyKey})
     * @param method         the buyer's payment method token, as the provider issued it
     * @param reference      the service's own reference (the payment id), shown in the provider's records
     */
    record ChargeRequest(String idempotencyKey, long amountCents, String currency, String method, String reference) {
    }

    /** The provider's answer to a charge it finished deciding, or accepted to decide later. */
    sealed interface ChargeResult {
        /** The money is taken. */
        record Captured(String chargeId) implements ChargeResult {
        }

        /** The provider refused the payment; nothing was taken. */
        record Declined(String chargeId, String reason) implements ChargeResult {
        }

        /** Accepted; the outcome arrives later by webhook (or a status lookup). */
        record Pending(String chargeId) implements ChargeResult {
        }
    }

    /** @param chargeKey the idempotency key of the charge to refund */
    record RefundRequest(String refundKey, String chargeKey, long amountCents, String reason) {
    }

    record RefundResult(String refundId, long amountCents) {
    }

    /**
     * A charge as the provider records it.
     *
     * @param refundedCents how much of it has been refunded so far
     */
    record ChargeStatus(String chargeId, String idempotencyKey, long amountCents, String currency, State state,
                        long refundedCents, long createdAt) {

        public enum State { PENDING, CAPTURED, DECLINED }

        /** Captured money the provider still holds for the merchant. */
        public long retainedCents() {
            return state == State.CAPTURED ? amountCents - refundedCents : 0;
        }
    }
}
