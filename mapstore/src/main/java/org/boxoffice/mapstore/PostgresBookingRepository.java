package org.boxoffice.mapstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.boxoffice.domain.AdmissionTickets;
import org.boxoffice.domain.Booking;
import org.boxoffice.domain.BookingRepository;
import org.boxoffice.domain.HoldRecord;
import org.boxoffice.domain.HoldStatus;
import org.boxoffice.domain.PaymentAttempt;

import static org.boxoffice.mapstore.PostgresInventoryRepository.strings;
import static org.boxoffice.mapstore.PostgresInventoryRepository.timestamp;

/**
 * Payment attempts, bookings and tickets on PostgreSQL (migration V3).
 *
 * <p>Every change is one conditional statement, or one short transaction where several rows must
 * change together (a booking with its seats and its mail; a refund with its booking). The schema's
 * unique indexes are the last word: one booking per hold, one live booking per seat, one live
 * attempt per hold (V5), one settling attempt per hold. Thread-safe; every method borrows one
 * pooled connection and returns it.
 */
public final class PostgresBookingRepository implements BookingRepository {

    private static final String UNIQUE_VIOLATION = "23505";
    private static final String PAYMENT_COLUMNS = """
            payment_id, hold_id, attempt, idempotency_key, show_id, account_id, amount_cents, currency, method,
            recipient, status, charge_id, settlement, coalesce(booking_id, 0), refund, reason,
            epoch_ms(created_at), epoch_ms(updated_at)""";
    private static final String BOOKING_COLUMNS = """
            booking_id, hold_id, payment_id, show_id, account_id, seat_ids, amount_cents, currency, status,
            cancelling, epoch_ms(created_at)""";
    private static final String UNDECIDED = "('PENDING', 'UNKNOWN')";

    private final DataSource dataSource;

