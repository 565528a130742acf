package org.boxoffice.mapstore;

import static org.boxoffice.mapstore.TestShows.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.boxoffice.domain.BookingRepository.AttemptStart;
import org.boxoffice.domain.BookingRepository.ReportOutcome;
import org.boxoffice.domain.BookingRepository.SettlementClaim;
import org.boxoffice.domain.BookingRepository.TicketCheck;
import org.boxoffice.domain.HoldRecord;
import org.boxoffice.domain.HoldStatus;
import org.boxoffice.domain.PaymentAttempt;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.domain.MailOutbox;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The referee's rules for money: each a constraint or a conditional write, checked on real PostgreSQL. */
class PostgresBookingRepositoryTest {

    private static HikariDataSource db;
    private static PostgresBookingRepository bookings;
    private static int holds;

    @BeforeAll
    static void database() {
        db = TestDatabase.newDataSource(4);
        TestShows.save(new PostgresCatalogRepository(db), TestShows.small("pay-1"));
        bookings = new PostgresBookingRepository(db);
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static HoldRecord hold(String... seats) {
        return holdOf("pay-1", seats);
    }

    private static HoldRecord holdOf(String show, String... seats) {
        HoldRecord h = new HoldRecord("H" + (++holds), show, "acct", List.of(seats), T0 + 600_000, HoldStatus.ACTIVE, T0,
                5_000L * seats.length, "EUR");
        execute("INSERT INTO holds (hold_id, show_id, account_id, seat_ids, expires_at, status, created_at, total_cents, currency)"
                + " VALUES ('" + h.holdId() + "', '" + show + "', 'acct', ?, now(), 'ACTIVE', now(), " + h.totalCents() + ", 'EUR')",
                seats);
        return h;
    }

    private static void execute(String sql, String[] seats) {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setArray(1, c.createArrayOf("text", seats));
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new DatabaseException(sql, e);
        }
    }

    private static PaymentAttempt started(HoldRecord h) {
        return assertInstanceOf(AttemptStart.Started.class, bookings.startAttempt(h, "card", "a@x.test", T0)).attempt();
    }

    private static PaymentAttempt captured(HoldRecord h) {
        PaymentAttempt p = started(h);
        assertEquals(ReportOutcome.APPLIED, bookings.report(null, null, p.idempotencyKey(), PaymentAttempt.Report.CAPTURED,
                "ch", null, T0));
        return bookings.payment(p.paymentId()).orElseThrow();
    }

    @Test
    void attempts_areNumberedPerHold_withTheirOwnKeys() {
        HoldRecord h = hold("A-1-1");
        PaymentAttempt first = started(h);
        bookings.report(null, null, first.idempotencyKey(), PaymentAttempt.Report.DECLINED, "ch", "no", T0);
        PaymentAttempt second = started(h);
        assertEquals(1, first.attempt());
        assertEquals(2, second.attempt());
        assertEquals(PaymentAttempt.idempotencyKey(h.holdId(), 2), second.idempotencyKey());
        assertEquals(h.totalCents(), second.amountCents());

        // reconciliation looks attempts up by their provider keys in batches
        Map<String, PaymentAttempt> byKey = bookings.paymentsByKeys(
                List.of(first.idempotencyKey(), second.idempotencyKey(), "no-such-key"));
        assertEquals(Set.of(first.idempotencyKey(), second.idempotencyKey()), byKey.keySet());
        assertEquals(second.paymentId(), byKey.get(second.idempotencyKey()).paymentId());
        assertTrue(bookings.paymentsByKeys(List.of()).isEmpty());
    }

