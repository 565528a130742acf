package org.boxoffice.app.checkout;

import org.boxoffice.grid.Daemons;

import com.hazelcast.core.HazelcastInstance;
import org.boxoffice.app.ops.OpsMetrics;
import org.boxoffice.domain.Booking;
import org.boxoffice.domain.BookingRepository;
import org.boxoffice.domain.PaymentAttempt;
import org.boxoffice.domain.PaymentGateway;
import org.boxoffice.domain.PaymentGateway.ChargeStatus;
import org.boxoffice.domain.PaymentGatewayException;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Compares the provider's payments with the service's attempts and bookings, and repairs every
 * difference so that no money is kept without a booking:
 * <ul>
 *   <li>a captured charge with no attempt here is refunded;</li>
 *   <li>a captured charge whose attempt is undecided (its webhook was lost) is recorded and settled:
 *       booked if the seats can still be had, refunded otherwise;</li>
 *   <li>a captured charge whose attempt was declined here first is refunded;</li>
 *   <li>captured attempts not settled (their settler died) are settled; refunds asked for but not
 *       made are made; refunded bookings whose seats are not back on sale are finished;</li>
 *   <li>undecided attempts the provider never heard of are given up after a while;</li>
 *   <li>every booking's charge is confirmed with the provider once; a booking whose charge the
 *       provider does not know (or records otherwise) is flagged for an operator.</li>
 * </ul>
 * Everything it does goes through the same idempotent steps as the live paths, so it is safe at any
 * time, twice, and on several members at once; attempts younger than the grace period are left to
 * the checkout or webhook that is handling them. The periodic run happens on the oldest member only.
 *
 * <p>One repair never stalls the others: each runs on a thread of its own, and a pass waits for it
 * at most {@link #STEP_TIMEOUT} (a grid call started as a member was cut off can be parked until
 * Hazelcast's 60 s call timeout, a provider call until its HTTP timeout). A repair still running is
 * left to finish and skipped by later passes on this member until it has; its PostgreSQL claim keeps
 * other members' settlers off it meanwhile.
 */
public final class Reconciliation implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Reconciliation.class.getName());
    /** How far back a full pass asks the provider for charges. */
    private static final long LOOKBACK_MILLIS = 30L * 24 * 3_600_000;
    /** How often a pass is a full one; the others ask only for recent charges. */
    private static final long FULL_PASS_EVERY_MILLIS = 6L * 3_600_000;
    /** How far back, beyond the grace period, the other passes ask. */
    private static final long RECENT_MILLIS = 3_600_000;
    /** Charges looked up in the service's attempts per query. */
    private static final int PAGE = 500;
    /** How long a pass waits for one repair before it goes on without it. */
    public static final Duration STEP_TIMEOUT = Duration.ofSeconds(10);

    /**
     * What one pass did.
     *
     * @param flagged bookings whose charge the provider did not confirm (logged, and kept FLAGGED for an operator)
     */
    public record Report(int charges, int settled, int refunded, int cancellationsFinished, int abandoned, int flagged) {
    }

    private final BookingRepository bookings;
    private final PaymentGateway gateway;
    private final Settlement settlement;
    private final BookingManager bookingManager;
    private final CheckoutSettings settings;
    private final LongSupplier clock;
    private final HazelcastInstance hz;
    private final OpsMetrics metrics;
    private final ScheduledExecutorService timer;
    private final ExecutorService steps = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("payment-repair-", 0).factory());
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private final long stepTimeoutNanos;
    private long nextFullPass = Long.MIN_VALUE;

    public Reconciliation(BookingRepository bookings, PaymentGateway gateway, Settlement settlement,
                          BookingManager bookingManager, CheckoutSettings settings, LongSupplier clock,
                          HazelcastInstance hz, OpsMetrics metrics) {
        this(bookings, gateway, settlement, bookingManager, settings, clock, hz, metrics, STEP_TIMEOUT);
    }

    /** As above, waiting at most {@code stepTimeout} for one repair (tests shorten it). */
    public Reconciliation(BookingRepository bookings, PaymentGateway gateway, Settlement settlement,
                          BookingManager bookingManager, CheckoutSettings settings, LongSupplier clock,
                          HazelcastInstance hz, OpsMetrics metrics, Duration stepTimeout) {
        this.stepTimeoutNanos = stepTimeout.toNanos();
        this.metrics = metrics;
        this.bookings = bookings;
        this.gateway = gateway;
        this.settlement = settlement;
        this.bookingManager = bookingManager;
        this.settings = settings;
        this.clock = clock;
        this.hz = hz;
        this.timer = Daemons.scheduler("payment-reconciliation");
    }

    /** Runs {@link #reconcileOnce} every {@code reconcileEvery} on the oldest member (never if zero). */
    public Reconciliation start() {
        long every = settings.reconcileEvery().toMillis();
        if (every > 0) {
            timer.scheduleWithFixedDelay(() -> {
                try {
                    if (org.boxoffice.grid.Membership.oldest(hz.getCluster())) {
                        reconcileOnce();
                    }
                } catch (RuntimeException e) {
                    countRun("failed");
                    LOG.log(Level.WARNING, "payment reconciliation failed; trying again on the next tick", e);
                }
            }, every, every, TimeUnit.MILLISECONDS);
        }
        return this;
    }

    /**
     * One pass; see the class comment. The provider is asked for its charges of the last 30 days on
     * the first pass and every 6 hours after, and for those of the last hour (plus the grace period)
     * on the others: a charge is settled in the pass after its grace period, so it is always seen by
     * a recent pass, and the full passes catch what a member that was not running missed. Attempts
     * stuck in an undecided or unsettled state are found from the database side on every pass.
     */
    public synchronized Report reconcileOnce() {
        long now = clock.getAsLong();
        long settledBefore = now - settings.reconcileGrace().toMillis();
        boolean full = now >= nextFullPass;
        long since = full ? now - LOOKBACK_MILLIS : settledBefore - RECENT_MILLIS;
        int[] counts = new int[5];
        Set<String> seen = new HashSet<>();
        List<ChargeStatus> charges = gateway.charges(since);
        for (int from = 0; from < charges.size(); from += PAGE) {
            List<ChargeStatus> page = charges.subList(from, Math.min(charges.size(), from + PAGE));
            Map<String, PaymentAttempt> attempts = bookings.paymentsByKeys(
                    page.stream().map(ChargeStatus::idempotencyKey).toList());
            for (ChargeStatus charge : page) {
                counts[0]++;
                PaymentAttempt attempt = attempts.get(charge.idempotencyKey());
                if (attempt == null) {
                    if (charge.createdAt() < settledBefore && step("charge " + charge.idempotencyKey(),
                            () -> refundUnknown(charge, "no payment attempt of this service")).orElse(false)) {
                        counts[2]++;
                    }
                    continue;
                }
                seen.add(attempt.paymentId());
                if (attempt.updatedAt() < settledBefore) {
                    resolveApart(attempt, Optional.of(charge), now, counts);
                }
            }
        }
        if (full) {
            nextFullPass = now + FULL_PASS_EVERY_MILLIS;
        }
        for (PaymentAttempt p : bookings.needingAttention(settledBefore)) {
            if (seen.add(p.paymentId())) {
                resolveApart(p, null, now, counts);
            }
        }
        for (Booking b : bookings.refundedNotCancelled()) {
            if (step("booking " + b.bookingId(), () -> bookingManager.finishCancellation(b.bookingId())).orElse(false)) {
                counts[3]++;
            }
        }
        int flagged = confirmCharges(settledBefore);
        Report report = new Report(counts[0], counts[1], counts[2], counts[3], counts[4], flagged);
        countRun("ok");
        countRepairs("settled", report.settled());
        countRepairs("refunded", report.refunded());
        countRepairs("cancellation_finished", report.cancellationsFinished());
        countRepairs("abandoned", report.abandoned());
        countRepairs("flagged", report.flagged());
        if (report.settled() + report.refunded() + report.cancellationsFinished() + report.abandoned()
                + report.flagged() > 0) {
            LOG.info(() -> "payment reconciliation: " + report);
        }
        return report;
    }

    /**
     * Confirms each booking's charge with the provider once, by a status look-up under its attempt's
     * key: a booking whose charge the provider does not know, or records as anything but captured for
     * the booking's amount, is flagged (logged as SEVERE and kept FLAGGED for an operator). Returns
     * how many were flagged in this pass.
     */
    private int confirmCharges(long createdBefore) {
        int flagged = 0;
        for (Booking b : bookings.chargesToConfirm(createdBefore, PAGE)) {
            Optional<PaymentAttempt> p = bookings.payment(b.paymentId());
            Optional<ChargeStatus> charge;
            try {
                charge = p.isEmpty() ? Optional.empty() : gateway.status(p.get().idempotencyKey());
            } catch (PaymentGatewayException e) {
                LOG.log(Level.FINE, "could not confirm the charge of booking " + b.bookingId() + " now", e);
                return flagged;
            }
            String problem = charge.isEmpty() ? "the payment provider knows no charge for it"
                    : charge.get().state() != ChargeStatus.State.CAPTURED ? "the provider records its charge as "
                    + charge.get().state()
                    : charge.get().amountCents() != b.amountCents() || !b.currency().equals(charge.get().currency())
                    ? "the provider captured " + charge.get().amountCents() + " " + charge.get().currency()
                    + ", the booking is for " + b.amountCents() + " " + b.currency()
                    : null;
            bookings.chargeChecked(b.bookingId(), problem == null, problem);
            if (problem != null) {
                flagged++;
                LOG.severe(() -> "booking " + b.bookingId() + " (payment " + b.paymentId() + ") FLAGGED: " + problem);
            }
        }
        return flagged;
    }

    /**
     * {@link #resolve} on a thread of its own (see the class comment); {@code charge} null means
     * look it up first if the attempt is undecided. What it repaired is added to {@code counts}
     * only if it ended within the step timeout.
     */
    private void resolveApart(PaymentAttempt p, Optional<ChargeStatus> known, long now, int[] counts) {
        step("payment " + p.paymentId(), () -> {
            Optional<ChargeStatus> charge = known != null ? known
                    : PaymentAttempt.undecided().contains(p.status()) ? lookup(p) : Optional.<ChargeStatus>empty();
            int[] mine = new int[counts.length];
            resolve(p, charge, now, mine);
            return mine;
        }).ifPresent(mine -> {
            for (int i = 0; i < counts.length; i++) {
                counts[i] += mine[i];
            }
        });
    }

    /**
     * Runs one repair, named {@code what}, on a thread of its own and waits for it at most the step
     * timeout. Empty if it is still running then (it goes on; later passes skip {@code what} until it
     * ends), or if it was still running from an earlier pass. A repair's exception fails the pass, as
     * it would inline.
     */
    private <T> Optional<T> step(String what, Supplier<T> repair) {
        if (!running.add(what)) {
            LOG.fine(() -> "repair of " + what + " is still running from an earlier pass; skipped");
            return Optional.empty();
        }
        Future<T> done;
        try {
            done = steps.submit(() -> {
                try {
                    return repair.get();
                } finally {
                    running.remove(what);
                }
            });
        } catch (RuntimeException e) {     // closed
            running.remove(what);
            throw e;
        }
        try {
            return Optional.ofNullable(done.get(stepTimeoutNanos, TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            countRepairs("overran", 1);
            LOG.warning(() -> "repair of " + what + " still running after "
                    + TimeUnit.NANOSECONDS.toMillis(stepTimeoutNanos) + " ms; this pass goes on without it");
            return Optional.empty();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("repair of " + what + " failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("reconciliation interrupted", e);
        }
    }

    /** Brings one attempt in line with what the provider says about its charge (if anything). */
    private void resolve(PaymentAttempt p, Optional<ChargeStatus> charge, long now, int[] counts) {
        if (PaymentAttempt.undecided().contains(p.status())) {
            if (charge.isEmpty()) {
                if (p.createdAt() < now - settings.abandonAfter().toMillis()) {
                    bookings.report(null, null, p.idempotencyKey(), PaymentAttempt.Report.DECLINED, null,
                            "never reached the payment provider", now);
                    counts[4]++;
                } else {
                    bookings.markUnknown(p.paymentId(), now);
                }
                return;
            }
            switch (charge.get().state()) {
                case CAPTURED -> bookings.report(null, null, p.idempotencyKey(), PaymentAttempt.Report.CAPTURED,
                        charge.get().chargeId(), null, now);
                case DECLINED -> bookings.report(null, null, p.idempotencyKey(), PaymentAttempt.Report.DECLINED,
                        charge.get().chargeId(), "declined", now);
                case PENDING -> {
                    return;
                }
            }
            p = bookings.payment(p.paymentId()).orElseThrow();
        }
        if (p.status() == PaymentAttempt.Status.DECLINED) {
            // declined here first, captured at the provider after all: the money goes back
            if (charge.isPresent() && charge.get().retainedCents() > 0 && refundUnknown(charge.get(),
                    "captured after the attempt was declined")) {
                counts[2]++;
            }
            return;
        }
        if (p.status() != PaymentAttempt.Status.CAPTURED) {
            return;
        }
        if (p.settlement() == PaymentAttempt.Settlement.NONE || p.settlement() == PaymentAttempt.Settlement.SETTLING) {
            switch (settlement.settle(p.paymentId())) {
                case Settlement.Result.Booked booked -> counts[1]++;
                case Settlement.Result.NotBooked notBooked -> counts[2]++;
                default -> {
                }
            }
            return;
        }
        if (p.settlement() == PaymentAttempt.Settlement.BOOKED) {
            if (bookingManager.finishCancellation(p.bookingId())) {
                counts[3]++;
            }
            return;
        }
        if (p.refund() != PaymentAttempt.RefundState.REFUNDED && settlement.refund(p)) {
            counts[2]++;
        }
    }

    private void countRun(String result) {
        metrics.count(OpsMetrics.RECONCILIATION_RUNS, result);
    }

    /** What a pass repaired: each is money or seats a live path left undone. */
    private void countRepairs(String action, int n) {
        if (n > 0) {
            metrics.count(OpsMetrics.RECONCILIATION_REPAIRS, action, n);
        }
    }

    private Optional<ChargeStatus> lookup(PaymentAttempt p) {
        try {
            return gateway.status(p.idempotencyKey());
        } catch (PaymentGatewayException e) {
            return Optional.of(new ChargeStatus(null, p.idempotencyKey(), p.amountCents(), p.currency(),
                    ChargeStatus.State.PENDING, 0, p.createdAt()));
        }
    }

    /** Refunds what is left of a charge that no attempt here accounts for. */
    private boolean refundUnknown(ChargeStatus charge, String reason) {
        if (charge.retainedCents() <= 0) {
            return false;
        }
        try {
            gateway.refund(new PaymentGateway.RefundRequest(Settlement.refundKey(charge.idempotencyKey()),
                    charge.idempotencyKey(), charge.retainedCents(), reason));
            settlement.countRefund("unmatched_charge");
            LOG.warning(() -> "refunded charge " + charge.chargeId() + " (" + charge.idempotencyKey() + "): " + reason);
            return true;
        } catch (PaymentGatewayException e) {
            LOG.log(Level.WARNING, "could not refund charge " + charge.chargeId() + " now", e);
            return false;
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        steps.shutdownNow();
    }
}
