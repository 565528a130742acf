package org.boxoffice.app.checkout;

import com.hazelcast.core.HazelcastException;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import org.boxoffice.app.auth.Principal;
import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.Rejection;
import org.boxoffice.app.ops.OpsMetrics;
import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.Booking;
import org.boxoffice.domain.BookingRepository;
import org.boxoffice.domain.HoldRecord;
import org.boxoffice.domain.HoldStatus;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.PaymentAttempt;
import org.boxoffice.domain.PaymentGateway;
import org.boxoffice.domain.PaymentGateway.ChargeResult;
import org.boxoffice.domain.PaymentGatewayException;
import org.boxoffice.domain.RefereeException;
import org.boxoffice.domain.Show;
import org.boxoffice.grid.Admissions;
import org.boxoffice.grid.Seats;
import org.boxoffice.grid.InventoryUnavailableException;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Starts paying for a hold (of seats, or of admissions to a general-admission area: the same flow):
 * checks it, extends it once so a slow payer keeps the seats while money
 * may be moving, records a new payment attempt (its own idempotency key), charges it, and settles
 * captured money at once. Thread-safe; called on the web server's virtual threads.
 *
 * <p>An attempt whose outcome is unknown (the provider timed out) is never assumed to have failed:
 * it is answered PENDING, and the webhook, a status lookup or reconciliation decides it later. A hold
 * has at most one live attempt (in flight or booked), decided atomically by PostgreSQL
 * ({@link BookingRepository#startAttempt}): while one may still move money, any other checkout of
 * that hold, however concurrent, answers 409 PAYMENT_IN_PROGRESS (or the booking) without calling
 * the provider.
 */
public final class CheckoutManager implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(CheckoutManager.class.getName());
    /** How long a checkout waits for a settlement someone else (the webhook) is running. */
    private static final long SETTLE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(3);

    /** Where a checkout that was not refused leaves the payment, as the buyer is told. */
    public sealed interface Payment {
        record Booked(long bookingId, String paymentId) implements Payment {
        }

        record Pending(String paymentId) implements Payment {
        }
    }

    private final ShowDirectory shows;
    private final Seats seats;
    private final Admissions admissions;
    private final InventoryRepository holds;
    private final BookingRepository bookings;
    private final PaymentGateway gateway;
    private final Settlement settlement;
    private final CheckoutSettings settings;
    private final LongSupplier clock;
    private final OpsMetrics metrics;
    private final ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();

    public CheckoutManager(ShowDirectory shows, Seats seats, Admissions admissions, InventoryRepository holds,
                           BookingRepository bookings, PaymentGateway gateway, Settlement settlement,
                           CheckoutSettings settings, LongSupplier clock, OpsMetrics metrics) {
        this.metrics = metrics;
        this.shows = shows;
        this.seats = seats;
        this.admissions = admissions;
        this.holds = holds;
        this.bookings = bookings;
        this.gateway = gateway;
        this.settlement = settlement;
        this.settings = settings;
        this.clock = clock;
    }

    /** Pays for {@code holdId} with {@code method}; every refusal is an {@link Outcome.Refused}. */
    public Outcome<Payment> checkout(Principal caller, String holdId, String method, String recipient) {
        Optional<HoldRecord> owned = ownedHold(caller, holdId);
        if (owned.isEmpty()) {
            return new Outcome.Refused<>(Rejection.HOLD_NOT_FOUND, "hold " + holdId + " not found");
        }
        HoldRecord hold = owned.get();
        Optional<Booking> booked = bookings.bookingOfHold(holdId);
        if (booked.isPresent()) {
            return booked(booked.get().bookingId(), booked.get().paymentId());
        }
        for (PaymentAttempt a : bookings.attemptsOf(holdId)) {
            if (a.live() && !abandonedBeforeTheProvider(a)) {
                return inFlight(a);
            }
        }
        Optional<Show> found = shows.find(hold.showId());
        if (found.isEmpty()) {
            return new Outcome.Refused<>(Rejection.UNKNOWN_SHOW, "show " + hold.showId() + " not found");
        }
        Show show = found.get();
        long now = clock.getAsLong();
        switch (hold.statusAt(now, show.policy().graceMillis())) {
            case HELD -> {
            }
            case RELEASED -> {
                return new Outcome.Refused<>(Rejection.HOLD_RELEASED, "this hold was released; hold the seats again");
            }
            case EXPIRED, CONFIRMED -> {
                return new Outcome.Refused<>(Rejection.HOLD_EXPIRED, "this hold expired; hold the seats again");
            }
        }
        if (!extendOnce(show, hold, now)) {
            if (holds.findHold(holdId).map(h -> h.status() == HoldStatus.RELEASED).orElse(false)) {
                return new Outcome.Refused<>(Rejection.HOLD_RELEASED, "this hold was released; hold the seats again");
            }
            return new Outcome.Refused<>(Rejection.HOLD_EXPIRED,
                    "this hold expired before the payment could start; hold the seats again");
        }
        // A hold extended before (a second attempt) made no grid write above: a member cut off from
        // its quorum must still not charge money it could not turn into a booking (503, nothing changed).
        seats.requireWritable();
        return switch (bookings.startAttempt(hold, method, recipient, now)) {
            case BookingRepository.AttemptStart.Started started -> pay(started.attempt());
            case BookingRepository.AttemptStart.InFlight other -> inFlight(other.other());
            case BookingRepository.AttemptStart.HoldEnded ended -> ended.status() == HoldStatus.RELEASED
                    ? new Outcome.Refused<>(Rejection.HOLD_RELEASED, "this hold was released; hold the seats again")
                    : new Outcome.Refused<>(Rejection.HOLD_EXPIRED, "this hold expired; hold the seats again");
        };
    }

    /**
     * What a checkout of a hold whose attempt {@code a} is live answers, without calling the
     * provider: captured money is settled, or its settlement (the booking) reported; an undecided
     * charge is a 409 PAYMENT_IN_PROGRESS naming it, so a second tab never charges the card again.
     */
    private Outcome<Payment> inFlight(PaymentAttempt a) {
        if (a.status() == PaymentAttempt.Status.CAPTURED) {
            return settled(a.paymentId());
        }
        return new Outcome.Refused<>(Rejection.PAYMENT_IN_PROGRESS, "a payment for this hold is already in progress ("
                + a.paymentId() + "); wait for its outcome (GET the hold) instead of paying again",
                Map.of("paymentId", a.paymentId()));
    }

    /**
     * An attempt left UNKNOWN (the charge call got no answer) that the provider has never heard of,
     * asked again after the charge timeout, never reached it: it is declined here, so the buyer can
     * pay with a new attempt instead of waiting for reconciliation. Should the lost request reach
     * the provider after all, reconciliation refunds that charge ("captured after the attempt was
     * declined"). True if the attempt was given up.
     */
    private boolean abandonedBeforeTheProvider(PaymentAttempt a) {
        long now = clock.getAsLong();
        if (a.status() != PaymentAttempt.Status.UNKNOWN
                || a.updatedAt() > now - settings.payments().chargeTimeout().toMillis()) {
            return false;
        }
        Optional<PaymentGateway.ChargeStatus> status;
        try {
            status = bounded(() -> gateway.status(a.idempotencyKey()));
        } catch (PaymentGatewayException e) {
            return false;
        }
        if (status.isPresent()) {
            return false;
        }
        bookings.report(null, null, a.idempotencyKey(), PaymentAttempt.Report.DECLINED, null,
                "never reached the payment provider", now);
        return bookings.payment(a.paymentId()).map(p -> !p.inFlight()).orElse(false);
    }

    /**
     * Extends the hold by the payment window, once in its life (the referee's {@code extended} flag),
     * through the grid like every seat change (a hold of admissions on each stripe it holds). A hold that lapsed meanwhile is released: false.
     */
    private boolean extendOnce(Show show, HoldRecord hold, long now) {
        if (bookings.holdExtended(hold.holdId()) || settings.paymentWindow().isZero()) {
            return true;
        }
        long target = show.policy().extendedForPayment(hold.expiresAt(), settings.paymentWindow().toMillis());
        if (hold.byCount()) {
            Optional<AdmissionArea> area = admissions.area(show.showId(), hold.area());
            return area.isPresent() && admissions.extend(show, area.get(), hold.holdId(), hold.accountId(), target, now);
        }
        SortedMap<Integer, int[]> byBlock = show.layout().byBlockOf(hold.seatIds());
        return seats.extend(show, hold.holdId(), hold.accountId(), byBlock.keySet(), target, now, "system:checkout",
                "lapsed before payment");
    }

    private Outcome<Payment> pay(PaymentAttempt p) {
        ChargeResult result;
        try {
            result = charge(p);
        } catch (PaymentGatewayException e) {
            LOG.log(Level.INFO, "payment " + p.paymentId() + ": no answer from the provider (" + e.getMessage()
                    + "); asking for its status");
            Optional<PaymentGateway.ChargeStatus> status = lookup(p);
            if (status.isEmpty() || status.get().state() == PaymentGateway.ChargeStatus.State.PENDING) {
                try {
                    bookings.markUnknown(p.paymentId(), clock.getAsLong());
                } catch (RefereeException db) {
                    // the attempt row says in flight already; reconciliation asks the provider again
                    LOG.log(Level.WARNING, "payment " + p.paymentId() + ": could not mark its outcome unknown (" + db + ")");
                }
                countPayment("unknown");
                return pending(p.paymentId());
            }
            PaymentGateway.ChargeStatus s = status.get();
            result = s.state() == PaymentGateway.ChargeStatus.State.CAPTURED
                    ? new ChargeResult.Captured(s.chargeId()) : new ChargeResult.Declined(s.chargeId(), "declined");
        }
        long now = clock.getAsLong();
        countPayment(switch (result) {
            case ChargeResult.Captured captured -> "captured";
            case ChargeResult.Declined declined -> "declined";
            case ChargeResult.Pending pending -> "pending";
        });
        return switch (result) {
            case ChargeResult.Captured captured -> capturedNow(p, captured, now);
            case ChargeResult.Declined declined -> {
                bookings.report(null, null, p.idempotencyKey(), PaymentAttempt.Report.DECLINED, declined.chargeId(),
                        declined.reason(), now);
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("paymentId", p.paymentId());
                details.put("reason", declined.reason());
                yield new Outcome.Refused<>(Rejection.PAYMENT_DECLINED,
                        "the payment was declined (" + declined.reason() + "); the hold is kept, try another payment method",
                        details);
            }
            case ChargeResult.Pending pending -> pending(p.paymentId());
        };
    }

    private void countPayment(String outcome) {
        metrics.count(OpsMetrics.PAYMENTS, outcome);
    }

    /**
     * The provider took the money. Recording and settling it needs PostgreSQL (and the grid); if either
     * fails now, the money is still accounted for: the attempt row was written before the charge, and
     * the provider's webhook and the reconciliation pass settle it later. So the buyer hears PENDING
     * with the payment id to follow, never a 503 that reads as "nothing happened".
     */
    private Outcome<Payment> capturedNow(PaymentAttempt p, ChargeResult.Captured captured, long now) {
        try {
            bookings.report(null, null, p.idempotencyKey(), PaymentAttempt.Report.CAPTURED, captured.chargeId(), null, now);
            return settled(p.paymentId());
        } catch (RefereeException | InventoryUnavailableException | HazelcastException
                 | HazelcastInstanceNotActiveException e) {
            LOG.log(Level.WARNING, "payment " + p.paymentId() + " captured (" + captured.chargeId()
                    + ") but could not be settled now (" + e + "); the webhook or reconciliation settles it");
            return pending(p.paymentId());
        }
    }

    /**
     * What settling captured money means for the buyer waiting on the checkout. If someone else is
     * settling it (the provider's webhook often arrives while the charge call returns), waits a
     * moment for that settlement rather than answering PENDING at once.
     */
    private Outcome<Payment> settled(String paymentId) {
        Settlement.Result result = settlement.settle(paymentId);
        long deadline = System.nanoTime() + SETTLE_WAIT_NANOS;
        while (result instanceof Settlement.Result.InProgress && System.nanoTime() < deadline) {
            PaymentAttempt p = bookings.payment(paymentId).orElseThrow();
            if (p.settlement() == PaymentAttempt.Settlement.BOOKED || p.settlement() == PaymentAttempt.Settlement.REJECTED) {
                result = settlement.settle(paymentId);
                break;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return switch (result) {
            case Settlement.Result.Booked settled -> booked(settled.booking().bookingId(), paymentId);
            case Settlement.Result.NotBooked notBooked -> new Outcome.Refused<>(Rejection.HOLD_EXPIRED,
                    "the seats could not be sold (" + notBooked.reason() + "); the payment "
                            + (notBooked.refunded() ? "was refunded" : "is being refunded"),
                    Map.of("paymentId", paymentId, "refunded", notBooked.refunded()));
            case Settlement.Result.InProgress p -> pending(paymentId);
            case Settlement.Result.NotCaptured n -> pending(paymentId);
        };
    }

    /**
     * Charges once, and once more under the same key if the first call got no answer (a network
     * retry: the provider answers the same charge, never a second one). Bounded by the charge timeout.
     */
    private ChargeResult charge(PaymentAttempt p) {
        PaymentGateway.ChargeRequest request = new PaymentGateway.ChargeRequest(p.idempotencyKey(), p.amountCents(),
                p.currency(), p.method(), p.paymentId());
        try {
            return bounded(() -> gateway.charge(request));
        } catch (PaymentGatewayException first) {
            return bounded(() -> gateway.charge(request));
        }
    }

    private Optional<PaymentGateway.ChargeStatus> lookup(PaymentAttempt p) {
        try {
            return bounded(() -> gateway.status(p.idempotencyKey()));
        } catch (PaymentGatewayException e) {
            return Optional.empty();
        }
    }

    private <T> T bounded(java.util.concurrent.Callable<T> call) {
        Future<T> future = calls.submit(call);
        try {
            return future.get(settings.payments().chargeTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new PaymentGatewayException("no answer from the payment provider within "
                    + settings.payments().chargeTimeout().toMillis() + " ms");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new PaymentGatewayException("payment provider call failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PaymentGatewayException("interrupted while waiting for the payment provider", e);
        }
    }

    private Optional<HoldRecord> ownedHold(Principal caller, String holdId) {
        Optional<HoldRecord> hold = holdId == null || holdId.length() > 64 ? Optional.empty() : holds.findHold(holdId);
        return hold.filter(h -> h.accountId().equals(caller.accountId()) || caller.isAdmin());
    }

    private static Outcome<Payment> booked(long bookingId, String paymentId) {
        return new Outcome.Done<>(new Payment.Booked(bookingId, paymentId));
    }

    private static Outcome<Payment> pending(String paymentId) {
        return new Outcome.Done<>(new Payment.Pending(paymentId));
    }

    @Override
    public void close() {
        calls.shutdownNow();
    }
}
