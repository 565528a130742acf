package org.boxoffice.app.checkout;

import org.boxoffice.app.catalog.ShowDirectory;
import org.boxoffice.app.ops.OpsMetrics;
import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.Booking;
import org.boxoffice.domain.BookingRepository;
import org.boxoffice.domain.BookingRepository.SettlementClaim;
import org.boxoffice.domain.HoldRecord;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.PaymentAttempt;
import org.boxoffice.domain.PaymentGateway;
import org.boxoffice.domain.PaymentGatewayException;
import org.boxoffice.domain.RefereeException;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.Show;
import org.boxoffice.grid.Admissions;
import org.boxoffice.grid.BlockCommand;
import org.boxoffice.grid.Seats;
import org.boxoffice.grid.InventoryUnavailableException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Turns captured money into a booking, or gives it back. The one place a payment becomes SOLD
 * seats or sold admissions; the checkout, the webhook and the reconciliation all come here. A hold
 * of admissions settles the same way, part by part over its stripes ({@link #driveAdmissions}).
 *
 * <p>How a captured attempt settles:
 * <ol>
 *   <li>Claim it in PostgreSQL ({@link BookingRepository#claimSettlement}): one settler per
 *       attempt, one settling attempt per hold, and a booking id that stays the same on every
 *       re-drive.</li>
 *   <li>Confirm the hold block by block, ascending, through the grid and the referee
 *       ({@link BlockCommand.Confirm}): only the matching hold, only while it has not lapsed.</li>
 *   <li>Late success: if the very first block says the hold lapsed or is gone, the money came after
 *       expiry. The seats are claimed again under a new hold id, all or nothing; if they are still
 *       free the booking goes ahead on them, and if someone else holds or bought any of them the
 *       money is refunded with that reason.</li>
 *   <li>If a block fails after earlier blocks were confirmed (the hold lost seats, or lapsed in the
 *       middle), the confirmed blocks are cancelled back to sale, what the hold still holds is
 *       released, and the money is refunded. A booking is made only when every block confirmed.</li>
 *   <li>Every block confirmed: one transaction records the booking, its seats (a seat can be live in
 *       one booking only) and its ticket mail.</li>
 * </ol>
 * A technical failure (grid or database unavailable) leaves the claim as it is; after its lease a
 * re-drive (reconciliation) finds the blocks already confirmed for this booking id unchanged and
 * carries on. Refunds are asked for in PostgreSQL first and then made at the provider under a key
 * derived from the attempt, so asking twice never refunds twice.
 *
 * <p>Thread-safe; blocks on the grid, PostgreSQL and the provider.
 */
public final class Settlement {

    private static final Logger LOG = Logger.getLogger(Settlement.class.getName());
    private static final String ACTOR = "system:checkout";

    /** How a settlement ended, as far as this caller saw. */
    public sealed interface Result {
        record Booked(Booking booking) implements Result {
        }

        /** The money was not turned into a booking; it is refunded (or will be, if {@code refunded} is false). */
        record NotBooked(String reason, boolean refunded) implements Result {
        }

        /** Someone else is settling, or the grid or database failed: reconciliation finishes it. */
        record InProgress() implements Result {
        }

        /** The attempt has not been captured (yet). */
        record NotCaptured() implements Result {
        }
    }

    private final ShowDirectory shows;
    private final Seats seats;
    private final Admissions admissions;
    private final InventoryRepository holds;
    private final BookingRepository bookings;
    private final PaymentGateway gateway;
    private final CheckoutSettings settings;
    private final LongSupplier clock;
    private final OpsMetrics metrics;

    public Settlement(ShowDirectory shows, Seats seats, Admissions admissions, InventoryRepository holds,
                      BookingRepository bookings, PaymentGateway gateway, CheckoutSettings settings, LongSupplier clock,
                      OpsMetrics metrics) {
        this.metrics = metrics;
        this.shows = shows;
        this.seats = seats;
        this.admissions = admissions;
        this.holds = holds;
        this.bookings = bookings;
        this.gateway = gateway;
        this.settings = settings;
        this.clock = clock;
    }

    /** Settles the captured attempt {@code paymentId}; safe to call any number of times, from anywhere. */
    public Result settle(String paymentId) {
        long now = clock.getAsLong();
        SettlementClaim claim = bookings.claimSettlement(paymentId, now, now - settings.settleLease().toMillis());
        return switch (claim) {
            case SettlementClaim.Busy busy -> new Result.InProgress();
            case SettlementClaim.Ended ended -> ended(ended.payment());
            case SettlementClaim.HoldTaken taken -> {
                String reason = "the hold was already paid by payment " + taken.other().paymentId();
                bookings.reject(paymentId, reason, List.of(), now);
                countRefused("already_paid");
                LOG.info(() -> "payment " + paymentId + " refused: " + reason);
                yield new Result.NotBooked(reason, refund(bookings.payment(paymentId).orElseThrow()));
            }
            case SettlementClaim.Claimed claimed -> {
                try {
                    yield drive(claimed.payment(), claimed.bookingId(), now);
                } catch (InventoryUnavailableException | RefereeException e) {
                    LOG.log(Level.WARNING, "settlement of " + paymentId + " interrupted; reconciliation finishes it", e);
                    yield new Result.InProgress();
                }
            }
        };
    }

    private Result ended(PaymentAttempt p) {
        return switch (p.settlement()) {
            case BOOKED -> new Result.Booked(bookings.booking(p.bookingId()).orElseThrow());
            case REJECTED -> new Result.NotBooked(p.reason(), refund(p));
            case SETTLING -> new Result.InProgress();
            case NONE -> new Result.NotCaptured();
        };
    }

    private Result drive(PaymentAttempt p, long bookingId, long now) {
        HoldRecord hold = holds.findHold(p.holdId()).orElseThrow();
        Show show = shows.find(hold.showId()).orElseThrow();
        if (hold.byCount()) {
            return driveAdmissions(p, bookingId, show, hold, now);
        }
        SortedMap<Integer, int[]> byBlock = show.layout().byBlockOf(hold.seatIds());
        String reclaimId = hold.holdId() + "~" + Long.toString(bookingId, 36);
        List<String> involved = List.of(hold.holdId(), reclaimId);
        List<Integer> confirmed = new ArrayList<>();

        String soldVia = hold.holdId();
        Rejection failure = seats.confirm(show, hold.holdId(), byBlock, bookingId, now, confirmed);
        if (failure != null && confirmed.isEmpty()
                && (failure == Rejection.HOLD_EXPIRED || failure == Rejection.HOLD_NOT_FOUND)) {
            Optional<String> refusal = reclaim(show, hold, reclaimId, byBlock, now);
            if (refusal.isPresent()) {
                countRefused("late");
                return refuse(p, refusal.get(), show, hold, byBlock, confirmed, bookingId, involved, now);
            }
            soldVia = reclaimId;
            LOG.info(() -> "payment " + p.paymentId() + " arrived after hold " + hold.holdId()
                    + " lapsed; its seats were still free and are re-claimed as " + reclaimId);
            failure = seats.confirm(show, reclaimId, byBlock, bookingId, now, confirmed);
        }
        if (failure != null) {
            // lapsed while its blocks were confirmed, or lost seats: the money came too late for them
            countRefused(failure == Rejection.HOLD_EXPIRED ? "late" : "seats_lost");
            return refuse(p, reasonFor(failure), show, hold, byBlock, confirmed, bookingId, involved, now);
        }
        Booking booking = bookings.book(p.paymentId(), bookingId, now);
        metrics.count(OpsMetrics.BOOKINGS, soldVia.equals(hold.holdId()) ? "on_time" : "late");
        seats.sold(show, hold.accountId(), soldVia, byBlock);
        LOG.fine(() -> "payment " + p.paymentId() + " booked as " + bookingId);
        return new Result.Booked(booking);
    }

    /**
     * Settles a hold of admissions: every part of it sold through the grid and the referee, then one
     * transaction books it with one ticket per admission (the referee refuses to issue them unless the
     * hold's sold parts add up to its quantity). A part that lapsed, or a hold that no longer holds
     * all it was for, refuses the sale: what was sold goes back, the rest is released, the money is
     * refunded. Money that came after the hold lapsed is refunded (admissions are not claimed again).
     * A re-drive after a crash finds the parts already sold and carries on.
     */
    private Result driveAdmissions(PaymentAttempt p, long bookingId, Show show, HoldRecord hold, long now) {
        AdmissionArea area = admissions.area(show.showId(), hold.area())
                .orElseThrow(() -> new IllegalStateException("hold " + hold.holdId() + " of unknown area " + hold.area()));
        Admissions.Confirmation confirmation = admissions.confirm(show, area, hold.holdId(), hold.quantity(), now);
        if (confirmation != Admissions.Confirmation.SOLD) {
            // lapsed: its part refused the sale, or the sweeper had ended its parts before the money came
            boolean late = confirmation == Admissions.Confirmation.LAPSED
                    || hold.statusAt(now, show.policy().graceMillis()) == org.boxoffice.domain.HoldState.EXPIRED;
            countRefused(late ? "late" : "seats_lost");
            String reason = late ? "the hold expired before the payment was confirmed"
                    : "the hold no longer holds all its admissions";
            admissions.giveBack(show, area, hold.holdId(), null, now);
            admissions.release(show, area, hold.holdId(), hold.accountId(), now);
            bookings.reject(p.paymentId(), reason, List.of(hold.holdId()), now);
            LOG.info(() -> "payment " + p.paymentId() + " for hold " + hold.holdId() + " refused and refunded: " + reason);
            return new Result.NotBooked(reason, refund(bookings.payment(p.paymentId()).orElseThrow()));
        }
        Booking booking = bookings.book(p.paymentId(), bookingId, now);
        metrics.count(OpsMetrics.BOOKINGS, "on_time");
        admissions.sold(show, hold.accountId(), hold.holdId());
        LOG.fine(() -> "payment " + p.paymentId() + " booked as " + bookingId + " (" + hold.quantity() + " admissions)");
        return new Result.Booked(booking);
    }

    /**
     * Claims a lapsed hold's seats again for the money that arrived late, under {@code reclaimId},
     * within the account's limit; the reason it cannot, if it cannot.
     */
    private Optional<String> reclaim(Show show, HoldRecord hold, String reclaimId, SortedMap<Integer, int[]> byBlock,
                                     long now) {
        long expiresAt = show.policy().reclaimExpiresAt(now, settings.reclaimHold().toMillis());
        return switch (seats.hold(show, reclaimId, hold.accountId(), byBlock, expiresAt, now,
                hold.seatIds().toArray(String[]::new))) {
            case Seats.Claim.Held held -> Optional.empty();
            case Seats.Claim.OverLimit over ->
                    Optional.of("the payment arrived after the hold expired, and the account is at its seat limit");
            case Seats.Claim.Refused refused ->
                    Optional.of("the payment arrived after the hold expired, and its seats were taken by someone else");
        };
    }

    /** Puts back what this settlement took, records the refusal, and refunds. */
    private Result refuse(PaymentAttempt p, String reason, Show show, HoldRecord hold, SortedMap<Integer, int[]> byBlock,
                          List<Integer> confirmed, long bookingId, List<String> holdIds, long now) {
        seats.cancelSale(show, bookingId, null, new java.util.TreeSet<>(confirmed), now, ACTOR, reason);
        for (String holdId : holdIds) {
            seats.release(show, holdId, hold.accountId(), byBlock.keySet(), now, ACTOR, reason, false);
        }
        bookings.reject(p.paymentId(), reason, holdIds, now);
        LOG.info(() -> "payment " + p.paymentId() + " for hold " + hold.holdId() + " refused and refunded: " + reason);
        return new Result.NotBooked(reason, refund(bookings.payment(p.paymentId()).orElseThrow()));
    }

    private static String reasonFor(Rejection failure) {
        return switch (failure) {
            case HOLD_EXPIRED -> "the hold expired before the payment was confirmed";
            case HOLD_NOT_FOUND -> "the hold no longer holds all its seats";
            default -> "the seats could not be sold: " + failure;
        };
    }

    /**
     * Gives a captured attempt's money back (its refund asked for first, in PostgreSQL, then made at
     * the provider under a key derived from the attempt). True once the provider has refunded;
     * false if it could not be reached now (reconciliation retries).
     */
    public boolean refund(PaymentAttempt p) {
        if (p.refund() == PaymentAttempt.RefundState.REFUNDED) {
            return true;
        }
        if (p.status() != PaymentAttempt.Status.CAPTURED) {
            return false;
        }
        String reason = p.reason() == null ? "refunded" : p.reason();
        bookings.requestRefund(p.paymentId(), reason, clock.getAsLong());
        try {
            gateway.refund(new PaymentGateway.RefundRequest(refundKey(p.idempotencyKey()), p.idempotencyKey(),
                    p.amountCents(), reason));
        } catch (PaymentGatewayException e) {
            LOG.log(Level.WARNING, "refund of " + p.paymentId() + " not made now; reconciliation retries it", e);
            return false;
        }
        if (bookings.refunded(p.paymentId(), clock.getAsLong())) {
            // counted by whoever recorded it: parallel cancellations of one booking are one refund
            countRefund(p.settlement() == PaymentAttempt.Settlement.BOOKED ? "cancellation" : "refused_payment");
        }
        return true;
    }

    /** A captured payment that cannot become a booking and is refunded; {@code reason} says why. */
    private void countRefused(String reason) {
        metrics.count(OpsMetrics.PAYMENTS_REFUSED, reason);
    }

    /** A refund the provider made; {@code kind}: cancellation, refused_payment or unmatched_charge. */
    void countRefund(String kind) {
        metrics.count(OpsMetrics.REFUNDS, kind);
    }

    /** The provider key of the one refund of the charge made under {@code chargeKey}. */
    static String refundKey(String chargeKey) {
        return "rf-" + chargeKey;
    }
}
