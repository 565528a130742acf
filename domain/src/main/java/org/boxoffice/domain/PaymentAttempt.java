package org.boxoffice.domain;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * One attempt to pay for one hold. A hold may take several attempts (a declined card, then another
 * one); each has its own number and so its own idempotency key at the provider, so a network retry
 * of one attempt never charges twice and a new attempt after a decline is a new charge.
 *
 * <p>Three things are tracked apart, because they change for different reasons:
 * <ul>
 *   <li>{@link Status}: what the provider did with the money. PENDING and UNKNOWN are not decisive
 *       (UNKNOWN means the service stopped waiting); the first CAPTURED or DECLINED report decides
 *       and later reports never change it ({@link #accepts}).</li>
 *   <li>{@link Settlement}: what the service did with captured money: turned it into a booking
 *       (BOOKED) or refused it (REJECTED, with a reason, and a refund).</li>
 *   <li>{@link RefundState}: whether money is being or has been given back.</li>
 * </ul>
 *
 * @param bookingId the booking this attempt settles into, allocated when settlement starts, or 0
 * @param recipient where the tickets are mailed
 * @param reason    why it was declined, refused or refunded; null otherwise
 */
public record PaymentAttempt(String paymentId, String holdId, int attempt, String idempotencyKey, String showId,
                             String accountId, long amountCents, String currency, String method, String recipient,
                             Status status, String chargeId, Settlement settlement, long bookingId,
                             RefundState refund, String reason, long createdAt, long updatedAt) {

    public enum Status { PENDING, UNKNOWN, CAPTURED, DECLINED }

    public enum Settlement { NONE, SETTLING, BOOKED, REJECTED }

    public enum RefundState { NONE, REQUESTED, REFUNDED }

    /** What the provider reported about a charge (by webhook, lookup or listing). */
    public enum Report { CAPTURED, DECLINED }

    public PaymentAttempt {
        Objects.requireNonNull(paymentId);
        Objects.requireNonNull(holdId);
        Objects.requireNonNull(status);
        Objects.requireNonNull(settlement);
        Objects.requireNonNull(refund);
        if (attempt < 1) {
            throw new IllegalArgumentException("attempts are numbered from 1");
        }
    }

    /** The provider idempotency key of attempt {@code attempt} of {@code holdId}. */
    public static String idempotencyKey(String holdId, int attempt) {
        return "bx-" + holdId + "-" + attempt;
    }

    /** The service's id of attempt {@code attempt} of {@code holdId}. */
    public static String paymentId(String holdId, int attempt) {
        return holdId + "-P" + attempt;
    }

    /** The statuses a provider report may still move an attempt out of: the undecided ones. */
    public static Set<Status> undecided() {
        return EnumSet.of(Status.PENDING, Status.UNKNOWN);
    }

    /**
     * Whether {@code report} decides this attempt: only while it is undecided. A duplicate, delayed
     * or out-of-order report after the first decisive one changes nothing.
     */
    public boolean accepts(Report report) {
        return undecided().contains(status);
    }

    /** The status {@code report} moves an undecided attempt to. */
    public static Status statusAfter(Report report) {
        return report == Report.CAPTURED ? Status.CAPTURED : Status.DECLINED;
    }

    /**
     * Whether money may still be moving for this attempt, so no other attempt of its hold may start:
     * undecided (PENDING, or UNKNOWN after a timeout: the charge may still be captured), or captured
     * and not yet settled.
     */
    public boolean inFlight() {
        return undecided().contains(status)
                || (status == Status.CAPTURED && (settlement == Settlement.NONE || settlement == Settlement.SETTLING));
    }

    /**
     * Whether this attempt holds its hold's money, or may still: in flight, or booked. While one
     * attempt of a hold is live no other may start, so a hold is never charged twice; the store
     * enforces this with a unique index (migration V5). A new attempt follows only a decline, or
     * captured money that was refused and refunded.
     */
    public boolean live() {
        return inFlight() || (status == Status.CAPTURED && settlement == Settlement.BOOKED);
    }

    /** Captured money the service still holds for this attempt: captured and not refunded. */
    public boolean holdsMoney() {
        return status == Status.CAPTURED && refund != RefundState.REFUNDED;
    }
}