    public PostgresBookingRepository(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource);
    }

    // ------------------------------------------------------------------ payment attempts

    @Override
    public AttemptStart startAttempt(HoldRecord hold, String method, String recipient, long now) {
        String sql = """
                INSERT INTO payments (payment_id, hold_id, attempt, idempotency_key, show_id, account_id, amount_cents,
                                      currency, method, recipient, status, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'PENDING', ?, ?)
                RETURNING""" + " " + PAYMENT_COLUMNS;
        for (int tries = 0; ; tries++) {
            try {
                AttemptStart started = transaction("recording a payment attempt for hold " + hold.holdId(), c -> {
                    // the hold's row, shared: a buyer's release (endHoldByBuyer) waits for this attempt or
                    // this attempt waits for it and then sees the hold RELEASED
                    Optional<HoldStatus> status = holdStatus(c, hold.holdId(), "FOR SHARE");
                    if (status.isPresent() && (status.get() == HoldStatus.RELEASED || status.get() == HoldStatus.EXPIRED)) {
                        return new AttemptStart.HoldEnded(status.get());
                    }
                    int attempt = nextAttempt(c, hold.holdId());
                    try (PreparedStatement ps = c.prepareStatement(sql)) {
                        ps.setString(1, PaymentAttempt.paymentId(hold.holdId(), attempt));
                        ps.setString(2, hold.holdId());
                        ps.setInt(3, attempt);
                        ps.setString(4, PaymentAttempt.idempotencyKey(hold.holdId(), attempt));
                        ps.setString(5, hold.showId());
                        ps.setString(6, hold.accountId());
                        ps.setLong(7, hold.totalCents());
                        ps.setString(8, hold.currency());
                        ps.setString(9, method);
                        ps.setString(10, recipient);
                        ps.setObject(11, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
                        ps.setObject(12, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            return new AttemptStart.Started(payment(rs));
                        }
                    }
                });
                return started;
            } catch (DatabaseException e) {
                if (!(e.getCause() instanceof SQLException sql2) || !UNIQUE_VIOLATION.equals(sql2.getSQLState()) || tries >= 10) {
                    throw e;
                }
                // another attempt is live (the index decided), or a concurrent caller took this
                // attempt number and then stopped being live already: look, and try the next number
                Optional<PaymentAttempt> inFlight = attemptsOf(hold.holdId()).stream()
                        .filter(PaymentAttempt::live).findFirst();
                if (inFlight.isPresent()) {
                    return new AttemptStart.InFlight(inFlight.get());
                }
            }
        }
    }

    @Override
    public HoldRelease endHoldByBuyer(String holdId, long now) {
        return transaction("releasing hold " + holdId, c -> {
            // the hold's row, exclusive: a checkout starting an attempt (startAttempt) either committed
            // its attempt before this lock, and the next statement sees it, or waits and then sees RELEASED
            Optional<HoldStatus> status = holdStatus(c, holdId, "FOR UPDATE");
            if (status.isEmpty()) {
                return new HoldRelease.Released();
            }
            switch (status.get()) {
                case RELEASED -> {
                    return new HoldRelease.Released();
                }
                case EXPIRED -> {
                    return new HoldRelease.Expired();
                }
                case CONFIRMED -> {
                    return new HoldRelease.Confirmed();
                }
                case ACTIVE -> {
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT " + PAYMENT_COLUMNS + " FROM payments WHERE hold_id = ?"
                    + " ORDER BY attempt")) {
                ps.setString(1, holdId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        PaymentAttempt p = payment(rs);
                        if (p.live()) {
                            return new HoldRelease.PaymentLive(p);
                        }
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE holds SET status = 'RELEASED' WHERE hold_id = ? AND status = 'ACTIVE'")) {
                ps.setString(1, holdId);
                ps.executeUpdate();
            }
            return new HoldRelease.Released();
        });
    }

    private static Optional<HoldStatus> holdStatus(Connection c, String holdId, String lock) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT status FROM holds WHERE hold_id = ? " + lock)) {
            ps.setString(1, holdId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(HoldStatus.valueOf(rs.getString(1))) : Optional.empty();
            }
        }
    }

    private static int nextAttempt(Connection c, String holdId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT coalesce(max(attempt), 0) + 1 FROM payments WHERE hold_id = ?")) {
            ps.setString(1, holdId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    @Override
    public Optional<PaymentAttempt> payment(String paymentId) {
        return paymentsWhere("payment_id = ?", paymentId).stream().findFirst();
    }

    @Override
    public Optional<PaymentAttempt> paymentByKey(String idempotencyKey) {
        return paymentsWhere("idempotency_key = ?", idempotencyKey).stream().findFirst();
    }

    @Override
    public Map<String, PaymentAttempt> paymentsByKeys(Collection<String> idempotencyKeys) {
        Map<String, PaymentAttempt> out = new HashMap<>();
        if (!idempotencyKeys.isEmpty()) {
            paymentsWhere("idempotency_key = ANY(?)", (Object) idempotencyKeys.toArray(String[]::new))
                    .forEach(p -> out.put(p.idempotencyKey(), p));
        }
        return out;
    }

    @Override
    public List<PaymentAttempt> attemptsOf(String holdId) {
        return paymentsWhere("hold_id = ? ORDER BY attempt", holdId);
    }

    @Override
    public boolean holdExtended(String holdId) {
        return queryOne("SELECT extended FROM holds WHERE hold_id = ?", rs -> rs.getBoolean(1), holdId).orElse(false);
    }

    @Override
    public ReportOutcome report(String eventId, String eventType, String idempotencyKey, PaymentAttempt.Report report,
                                String chargeId, String reason, long now) {
        return transaction("recording " + report + " for payment " + idempotencyKey, c -> {
            if (eventId != null && !insertEvent(c, eventId, eventType, idempotencyKey, now)) {
                return ReportOutcome.DUPLICATE_EVENT; // nothing was written
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE payments
                    SET status = ?, charge_id = coalesce(?, charge_id),
                        reason = CASE WHEN ? = 'DECLINED' THEN ? ELSE reason END, updated_at = ?
                    WHERE idempotency_key = ? AND status IN""" + " " + UNDECIDED)) {
                String status = PaymentAttempt.statusAfter(report).name();
                ps.setString(1, status);
                ps.setString(2, chargeId);
                ps.setString(3, status);
                ps.setString(4, reason);
                ps.setObject(5, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
                ps.setString(6, idempotencyKey);
                if (ps.executeUpdate() == 1) {
                    return ReportOutcome.APPLIED;
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM payments WHERE idempotency_key = ?")) {
                ps.setString(1, idempotencyKey);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? ReportOutcome.IGNORED : ReportOutcome.UNKNOWN_PAYMENT;
                }
            }
        });
    }

    @Override
    public boolean rememberEvent(String eventId, String eventType, String idempotencyKey, long now) {
        try (Connection c = dataSource.getConnection()) {
            return insertEvent(c, eventId, eventType, idempotencyKey, now);
        } catch (SQLException e) {
            throw new DatabaseException("recording payment event " + eventId, e);
        }
    }

    private static boolean insertEvent(Connection c, String eventId, String type, String key, long now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO payment_events (event_id, type, idempotency_key, received_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (event_id, type) DO NOTHING""")) {
            ps.setString(1, eventId);
            ps.setString(2, type);
            ps.setString(3, key);
            ps.setObject(4, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            return ps.executeUpdate() == 1;
        }
    }

    @Override
    public boolean markUnknown(String paymentId, long now) {
        return update("UPDATE payments SET status = 'UNKNOWN', updated_at = ? WHERE payment_id = ? AND status = 'PENDING'",
                ts(now), paymentId) == 1;
    }

    // ------------------------------------------------------------------ settlement

    @Override
    public SettlementClaim claimSettlement(String paymentId, long now, long staleBefore) {
        String sql = """
                UPDATE payments
                SET settlement = 'SETTLING', settling_since = ?, updated_at = ?,
                    booking_id = coalesce(booking_id, nextval('booking_ids'))
                WHERE payment_id = ? AND status = 'CAPTURED'
                  AND (settlement = 'NONE' OR (settlement = 'SETTLING' AND settling_since < ?))
                RETURNING""" + " " + PAYMENT_COLUMNS;
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setObject(2, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setString(3, paymentId);
            ps.setObject(4, timestamp(staleBefore), Types.TIMESTAMP_WITH_TIMEZONE);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    PaymentAttempt claimed = payment(rs);
                    return new SettlementClaim.Claimed(claimed, claimed.bookingId());
                }
            }
        } catch (SQLException e) {
            if (!UNIQUE_VIOLATION.equals(e.getSQLState())) {
                throw new DatabaseException("claiming the settlement of payment " + paymentId, e);
            }
            PaymentAttempt mine = payment(paymentId).orElseThrow();
            Optional<PaymentAttempt> other = paymentsWhere(
                    "hold_id = ? AND payment_id <> ? AND settlement IN ('SETTLING', 'BOOKED')", mine.holdId(), paymentId)
                    .stream().findFirst();
            if (other.isPresent()) {
                return new SettlementClaim.HoldTaken(other.get());
            }
            return new SettlementClaim.Busy();
        }
        PaymentAttempt current = payment(paymentId).orElseThrow(() -> new IllegalArgumentException("no payment " + paymentId));
        return current.settlement() == PaymentAttempt.Settlement.SETTLING
                ? new SettlementClaim.Busy() : new SettlementClaim.Ended(current);
    }

    @Override
    public Booking book(String paymentId, long bookingId, long now) {
        transaction("booking payment " + paymentId + " as " + bookingId, c -> {
            PaymentAttempt p;
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT " + PAYMENT_COLUMNS + " FROM payments WHERE payment_id = ? FOR UPDATE")) {
                ps.setString(1, paymentId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new IllegalArgumentException("no payment " + paymentId);
                    }
                    p = payment(rs);
                }
            }
            if (p.settlement() == PaymentAttempt.Settlement.BOOKED && p.bookingId() == bookingId) {
                return; // booked already: nothing to write
            }
            if (p.settlement() != PaymentAttempt.Settlement.SETTLING || p.bookingId() != bookingId) {
                throw new IllegalStateException("payment " + paymentId + " is not settling into booking "
                        + bookingId + ": " + p.settlement() + " " + p.bookingId());
            }
            List<String> admissions = admissionTickets(c, p.holdId());
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO bookings (booking_id, hold_id, payment_id, show_id, account_id, seat_ids,
                                          amount_cents, currency, status, created_at)
                    SELECT ?, h.hold_id, ?, h.show_id, h.account_id, coalesce(?::text[], h.seat_ids), ?, ?, 'CONFIRMED', ?
                    FROM holds h WHERE h.hold_id = ?""")) {
                ps.setLong(1, bookingId);
                ps.setString(2, paymentId);
                if (admissions == null) {
                    ps.setNull(3, Types.ARRAY);
                } else {
                    ps.setArray(3, c.createArrayOf("text", admissions.toArray()));
                }
                ps.setLong(4, p.amountCents());
                ps.setString(5, p.currency());
                ps.setObject(6, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
                ps.setString(7, p.holdId());
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO booking_seats (booking_id, show_id, seat_id, live, area)
                    SELECT b.booking_id, b.show_id, s, true, h.area
                    FROM bookings b JOIN holds h ON h.hold_id = b.hold_id, unnest(b.seat_ids) AS s
                    WHERE b.booking_id = ?""")) {
                ps.setLong(1, bookingId);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO ticket_mail (booking_id, recipient, due_at) VALUES (?, ?, ?)")) {
                ps.setLong(1, bookingId);
                ps.setString(2, p.recipient());
                ps.setObject(3, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO messages (kind, channel, subject, show_id, account_id, recipient, due_at)
                    SELECT 'TICKETS', 'SMS', b.booking_id::text, b.show_id, b.account_id, ac.phone, ?
                    FROM bookings b JOIN account_contacts ac ON ac.account_id = b.account_id
                    WHERE b.booking_id = ?
                    ON CONFLICT ON CONSTRAINT messages_once DO NOTHING""")) {
                // the tickets by SMS too, if the fan left a number: sent later, like the mail
                ps.setObject(1, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
                ps.setLong(2, bookingId);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE payments SET settlement = 'BOOKED', updated_at = ? WHERE payment_id = ?")) {
                ps.setObject(1, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
                ps.setString(2, paymentId);
                ps.executeUpdate();
            }
        });
        return booking(bookingId).orElseThrow();
    }

    /**
     * The ticket ids of a booking of hold {@code holdId} if it is a hold by count, or null for a hold
     * of seats. This is where the referee refuses to issue admissions the area does not have: the
     * hold's parts are locked and must all be SOLD and add up to its quantity (SOLD parts count in
     * their stripes' taken, which never exceeds a stripe's capacity), else nothing is written.
     */
    private static List<String> admissionTickets(Connection c, String holdId) throws SQLException {
        String area;
        int quantity;
        try (PreparedStatement ps = c.prepareStatement("SELECT area, quantity FROM holds WHERE hold_id = ?")) {
            ps.setString(1, holdId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getString(1) == null) {
                    return null;
                }
                area = rs.getString(1);
                quantity = rs.getInt(2);
            }
        }
        int sold = 0;
        int other = 0;
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT quantity, status FROM admission_hold_parts WHERE hold_id = ? ORDER BY stripe FOR SHARE")) {
            ps.setString(1, holdId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if ("SOLD".equals(rs.getString(2))) {
                        sold += rs.getInt(1);
                    } else if ("ACTIVE".equals(rs.getString(2))) {
                        other += rs.getInt(1);
                    }
                }
            }
        }
        if (sold != quantity || other != 0) {
            throw new IllegalStateException("hold " + holdId + " is for " + quantity + " admissions to " + area
                    + " but " + sold + " are sold to it: no tickets issued");
        }
        return AdmissionTickets.ids(area, quantity);
    }

    @Override
    public void reject(String paymentId, String reason, List<String> holdIds, long now) {
        transaction("rejecting payment " + paymentId, c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE payments
                    SET settlement = 'REJECTED', reason = ?, updated_at = ?,
                        refund = CASE WHEN refund = 'NONE' THEN 'REQUESTED' ELSE refund END
                    WHERE payment_id = ? AND status = 'CAPTURED' AND settlement IN ('NONE', 'SETTLING')""")) {
                ps.setString(1, reason);
                ps.setObject(2, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
                ps.setString(3, paymentId);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE holds h SET status = 'RELEASED'
                    WHERE h.hold_id = ANY (?) AND h.status = 'CONFIRMED'
                      AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.hold_id = h.hold_id)""")) {
                ps.setArray(1, c.createArrayOf("text", holdIds.toArray()));
                ps.executeUpdate();
            }
        });
    }

    // ------------------------------------------------------------------ refunds

    @Override
    public boolean requestRefund(String paymentId, String reason, long now) {
        return update("""
                UPDATE payments SET refund = 'REQUESTED', reason = ?, updated_at = ?
                WHERE payment_id = ? AND status = 'CAPTURED' AND refund = 'NONE'""", reason, ts(now), paymentId) == 1;
    }

    @Override
    public boolean refunded(String paymentId, long now) {
        return transaction("recording the refund of " + paymentId, c -> {
            int moved;
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE payments SET refund = 'REFUNDED', updated_at = ?
                    WHERE payment_id = ? AND refund = 'REQUESTED'""")) {
                ps.setObject(1, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
                ps.setString(2, paymentId);
                moved = ps.executeUpdate();
            }
            // the seats stop being live before they can go back on sale, so a new sale never collides
            try (PreparedStatement ps = c.prepareStatement("""
                    WITH refunded AS (
                        UPDATE bookings SET status = 'REFUNDED', cancelling = true, refunded_at = ?
                        WHERE payment_id = ? AND status = 'CONFIRMED'
                        RETURNING booking_id)
                    UPDATE booking_seats SET live = false
                    WHERE booking_id IN (SELECT booking_id FROM refunded) AND live""")) {
                ps.setObject(1, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
                ps.setString(2, paymentId);
                ps.executeUpdate();
            }
            return moved == 1;
        });
    }

    // ------------------------------------------------------------------ bookings and tickets

    @Override
    public Optional<Booking> booking(long bookingId) {
        return bookingsWhere("booking_id = ?", bookingId).stream().findFirst();
    }

    @Override
    public Optional<Booking> bookingOfHold(String holdId) {
        return bookingsWhere("hold_id = ?", holdId).stream().findFirst();
    }

    @Override
    public List<Booking> bookingsOf(String accountId) {
        return bookingsWhere("account_id = ? ORDER BY created_at DESC, booking_id DESC LIMIT 500", accountId);
    }

    @Override
    public boolean startCancellation(long bookingId, String reason, long now) {
        boolean[] started = {false};
        transaction("cancelling booking " + bookingId, c -> {
            String paymentId = null;
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE bookings SET cancelling = true
                    WHERE booking_id = ? AND status = 'CONFIRMED' AND NOT cancelling AND transfers = 0
                    RETURNING payment_id""")) {
                ps.setLong(1, bookingId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        paymentId = rs.getString(1);
                    }
                }
            }
            if (paymentId == null) {
                return;
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE payments SET refund = 'REQUESTED', reason = ?, updated_at = ?
                    WHERE payment_id = ? AND refund = 'NONE'""")) {
                ps.setString(1, reason);
                ps.setObject(2, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
                ps.setString(3, paymentId);
                ps.executeUpdate();
            }
            started[0] = true;
        });
        return started[0];
    }

    @Override
    public void cancelled(long bookingId, long now) {
        update("UPDATE bookings SET status = 'CANCELLED', cancelled_at = ? WHERE booking_id = ? AND status = 'REFUNDED'",
                ts(now), bookingId);
    }

    /** The bookings joined to {@code booking_seats bs} and the condition under which its ticket admits. */
    private static final String ADMITS = """
            FROM bookings b WHERE b.booking_id = bs.booking_id AND b.status = 'CONFIRMED' AND NOT b.cancelling
              AND bs.booking_id = ? AND bs.show_id = ? AND bs.seat_id = ? AND bs.live AND bs.code_version = ?""";

    @Override
    public TicketCheck useTicket(long bookingId, String showId, String seatId, int codeVersion, long now) {
        // a code of an older version names a ticket that changed hands since: it admits nobody. The
        // admission is kept beside the offline gates' scans too, as the gate "online" (a scan id no
        // gate can send: it has a '/'), so a gate that uploads an admission of the same ticket later
        // is reported as a duplicate, in the same statement
        Optional<Long> used = queryOne("WITH used AS (UPDATE booking_seats bs SET used_at = ? " + ADMITS + """
                         AND bs.used_at IS NULL
                        RETURNING bs.booking_id, bs.show_id, bs.seat_id, bs.code_version, bs.used_at),
                    scan AS (INSERT INTO gate_scans (scan_id, show_id, gate_id, booking_id, seat_id, code_version,
                                                     verdict, scanned_at, uploaded_at)
                        SELECT 'online/' || booking_id || '/' || seat_id || '/' || code_version, show_id, 'online',
                               booking_id, seat_id, code_version, 'ACCEPT', used_at, used_at FROM used
                        ON CONFLICT (scan_id) DO NOTHING)
                    SELECT epoch_ms(used_at) FROM used""",
                rs -> rs.getLong(1), ts(now), bookingId, showId, seatId, codeVersion);
        if (used.isPresent()) {
            return new TicketCheck(TicketCheck.Result.VALID, used.get());
        }
        TicketCheck before = checkTicket(bookingId, showId, seatId, codeVersion);
        // unused yet not updated: only if the ticket changed between the two statements; it did not admit here
        return before.result() == TicketCheck.Result.VALID ? new TicketCheck(TicketCheck.Result.INVALID, 0) : before;
    }

    @Override
    public TicketCheck checkTicket(long bookingId, String showId, String seatId, int codeVersion) {
        List<Long> usedAt = queryList("SELECT epoch_ms(bs.used_at) FROM booking_seats bs, " + ADMITS.substring("FROM ".length()),
                rs -> {
                    long at = rs.getLong(1);
                    return rs.wasNull() ? null : at;
                }, bookingId, showId, seatId, codeVersion);
        if (usedAt.isEmpty()) {
            return new TicketCheck(TicketCheck.Result.INVALID, 0);
        }
        return usedAt.get(0) == null ? new TicketCheck(TicketCheck.Result.VALID, 0)
                : new TicketCheck(TicketCheck.Result.ALREADY_USED, usedAt.get(0));
    }

    // ------------------------------------------------------------------ reconciliation

    @Override
    public List<PaymentAttempt> needingAttention(long updatedBefore) {
        return paymentsWhere("""
                updated_at < ?
                  AND (status IN ('PENDING', 'UNKNOWN') OR (status = 'CAPTURED' AND settlement IN ('NONE', 'SETTLING'))
                       OR refund = 'REQUESTED')
                ORDER BY updated_at LIMIT 1000""", ts(updatedBefore));
    }

    @Override
    public List<Booking> refundedNotCancelled() {
        return bookingsWhere("status = 'REFUNDED' ORDER BY booking_id LIMIT 1000");
    }

    @Override
    public List<Booking> chargesToConfirm(long createdBefore, int limit) {
        return bookingsWhere("charge_check = 'UNCHECKED' AND created_at < ? ORDER BY booking_id LIMIT ?",
                ts(createdBefore), limit);
    }

    @Override
    public void chargeChecked(long bookingId, boolean confirmed, String note) {
        update("UPDATE bookings SET charge_check = ?, charge_note = ? WHERE booking_id = ? AND charge_check = 'UNCHECKED'",
                confirmed ? "CONFIRMED" : "FLAGGED", note, bookingId);
    }

    @Override
    public List<Booking> flaggedCharges() {
        return bookingsWhere("charge_check = 'FLAGGED' ORDER BY booking_id LIMIT 1000");
    }

    // ------------------------------------------------------------------ mapping and plumbing

    /** The payment attempts that meet {@code condition} (what follows {@code WHERE}, ordering and limit included). */
    private List<PaymentAttempt> paymentsWhere(String condition, Object... params) {
        return queryList("SELECT " + PAYMENT_COLUMNS + " FROM payments WHERE " + condition,
                PostgresBookingRepository::payment, params);
    }

    /** The bookings that meet {@code condition} (what follows {@code WHERE}, ordering and limit included). */
    private List<Booking> bookingsWhere(String condition, Object... params) {
        return queryList("SELECT " + BOOKING_COLUMNS + " FROM bookings WHERE " + condition,
                PostgresBookingRepository::booking, params);
    }

    private static PaymentAttempt payment(ResultSet rs) throws SQLException {
        return new PaymentAttempt(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getLong(7), rs.getString(8), rs.getString(9), rs.getString(10),
                PaymentAttempt.Status.valueOf(rs.getString(11)), rs.getString(12),
                PaymentAttempt.Settlement.valueOf(rs.getString(13)), rs.getLong(14),
                PaymentAttempt.RefundState.valueOf(rs.getString(15)), rs.getString(16), rs.getLong(17), rs.getLong(18));
    }

    private static Booking booking(ResultSet rs) throws SQLException {
        return new Booking(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                List.of(strings(rs.getArray(6))), rs.getLong(7), rs.getString(8),
                Booking.Status.valueOf(rs.getString(9)), rs.getBoolean(10), rs.getLong(11));
    }

    /** A timestamp parameter (epoch millis). */
    private record Ts(long millis) {
    }

    private static Ts ts(long millis) {
        return new Ts(millis);
    }

    @FunctionalInterface
    interface Row<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private static void bind(PreparedStatement ps, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            Object p = params[i];
            if (p instanceof Ts t) {
                ps.setObject(i + 1, timestamp(t.millis()), Types.TIMESTAMP_WITH_TIMEZONE);
            } else {
                ps.setObject(i + 1, p);
            }
        }
    }

    private <T> Optional<T> queryOne(String sql, Row<T> row, Object... params) {
        List<T> all = queryList(sql, row, params);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(0));
    }

    private <T> List<T> queryList(String sql, Row<T> row, Object... params) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, params);
            List<T> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(row.map(rs));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new DatabaseException(sql.lines().findFirst().orElse(sql), e);
        }
    }

    private int update(String sql, Object... params) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, params);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new DatabaseException(sql.lines().findFirst().orElse(sql), e);
        }
    }

    private void transaction(String what, Transactions.Steps steps) {
        Transactions.inTransaction(dataSource, what, steps);
    }

    private <T> T transaction(String what, Transactions.Work<T> work) {
        return Transactions.inTransaction(dataSource, what, work);
    }
}
