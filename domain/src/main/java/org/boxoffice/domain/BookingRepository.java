package org.boxoffice.domain;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Payment attempts, bookings and tickets as the referee (PostgreSQL) records them. Every change is
 * a conditional write, so concurrent callers on several members (a checkout, a webhook, the
 * reconciliation) agree on one outcome: the first writer wins and the others see its result.
 *
 * <p>Rules the store enforces, whatever the callers do: one booking per hold; a seat in at most
 * one live booking; one live attempt (in flight or booked) per hold; one attempt of a hold settling or
 * booked at a time; an event id is applied once. Thread-safe.
 */
public interface BookingRepository {

    // ------------------------------------------------------------------ payment attempts

    /** The answer to starting a payment attempt for a hold. */
    sealed interface AttemptStart {
        /** A new PENDING attempt was recorded: charge it. */
        record Started(PaymentAttempt attempt) implements AttemptStart {
        }

        /** Another attempt of the hold holds or may still move its money ({@link PaymentAttempt#live}); nothing was recorded. */
        record InFlight(PaymentAttempt other) implements AttemptStart {
        }

        /** The hold was released (by its buyer) or has ended; nothing was recorded and nothing may be charged. */
        record HoldEnded(HoldStatus status) implements AttemptStart {
        }
    }

    /**
     * Records a new attempt for {@code hold} with the next free attempt number, PENDING, for the
     * hold's amount, unless another attempt of the hold is live (in flight or booked). Decided
     * atomically by the store (a unique index over the live attempts of a hold), so of any number of
     * concurrent callers at most one starts an attempt and the others are told which one is live.
     * Serialized with {@link #endHoldByBuyer} on the hold's row: a hold its buyer released is never charged.
     */
    AttemptStart startAttempt(HoldRecord hold, String method, String recipient, long now);

    /** The answer to a buyer giving a hold back. */
    sealed interface HoldRelease {
        /** The hold is RELEASED now (or already was): give its seats back. */
        record Released() implements HoldRelease {
        }

        /** A payment attempt of the hold may still move money (or booked it); the hold is unchanged. */
        record PaymentLive(PaymentAttempt attempt) implements HoldRelease {
        }

        /** The hold became a booking; it is unchanged. */
        record Confirmed() implements HoldRelease {
        }

        /** The hold expired before; nothing to release. */
        record Expired() implements HoldRelease {
        }
    }

    /**
     * Marks {@code holdId} RELEASED for its buyer, unless a payment attempt of it is live. One
     * transaction that locks the hold's row, as {@link #startAttempt} does, so of a release and a
     * checkout racing, exactly one wins: either the release (the checkout is then refused and charges
     * nothing) or the payment (the release is refused while the money may move).
     */
    HoldRelease endHoldByBuyer(String holdId, long now);

    Optional<PaymentAttempt> payment(String paymentId);

    Optional<PaymentAttempt> paymentByKey(String idempotencyKey);

    /** The attempts with these idempotency keys, by key (keys without an attempt are left out). */
    Map<String, PaymentAttempt> paymentsByKeys(Collection<String> idempotencyKeys);

    /** The attempts of a hold, first first. */
    List<PaymentAttempt> attemptsOf(String holdId);

    /** Whether the hold was already extended for a payment (it is extended once only). */
    boolean holdExtended(String holdId);

    /** What recording a provider report did. */
    enum ReportOutcome {
        /** This event id was applied before; nothing changed. */
        DUPLICATE_EVENT,
        /** No attempt has that idempotency key. */
        UNKNOWN_PAYMENT,
        /** The report decided the attempt. */
        APPLIED,
        /** The attempt was decided before; nothing changed. */
        IGNORED
    }

    /**
     * Applies a provider report to the attempt with {@code idempotencyKey}, in one transaction with
     * remembering {@code eventId} (null for reports that are not events: a charge's answer, a
     * lookup). Only an undecided attempt moves ({@link PaymentAttempt#accepts}).
     */
    ReportOutcome report(String eventId, String eventType, String idempotencyKey, PaymentAttempt.Report report,
                         String chargeId, String reason, long now);

    /**
     * Remembers a provider event that decides nothing by itself (a refund notice, an unknown type);
     * false if this event id was seen before.
     */
    boolean rememberEvent(String eventId, String eventType, String idempotencyKey, long now);

    /** PENDING to UNKNOWN: the service stopped waiting for the provider's answer. */
    boolean markUnknown(String paymentId, long now);

    // ------------------------------------------------------------------ settlement

    /** The answer to a claim on settling a captured attempt. */
    sealed interface SettlementClaim {
        /** This caller settles now, into booking {@code bookingId} (the same id on every re-drive). */
        record Claimed(PaymentAttempt payment, long bookingId) implements SettlementClaim {
        }

