package org.boxoffice.app.checkout;

import org.boxoffice.app.payments.WebhookEvents;
import org.boxoffice.domain.BookingRepository;
import org.boxoffice.domain.BookingRepository.ReportOutcome;
import org.boxoffice.domain.PaymentAttempt;
import org.boxoffice.domain.PaymentGateway;
import org.boxoffice.domain.PaymentGateway.ChargeStatus;
import org.boxoffice.domain.PaymentGatewayException;

import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.logging.Logger;

/**
 * Applies the provider's webhook events. Each event id is applied once; a charge's first decisive
 * report (captured or declined) wins, so duplicated, delayed and out-of-order events change
 * nothing after it. Captured money is settled before the event is acknowledged; if settling cannot
 * finish now, the attempt is already recorded as captured and reconciliation finishes it, so an
 * acknowledged event is never lost. Thread-safe.
 *
 * <p>A valid signature proves only who sent an event, not that what it says is true (a leaked
 * secret, a provider bug, an event replayed against another attempt). So an event that would move
 * money into seats or out of a booking is checked first: its amount and currency against the
 * attempt, and its claim against the provider's own record of the charge (a status look-up, as
 * providers recommend). An event that disagrees changes nothing and is answered 422
 * PAYMENT_MISMATCH; if the provider cannot be asked now, 503, and the provider delivers it again.
 */
public final class PaymentEvents {

    private static final Logger LOG = Logger.getLogger(PaymentEvents.class.getName());

    /**
     * One event as the provider sent it (after its signature was checked).
     *
     * @param amountCents the charge's amount as the event states it, or null if it states none
     * @param currency    the charge's currency as the event states it, or null
     */
    public record Event(String id, String type, String idempotencyKey, String chargeId, String reason, Long amountCents,
                        String currency) {
    }

    private final BookingRepository bookings;
    private final Settlement settlement;
    private final PaymentGateway gateway;
    private final LongSupplier clock;

    public PaymentEvents(BookingRepository bookings, Settlement settlement, PaymentGateway gateway, LongSupplier clock) {
        this.bookings = bookings;
        this.settlement = settlement;
        this.gateway = gateway;
        this.clock = clock;
    }

    /** What became of an event. */
    public sealed interface Outcome {
        /** Taken (applied, ignored, a duplicate...): {@code what} says which, for the answer and the logs. */
        record Taken(String what) implements Outcome {
        }

        /** It disagrees with the payment or with the provider's record; nothing changed. */
        record Mismatch(String why) implements Outcome {
        }

        /** The provider could not be asked to confirm it now; nothing changed, deliver it again. */
        record ProviderUnavailable() implements Outcome {
        }
    }

    /** Why an event is refused, found deep in a check: turned into an {@link Outcome} by {@link #apply}. */
    private static final class Refused extends RuntimeException {
        private final Outcome outcome;

        Refused(Outcome outcome) {
            super(null, null, false, false);
            this.outcome = outcome;
        }
    }

    /** Applies {@code event}; says what it did. */
    public Outcome apply(Event event) {
        try {
            return new Outcome.Taken(take(event));
        } catch (Refused r) {
            return r.outcome;
        }
    }

    private String take(Event event) {
        long now = clock.getAsLong();
        return switch (event.type()) {
            case WebhookEvents.CAPTURED -> {
                String chargeId = confirmed(event, ChargeStatus.State.CAPTURED).map(ChargeStatus::chargeId)
                        .orElse(event.chargeId());
                ReportOutcome outcome = bookings.report(event.id(), event.type(), event.idempotencyKey(),
                        PaymentAttempt.Report.CAPTURED, chargeId, null, now);
                if (outcome == ReportOutcome.APPLIED || outcome == ReportOutcome.IGNORED) {
                    settleIfCaptured(event.idempotencyKey());
                }
                yield outcome.name();
            }
            case WebhookEvents.DECLINED -> {
                String chargeId = confirmed(event, ChargeStatus.State.DECLINED).map(ChargeStatus::chargeId)
                        .orElse(event.chargeId());
                yield bookings.report(event.id(), event.type(), event.idempotencyKey(), PaymentAttempt.Report.DECLINED,
                        chargeId, event.reason(), now).name();
            }
            case WebhookEvents.REFUNDED -> {
                Optional<PaymentAttempt> p = bookings.paymentByKey(event.idempotencyKey());
                if (p.isPresent() && p.get().refund() == PaymentAttempt.RefundState.REQUESTED) {
                    ChargeStatus charge = confirmed(event, ChargeStatus.State.CAPTURED).orElseThrow();
                    if (charge.retainedCents() > 0) {
                        throw mismatch(event, "the provider still holds " + charge.retainedCents() + " of this charge");
                    }
                }
                if (!bookings.rememberEvent(event.id(), event.type(), event.idempotencyKey(), now)) {
                    yield ReportOutcome.DUPLICATE_EVENT.name();
                }
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

    /**
     * The provider's record of the charge {@code event} speaks of, if the service has an attempt
     * under its key (empty otherwise: the event then changes nothing but being remembered), checked
     * to agree with the event and the attempt: the amount and currency the event states are the
     * attempt's, and the provider has the charge in state {@code claimed}, for that amount, under
     * the charge id the event names. Refuses ({@link Outcome.Mismatch}) if anything disagrees, or
     * ({@link Outcome.ProviderUnavailable}) if the provider cannot be asked now.
     */
    private Optional<ChargeStatus> confirmed(Event event, ChargeStatus.State claimed) {
        Optional<PaymentAttempt> found = bookings.paymentByKey(event.idempotencyKey());
        if (found.isEmpty()) {
            return Optional.empty();
        }
        PaymentAttempt attempt = found.get();
        if (event.amountCents() == null || event.amountCents() != attempt.amountCents()
                || event.currency() == null || !event.currency().equals(attempt.currency())) {
            throw mismatch(event, "the event states " + event.amountCents() + " " + event.currency()
                    + ", the payment is for " + attempt.amountCents() + " " + attempt.currency());
        }
        Optional<ChargeStatus> charge;
        try {
            charge = gateway.status(event.idempotencyKey());
        } catch (PaymentGatewayException e) {
            throw new Refused(new Outcome.ProviderUnavailable());
        }
        if (charge.isEmpty()) {
            throw mismatch(event, "the provider has no charge under this key");
        }
        ChargeStatus c = charge.get();
        if (c.state() != claimed || c.amountCents() != attempt.amountCents() || !attempt.currency().equals(c.currency())
                || (event.chargeId() != null && !event.chargeId().equals(c.chargeId()))) {
            throw mismatch(event, "the provider records charge " + c.chargeId() + " as " + c.state() + " for "
                    + c.amountCents() + " " + c.currency());
        }
        return charge;
    }

    private static Refused mismatch(Event event, String why) {
        LOG.warning(() -> "payment event " + event.id() + " (" + event.type() + ", " + event.idempotencyKey()
                + ") refused, nothing changed: " + why);
        return new Refused(new Outcome.Mismatch(why));
    }

    /** A captured attempt whose settlement has not started (an earlier delivery may have been cut short). */
    private void settleIfCaptured(String idempotencyKey) {
        bookings.paymentByKey(idempotencyKey)
                .filter(p -> p.status() == PaymentAttempt.Status.CAPTURED && p.settlement() == PaymentAttempt.Settlement.NONE)
                .ifPresent(p -> settlement.settle(p.paymentId()));
    }
}