    @Test
    void anEventIsAppliedOnce_andTheFirstDecisiveReportWins() {
        PaymentAttempt p = started(hold("A-1-2"));
        String key = p.idempotencyKey();
        assertEquals(ReportOutcome.APPLIED, bookings.report("e1", "t", key, PaymentAttempt.Report.DECLINED, "ch", "no", T0));
        assertEquals(ReportOutcome.DUPLICATE_EVENT, bookings.report("e1", "t", key, PaymentAttempt.Report.CAPTURED, "ch", null, T0));
        assertEquals(ReportOutcome.IGNORED, bookings.report("e2", "t", key, PaymentAttempt.Report.CAPTURED, "ch", null, T0));
        assertEquals(ReportOutcome.UNKNOWN_PAYMENT, bookings.report("e3", "t", "bx-none-1", PaymentAttempt.Report.CAPTURED, "ch", null, T0));
        assertEquals(PaymentAttempt.Status.DECLINED, bookings.payment(p.paymentId()).orElseThrow().status());
    }

    @Test
    void aHoldHasOneAttemptInFlight_evenWhenManyStartAtOnce() throws Exception {
        HoldRecord h = hold("A-2-1");
        int callers = 16;
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Future<AttemptStart>> starts = new java.util.ArrayList<>();
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(callers)) {
            for (int i = 0; i < callers; i++) {
                starts.add(pool.submit(() -> {
                    go.await();
                    return bookings.startAttempt(h, "card", "a@x.test", T0);
                }));
            }
            go.countDown();
            int started = 0;
            for (var f : starts) {
                AttemptStart s = f.get();
                if (s instanceof AttemptStart.Started) {
                    started++;
                } else {
                    assertEquals(PaymentAttempt.Status.PENDING, ((AttemptStart.InFlight) s).other().status());
                }
            }
            assertEquals(1, started, "one attempt starts; the others are told it is in flight");
        }
        PaymentAttempt only = bookings.attemptsOf(h.holdId()).get(0);
        assertEquals(1, bookings.attemptsOf(h.holdId()).size());
        assertTrue(only.live());
        bookings.markUnknown(only.paymentId(), T0);
        assertInstanceOf(AttemptStart.InFlight.class, bookings.startAttempt(h, "card", "a@x.test", T0),
                "an attempt whose outcome is unknown may still be captured");
        bookings.report(null, null, only.idempotencyKey(), PaymentAttempt.Report.CAPTURED, "ch", null, T0);
        assertInstanceOf(AttemptStart.InFlight.class, bookings.startAttempt(h, "card", "a@x.test", T0),
                "captured and not settled: still in flight");
    }

    @Test
    void oneAttemptPerHoldSettles_andABookedHoldRefusesTheOther() {
        HoldRecord h = hold("A-1-3");
        PaymentAttempt a = captured(h);

        SettlementClaim first = bookings.claimSettlement(a.paymentId(), T0, T0 - 30_000);
        SettlementClaim again = bookings.claimSettlement(a.paymentId(), T0, T0 - 30_000);

        long bookingId = assertInstanceOf(SettlementClaim.Claimed.class, first).bookingId();
        assertInstanceOf(SettlementClaim.Busy.class, again);
        SettlementClaim stale = bookings.claimSettlement(a.paymentId(), T0 + 60_000, T0 + 1);
        assertEquals(bookingId, assertInstanceOf(SettlementClaim.Claimed.class, stale).bookingId(),
                "a re-drive settles into the same booking");
        bookings.book(a.paymentId(), bookingId, T0);
        assertEquals(bookingId, bookings.book(a.paymentId(), bookingId, T0).bookingId(), "booking twice is the same booking");
        assertEquals(1, PostgresMailOutbox.ticketMails(db).claim(100, T0 + 1, 1_000).stream()
                .filter(m -> m.bookingId() == bookingId).count(), "one ticket mail, written with the booking");
        MailOutbox<MailOutbox.TicketMail> outbox = PostgresMailOutbox.ticketMails(db);
        List<Long> reclaimed = outbox.claim(100, T0 + 5_000, 1_000).stream()
                .filter(m -> m.bookingId() == bookingId).map(MailOutbox.TicketMail::mailId).toList();
        assertEquals(1, reclaimed.size(), "claimed again once its lease ended");
        outbox.sent(List.of(reclaimed.get(0), -1L), T0 + 5_001);
        assertEquals(0, outbox.claim(100, T0 + 60_000, 1_000).stream().filter(m -> m.bookingId() == bookingId).count(),
                "marked sent with its batch: never claimed again");
        assertEquals(a.paymentId(), assertInstanceOf(AttemptStart.InFlight.class,
                bookings.startAttempt(h, "card", "a@x.test", T0)).other().paymentId(), "a booked hold takes no new attempt");
        DatabaseException second = assertThrows(DatabaseException.class, () -> forcedCapturedAttempt(h, 2));
        assertTrue(second.getCause().getMessage().contains("payments_one_live_attempt_per_hold"), second.getCause().getMessage());
    }

    @Test
    void theDatabaseRefuses_twoBookingsForOneHold_andOneSeatInTwoLiveBookings() {
        HoldRecord h = hold("B-1-1");
        PaymentAttempt p = captured(h);
        long id = ((SettlementClaim.Claimed) bookings.claimSettlement(p.paymentId(), T0, T0)).bookingId();
        bookings.book(p.paymentId(), id, T0);

        SQLException twoForOneHold = assertThrows(SQLException.class, () -> insertBooking(id + 1000, h.holdId(), "B-1-2"));
        HoldRecord rival = hold("B-1-1");
        SQLException seatTwice = assertThrows(SQLException.class, () -> {
            insertBooking(id + 2000, rival.holdId(), "B-1-1");
        });

        assertEquals("23505", twoForOneHold.getSQLState());
        assertEquals("23505", seatTwice.getSQLState());
        assertTrue(seatTwice.getMessage().contains("booking_seats_live_once"), seatTwice.getMessage());
    }

    /** A second captured attempt of a hold, written straight into the table past the service. */
    private static PaymentAttempt forcedCapturedAttempt(HoldRecord h, int attempt) {
        String id = PaymentAttempt.paymentId(h.holdId(), attempt);
        try (Connection c = db.getConnection(); PreparedStatement p = c.prepareStatement("INSERT INTO payments (payment_id,"
                + " hold_id, attempt, idempotency_key, show_id, account_id, amount_cents, currency, method, recipient,"
                + " status, created_at, updated_at) VALUES (?, ?, ?, ?, 'pay-1', 'acct', 1, 'EUR', 'card', 'x',"
                + " 'CAPTURED', now(), now())")) {
            p.setString(1, id);
            p.setString(2, h.holdId());
            p.setInt(3, attempt);
            p.setString(4, PaymentAttempt.idempotencyKey(h.holdId(), attempt));
            p.executeUpdate();
        } catch (SQLException e) {
            throw new DatabaseException("forcing an attempt", e);
        }
        return bookings.payment(id).orElseThrow();
    }

    private static void insertBooking(long bookingId, String holdId, String seat) throws SQLException {
        insertBooking("pay-1", bookingId, holdId, seat);
    }

    private static void insertBooking(String show, long bookingId, String holdId, String seat) throws SQLException {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement p = c.prepareStatement("INSERT INTO payments (payment_id, hold_id, attempt, idempotency_key,"
                    + " show_id, account_id, amount_cents, currency, method, recipient, status, created_at, updated_at)"
                    + " VALUES (?, ?, 99, ?, ?, 'acct', 1, 'EUR', 'card', 'x', 'CAPTURED', now(), now())")) {
                p.setString(1, "forced-" + bookingId);
                p.setString(2, holdId);
                p.setString(3, "forced-" + bookingId);
                p.setString(4, show);
                p.executeUpdate();
            }
            try (PreparedStatement b = c.prepareStatement("INSERT INTO bookings (booking_id, hold_id, payment_id, show_id,"
                    + " account_id, seat_ids, amount_cents, currency, status, created_at)"
                    + " VALUES (?, ?, ?, ?, 'acct', ARRAY[?], 1, 'EUR', 'CONFIRMED', now())")) {
                b.setLong(1, bookingId);
                b.setString(2, holdId);
                b.setString(3, "forced-" + bookingId);
                b.setString(4, show);
                b.setString(5, seat);
                b.executeUpdate();
            }
            try (PreparedStatement s = c.prepareStatement(
                    "INSERT INTO booking_seats (booking_id, show_id, seat_id, live) VALUES (?, ?, ?, true)")) {
                s.setLong(1, bookingId);
                s.setString(2, show);
                s.setString(3, seat);
                s.executeUpdate();
            }
            c.commit();
        }
    }

    @Test
    void aTicketChangesHands_withANewCodeVersion_andItsBookingIsThenNotCancelled() {
        PostgresTransferRepository transfers = new PostgresTransferRepository(db);
        HoldRecord h = hold("A-2-3", "A-2-4");
        PaymentAttempt p = captured(h);
        long id = ((SettlementClaim.Claimed) bookings.claimSettlement(p.paymentId(), T0, T0)).bookingId();
        bookings.book(p.paymentId(), id, T0);

        var refused = assertInstanceOf(org.boxoffice.domain.Outcome.Refused.class,
                transfers.offer(id, "A-2-3", "someone-else", "bea", 5, T0));
        assertEquals(org.boxoffice.domain.Rejection.TICKET_NOT_FOUND, refused.reason());
        var offered = (org.boxoffice.domain.TicketTransfer) assertInstanceOf(org.boxoffice.domain.Outcome.Done.class,
                transfers.offer(id, "A-2-3", "acct", "bea", 5, T0)).value();
        assertEquals(org.boxoffice.domain.Rejection.TRANSFER_PENDING, assertInstanceOf(
                org.boxoffice.domain.Outcome.Refused.class,
                transfers.offer(id, "A-2-3", "acct", "cy", 5, T0)).reason(), "one open offer per ticket");
        assertInstanceOf(org.boxoffice.domain.Outcome.Done.class,
                transfers.accept(offered.transferId(), "bea", 5, T0 + 1));

        assertEquals(TicketCheck.Result.INVALID, bookings.useTicket(id, "pay-1", "A-2-3", 0, T0).result(), "the old code");
        assertEquals(TicketCheck.Result.VALID, bookings.useTicket(id, "pay-1", "A-2-3", 1, T0).result());
        assertEquals(List.of("A-2-3 bea 1", "A-2-4 acct 0"), transfers.tickets(id).stream()
                .map(t -> t.seatId() + " " + t.holder() + " " + t.codeVersion()).toList());
        assertEquals(1, transfers.heldBy("bea").size());
        assertEquals(1, transfers.ofBooking(id).size());
        assertEquals(1, transfers.ofAccount("acct").size());
        assertTrue(!bookings.startCancellation(id, "test", T0), "a booking with a transferred ticket is not refunded");
    }

    /** A data source that counts the statements prepared on its connections. */
    private static DataSource counting(DataSource inner, java.util.concurrent.atomic.AtomicInteger statements) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    Object out = call(inner, method, args);
                    if (!(out instanceof Connection c)) {
                        return out;
                    }
                    return Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                            (cp, m, a) -> {
                                if (m.getName().startsWith("prepare") || m.getName().equals("createStatement")) {
                                    statements.incrementAndGet();
                                }
                                return call(c, m, a);
                            });
                });
    }

    private static Object call(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Test
    void theTicketsAndTransfersOfManyBookings_areReadInOneStatementEach_asEachBookingReadsAlone() throws SQLException {
        TestShows.save(new PostgresCatalogRepository(db), TestShows.show("many-1", new ShowLayout("many-1", "EUR",
                List.of(new ShowLayout.Section("A", 0, 5_000)),
                List.of(new ShowLayout.Block(0, "A", List.of("1", "2", "3", "4"), new int[] {10, 10, 10, 10})))));
        PostgresTransferRepository direct = new PostgresTransferRepository(db);
        List<Long> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 40; i++) {
            long id = 770_000 + i;
            String seat = "A-" + (i / 10 + 1) + "-" + (i % 10 + 1);
            insertBooking("many-1", id, holdOf("many-1", seat).holdId(), seat);
            ids.add(id);
        }
        var offered = (org.boxoffice.domain.TicketTransfer) assertInstanceOf(org.boxoffice.domain.Outcome.Done.class,
                direct.offer(ids.get(3), "A-1-4", "acct", "bea", 5, T0)).value();
        assertInstanceOf(org.boxoffice.domain.Outcome.Done.class, direct.accept(offered.transferId(), "bea", 5, T0));
        assertInstanceOf(org.boxoffice.domain.Outcome.Done.class,
                direct.offer(ids.get(7), "A-1-8", "acct", "cy", 5, T0));

        var statements = new java.util.concurrent.atomic.AtomicInteger();
        PostgresTransferRepository transfers = new PostgresTransferRepository(counting(db, statements));
        var tickets = transfers.tickets(ids);
        assertEquals(1, statements.get(), "one statement for the tickets of 40 bookings");
        var history = transfers.ofBookings(ids);
        assertEquals(2, statements.get(), "one statement for their transfers");
        assertEquals(Map.of(), transfers.tickets(List.of()));
        assertEquals(2, statements.get(), "no bookings, no statement");

        assertEquals(40, tickets.size());
        for (long id : ids) {
            assertEquals(direct.tickets(id), tickets.get(id), "booking " + id);
            assertEquals(direct.ofBooking(id), history.getOrDefault(id, List.of()), "booking " + id);
        }
        assertEquals("bea", tickets.get(ids.get(3)).get(0).holder());
        assertEquals(java.util.Set.of(ids.get(3), ids.get(7)), history.keySet());
    }

    @Test
    void aTicketAdmitsOnce_andARefundedBookingsTicketsNoLonger() {
        HoldRecord h = hold("B-1-3", "B-1-4");
        PaymentAttempt p = captured(h);
        long id = ((SettlementClaim.Claimed) bookings.claimSettlement(p.paymentId(), T0, T0)).bookingId();
        bookings.book(p.paymentId(), id, T0);

        assertEquals(new TicketCheck(TicketCheck.Result.VALID, 0), bookings.checkTicket(id, "pay-1", "B-1-3", 0),
                "a check marks nothing");
        assertEquals(TicketCheck.Result.VALID, bookings.useTicket(id, "pay-1", "B-1-3", 0, T0).result());
        assertEquals(TicketCheck.Result.ALREADY_USED, bookings.useTicket(id, "pay-1", "B-1-3", 0, T0 + 5).result());
        assertEquals(new TicketCheck(TicketCheck.Result.ALREADY_USED, T0), bookings.checkTicket(id, "pay-1", "B-1-3", 0));
        assertEquals(TicketCheck.Result.INVALID, bookings.useTicket(id, "pay-1", "B-1-5", 0, T0).result());
        assertEquals(TicketCheck.Result.INVALID, bookings.checkTicket(id, "pay-1", "B-1-4", 1).result(), "a version never issued");
        assertTrue(bookings.startCancellation(id, "test", T0));
        assertEquals(TicketCheck.Result.INVALID, bookings.checkTicket(id, "pay-1", "B-1-4", 0).result());
        assertEquals(TicketCheck.Result.INVALID, bookings.useTicket(id, "pay-1", "B-1-4", 0, T0).result());
        bookings.refunded(p.paymentId(), T0);
        assertEquals(0, bookings.booking(id).orElseThrow().seatIds().size() - 2);
        assertEquals(org.boxoffice.domain.Booking.Status.REFUNDED, bookings.booking(id).orElseThrow().status());
        MailOutbox<MailOutbox.TicketMail> outbox = PostgresMailOutbox.ticketMails(db);
        assertTrue(outbox.claim(100, T0 + 10, 1_000).size() <= 3);
    }

    /** Applies a stripe's change as the grid's write-through store does. */
    private static org.boxoffice.domain.AdmissionStripe applied(PostgresAdmissionRepository admissions,
                                                                org.boxoffice.domain.AdmissionStripe next) {
        admissions.apply(next);
        return next;
    }

    @Test
    void admissionTickets_areIssuedOnlyForSoldParts_andTheirPartsGoBackOnceTheBookingNoLongerAdmits() {
        PostgresAdmissionRepository admissions = new PostgresAdmissionRepository(db);
        assertTrue(admissions.createArea(new org.boxoffice.domain.AdmissionArea("pay-1", "FLOOR", 3, 4_500, 1), T0));
        org.boxoffice.domain.AdmissionStripe stripe = admissions.loadStripe("pay-1", "FLOOR", 0).orElseThrow();
        long expires = System.currentTimeMillis() + 600_000;
        stripe = applied(admissions, stripe.take("GA1", "acct", 2, 2, expires, T0, 0).next());
        HoldRecord h = new HoldRecord("GA1", "pay-1", "acct", List.of(), expires, HoldStatus.ACTIVE, T0, 9_000, "EUR",
                "FLOOR", 2);
        PaymentAttempt p = captured(h);
        long id = ((SettlementClaim.Claimed) bookings.claimSettlement(p.paymentId(), T0, T0)).bookingId();

        IllegalStateException unsold = assertThrows(IllegalStateException.class, () -> bookings.book(p.paymentId(), id, T0));

        assertTrue(unsold.getMessage().contains("0 are sold"), unsold.getMessage());
        assertTrue(bookings.booking(id).isEmpty(), "nothing written");
        stripe = applied(admissions, stripe.confirm("GA1", T0, 0));
        assertEquals(List.of("FLOOR~1", "FLOOR~2"), bookings.book(p.paymentId(), id, T0).seatIds());
        assertEquals(TicketCheck.Result.VALID, bookings.useTicket(id, "pay-1", "FLOOR~2", 0, T0).result());
        assertEquals(TicketCheck.Result.INVALID, bookings.useTicket(id, "pay-1", "FLOOR~3", 0, T0).result());
        org.boxoffice.domain.AdmissionStripe sold = stripe;
        assertThrows(org.boxoffice.domain.StaleInventoryException.class,
                () -> admissions.apply(sold.giveBack("GA1", 2, T0)), "a booking that admits keeps its admissions");

        assertTrue(bookings.startCancellation(id, "test", T0));
        assertTrue(bookings.refunded(p.paymentId(), T0));
        stripe = applied(admissions, admissions.loadStripe("pay-1", "FLOOR", 0).orElseThrow().giveBack("GA1", 2, T0));
        // a copy at the row's version that still counts the sale (as a racing caller's may)
        org.boxoffice.domain.AdmissionStripe stillCounting = new org.boxoffice.domain.AdmissionStripe("pay-1", "FLOOR", 0,
                stripe.capacity(), 2, stripe.parts(), stripe.version(), null);

        assertEquals(0, admissions.taken("pay-1", "FLOOR"));
        assertThrows(org.boxoffice.domain.StaleInventoryException.class,
                () -> admissions.apply(stillCounting.giveBack("GA1", 2, T0)), "given back once");
        org.boxoffice.domain.AdmissionStripe now = admissions.loadStripe("pay-1", "FLOOR", 0).orElseThrow();
        org.boxoffice.domain.AdmissionStripe believesMore = new org.boxoffice.domain.AdmissionStripe("pay-1", "FLOOR", 0,
                10, now.sold(), now.parts(), now.version(), null);
        assertThrows(org.boxoffice.domain.StaleInventoryException.class, () -> admissions.apply(
                believesMore.take("GA2", "acct", 4, 4, expires, T0, 0).next()), "never beyond the capacity");
    }
}