        /** Someone else is settling this attempt right now. */
        record Busy() implements SettlementClaim {
        }

        /** Settlement already ended (BOOKED or REJECTED), or the attempt was never captured. */
        record Ended(PaymentAttempt payment) implements SettlementClaim {
        }

        /** Another attempt of the same hold is booked or settling. */
        record HoldTaken(PaymentAttempt other) implements SettlementClaim {
        }
    }

    /**
     * Claims the settlement of a CAPTURED attempt: from NONE, or from a SETTLING claim that started
     * before {@code staleBefore} (its settler died). Allocates the booking id on the first claim.
     */
    SettlementClaim claimSettlement(String paymentId, long now, long staleBefore);

    /**
     * Ends a settlement with a booking, in one transaction: the booking, its seats (live), the
     * ticket mail in the outbox, the attempt BOOKED. Idempotent: a booking already made is returned.
     */
    Booking book(String paymentId, long bookingId, long now);

    /**
     * Ends a settlement without a booking: the attempt REJECTED with {@code reason} and its refund
     * REQUESTED, in one transaction; the given holds, if the settlement confirmed them, are marked
     * RELEASED (their seats went back to sale).
     */
    void reject(String paymentId, String reason, List<String> holdIds, long now);

    // ------------------------------------------------------------------ refunds

    /** Asks for the attempt's refund (NONE to REQUESTED); false if one was already asked for. */
    boolean requestRefund(String paymentId, String reason, long now);

    /**
     * Records that the provider refunded the attempt (REQUESTED to REFUNDED). Its CONFIRMED booking,
     * if any, becomes REFUNDED and its seats stop being live, in the same transaction. True if this
     * call moved it; false if another caller had recorded the refund already (parallel cancellations
     * each reach the provider, which refunds once under the attempt's key: the refund counts once).
     */
    boolean refunded(String paymentId, long now);

    // ------------------------------------------------------------------ bookings and tickets

    Optional<Booking> booking(long bookingId);

    Optional<Booking> bookingOfHold(String holdId);

    /** An account's bookings, newest first. */
    List<Booking> bookingsOf(String accountId);

    /**
     * Starts cancelling a CONFIRMED booking: its tickets stop admitting and its attempt's refund is
     * REQUESTED, in one transaction. False if the booking is not CONFIRMED, already cancelling, or
     * has a ticket that was transferred (decided against a racing transfer on the booking's row).
     */
    boolean startCancellation(long bookingId, String reason, long now);

    /** REFUNDED to CANCELLED, once the seats are back on sale. */
    void cancelled(long bookingId, long now);

    /** What checking a ticket at the gate found. */
    record TicketCheck(Result result, long usedAt) {
        public enum Result { VALID, ALREADY_USED, INVALID }
    }

    /**
     * Admits the ticket of {@code seatId} in {@code bookingId} once: VALID the first time (it is
     * marked used), ALREADY_USED after, INVALID if no booking that admits ({@link Booking#admits})
     * has that seat of that show, or if {@code codeVersion} is not the ticket's current one (it
     * changed hands since the code was issued). An admission is kept as a scan of the gate
     * {@code online} beside the offline gates' uploads, so a ticket also admitted offline is reported
     * as presented twice.
     */
    TicketCheck useTicket(long bookingId, String showId, String seatId, int codeVersion, long now);

    /**
     * What {@link #useTicket} would answer now, marking nothing: VALID (with {@code usedAt} 0) if it
     * would admit, ALREADY_USED if it admitted before, INVALID if it never would.
     */
    TicketCheck checkTicket(long bookingId, String showId, String seatId, int codeVersion);

    // ------------------------------------------------------------------ reconciliation

    /**
     * Attempts last changed before {@code updatedBefore} that may need help: undecided ones,
     * captured ones not settled (or settling), and ones whose refund was asked for but not done.
     */
    List<PaymentAttempt> needingAttention(long updatedBefore);

    /** Bookings refunded whose seats may not be back on sale yet. */
    List<Booking> refundedNotCancelled();

    /** Bookings made before {@code createdBefore} whose charge has not been confirmed with the provider yet, oldest first. */
    List<Booking> chargesToConfirm(long createdBefore, int limit);

    /**
     * Records what the provider said about a booking's charge: confirmed (captured, that amount), or
     * flagged with {@code note} (the provider does not know it, or records it otherwise).
     */
    void chargeChecked(long bookingId, boolean confirmed, String note);

    /** Bookings whose charge the provider did not confirm, for operators. */
    List<Booking> flaggedCharges();
}
