package org.boxoffice.app.checkout;

import org.boxoffice.domain.BookingRepository;
import org.boxoffice.domain.BookingRepository.ReportOutcome;
import org.boxoffice.domain.PaymentAttempt;
import org.boxoffice.app.payments.SimulatedPaymentGateway;

import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.logging.Logger;

/**
 * Applies the provider's webhook events. Each event id is applied once; a charge's first decisive
 * report (captured or declined) wins, so duplicated, delayed and out-of-order events change
 * nothing after it. Captured money is settled before the event is acknowledged; if settling cannot
 * finish now, the attempt is already recorded as captured and reconciliation finishes it, so an
 * acknowledged event is never lost. Thread-safe.
 */
public final class PaymentEvents {

    private static final Logger LOG = Logger.getLogger(PaymentEvents.class.getName());

    /** One event as the provider sent it (after its signature was checked). */
    public record Event(String id, String type, String idempotencyKey, String chargeId, String reason) {
    }

    private final BookingRepository bookings;
    private final Settlement settlement;
    private final LongSupplier clock;

    public PaymentEvents(BookingRepository bookings, Settlement settlement, LongSupplier clock) {
        this.bookings = bookings;
        this.settlement = settlement;
        this.clock = clock;
    }

    /** Applies {@code event}; returns what it did, for the response and the logs. */
    public String apply(Event event) {
        long now = clock.getAsLong();
        return switch (event.type()) {
            case SimulatedPaymentGateway.EVENT_CAPTURED -> {
                ReportOutcome outcome = bookings.report(event.id(), event.type(), event.idempotencyKey(),
                        PaymentAttempt.Report.CAPTURED, event.chargeId(), null, now);
                if (outcome == ReportOutcome.APPLIED || outcome == ReportOutcome.IGNORED) {
                    settleIfCaptured(event.idempotencyKey());
                }
                yield outcome.name();
            }
            case SimulatedPaymentGateway.EVENT_DECLINED -> bookings.report(event.id(), event.type(),
                    event.idempotencyKey(), PaymentAttempt.Report.DECLINED, event.chargeId(), event.reason(), now).name();
            case SimulatedPaymentGateway.EVENT_REFUNDED -> {
                if (!bookings.rememberEvent(event.id(), event.type(), event.idempotencyKey(), now)) {
                    yield ReportOutcome.DUPLICATE_EVENT.name();
                }
                Optional<PaymentAttempt> p = bookings.paymentByKey(event.idempotencyKey());
                if (p.isPresent() && p.get().refund() == PaymentAttempt.RefundState.REQUESTED) {
                    bookings.refunded(p.get().paymentId(), now);
                    yield ReportOutcome.APPLIED.name();
                }
                yield p.isPresent() ? ReportOutcome.IGNORED.name() : ReportOutcome.UNKNOWN_PAYMENT.name();
            }
            default -> {
                boolean fresh = bookings.rememberEvent(event.id(), event.type(), event.idempotencyKey(), now);
                LOG.fine(() -> "ignored payment event of type " + event.type());
                yield fresh ? "IGNORED" : ReportOutcome.DUPLICATE_EVENT.name();
            }
        };
    }

    /** A captured attempt whose settlement has not started (an earlier delivery may have been cut short). */
    private void settleIfCaptured(String idempotencyKey) {
        bookings.paymentByKey(idempotencyKey)
                .filter(p -> p.status() == PaymentAttempt.Status.CAPTURED && p.settlement() == PaymentAttempt.Settlement.NONE)
                .ifPresent(p -> settlement.settle(p.paymentId()));
    }
}
