package org.boxoffice.app.fault;

import java.io.IOException;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What must be true after a sale, whatever happened during it. Checks the referee (PostgreSQL),
 * the API of the surviving members and the grid's seat map against what the buyers were told,
 * and collects every violation; {@link #assertClean} fails with all of them and the logs.
 */
final class SaleAudit {

    private final FaultRig rig;
    private final Sale sale;
    private final FaultRig.ShowPlan plan;
    private final List<String> problems = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    /**
     * Every check on {@code members} after the sale: settlements done, the referee, the holds API and
     * each member's seat map; fails the test with every finding.
     */
    static void everything(FaultRig rig, Sale sale, FaultRig.ShowPlan plan, List<Member> members) {
        new SaleAudit(rig, sale, plan)
                .awaitSettlements(java.time.Duration.ofSeconds(40))
                .checkReferee()
                .checkHoldsApi(members)
                .checkGridAgrees(members, SEAT_MAP_CONVERGES)
                .assertClean();
    }

    SaleAudit(FaultRig rig, Sale sale, FaultRig.ShowPlan plan) {
        this.rig = rig;
        this.sale = sale;
        this.plan = plan;
    }

    record SeatRow(String state, String holdId, Long bookingId) {
    }

    record HoldRow(String status, String account, Set<String> seats) {
    }

    record BookingRow(String holdId, String status, Set<String> seats) {
    }

    /**
     * Waits until no payment of the show is captured but unsettled: a checkout interrupted by the
     * fault (its member killed, PostgreSQL gone) has seats confirmed as SOLD under a booking id whose
     * booking row is written only when reconciliation re-drives it. Everything must settle by itself.
     */
    SaleAudit awaitSettlements(Duration timeout) {
        if (rig.count("SELECT count(*) FROM pg_tables WHERE tablename = 'payments'") == 0) {
            return this;
        }
        // captured money not yet turned into a booking or a refund; attempts whose outcome only the
        // provider knows (PENDING, UNKNOWN) are left out: each member runs its own simulated
        // provider here, which dies with its member, where a real one is shared and outlives them
        String unsettled = "SELECT count(*) FROM payments WHERE show_id = ? AND status = 'CAPTURED' "
                + "AND settlement IN ('NONE', 'SETTLING')";
        long t0 = System.nanoTime();
        long first = rig.count(unsettled, plan.showId());
        long n = first;
        while (n > 0 && System.nanoTime() - t0 < timeout.toNanos()) {
            FaultRig.sleep(500);
            n = rig.count(unsettled, plan.showId());
        }
        List<String> states = rig.query("SELECT status || '/' || settlement || '/' || refund || ' ' || count(*) FROM payments "
                + "WHERE show_id = ? GROUP BY status, settlement, refund ORDER BY 1", rs -> FaultRig.string(rs, 1), plan.showId());
        if (n > 0) {
            problem(n + " payments still unsettled " + timeout.toSeconds() + " s after the sale (reconciliation did not "
                    + "finish them): " + states);
        }
        rig.log("payments: " + first + " unsettled after the sale, " + n + " after " + FaultRig.millis(t0)
                + " ms; by status/settlement/refund " + states);
        return this;
    }

    /** Every acknowledged hold and booking against PostgreSQL, and the referee's own invariants. */
    SaleAudit checkReferee() {
        String show = plan.showId();
        Map<String, SeatRow> seats = new HashMap<>();
        rig.query("SELECT seat_id, state, hold_id, booking_id FROM seats WHERE show_id = ?", rs -> {
            seats.put(FaultRig.string(rs, 1), new SeatRow(FaultRig.string(rs, 2), FaultRig.string(rs, 3), longOrNull(rs, 4)));
            return null;
        }, show);
        Map<String, HoldRow> holds = new HashMap<>();
        rig.query("SELECT hold_id, status, account_id, seat_ids FROM holds WHERE show_id = ?", rs -> {
            holds.put(FaultRig.string(rs, 1), new HoldRow(FaultRig.string(rs, 2), FaultRig.string(rs, 3), textArray(rs, 4)));
            return null;
        }, show);
        Map<Long, BookingRow> bookings = new HashMap<>();
        Map<String, Long> liveBookingSeats = new HashMap<>();
        boolean checkoutTables = rig.count("SELECT count(*) FROM pg_tables WHERE tablename IN ('bookings', 'booking_seats')") == 2;
        if (checkoutTables) {
            rig.query("SELECT booking_id, hold_id, status, seat_ids FROM bookings WHERE show_id = ?", rs -> {
                try {
                    bookings.put(rs.getLong(1), new BookingRow(FaultRig.string(rs, 2), FaultRig.string(rs, 3), textArray(rs, 4)));
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
                return null;
            }, show);
            rig.query("SELECT seat_id, booking_id FROM booking_seats WHERE show_id = ? AND live", rs -> {
                try {
                    Long before = liveBookingSeats.put(rs.getString(1), rs.getLong(2));
                    if (before != null) {
                        problem("seat " + rs.getString(1) + " is in two live bookings: " + before + " and " + rs.getLong(2));
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
                return null;
            }, show);
        }

        // every acknowledged hold / booking is where its buyer was told it is
        Map<String, String> liveOwner = new HashMap<>();
        int checked = 0;
        for (Sale.Ack ack : sale.acks()) {
            HoldRow hold = holds.get(ack.holdId);
            if (hold == null) {
                problem("acknowledged hold " + ack + " has no hold row in PostgreSQL");
                continue;
            }
            if (!hold.account().equals(ack.account) || !hold.seats().equals(new HashSet<>(ack.seats))) {
                problem("hold row of " + ack + " names " + hold.account() + " " + hold.seats());
            }
            switch (ack.state) {
                case HELD -> {
                    checked++;
                    if (!"ACTIVE".equals(hold.status())) {
                        problem("acknowledged hold " + ack + " is " + hold.status() + " in PostgreSQL");
                    }
                    for (String seat : ack.seats) {
                        SeatRow row = seats.get(seat);
                        if (row == null || !"HELD".equals(row.state()) || !ack.holdId.equals(row.holdId())) {
                            problem("seat " + seat + " of acknowledged hold " + ack + " is " + row + " in PostgreSQL");
                        }
                        claim(liveOwner, seat, ack);
                    }
                }
                case BOOKED -> {
                    checked++;
                    BookingRow booking = bookings.get(ack.bookingId);
                    if (booking == null || !"CONFIRMED".equals(booking.status()) || !ack.holdId.equals(booking.holdId())
                            || !booking.seats().equals(new HashSet<>(ack.seats))) {
                        problem("acknowledged booking " + ack + " is " + booking + " in PostgreSQL");
                    }
                    if (!"CONFIRMED".equals(hold.status())) {
                        problem("the hold of acknowledged booking " + ack + " is " + hold.status());
                    }
                    for (String seat : ack.seats) {
                        SeatRow row = seats.get(seat);
                        if (row == null || !"SOLD".equals(row.state()) || row.bookingId() == null
                                || row.bookingId() != ack.bookingId) {
                            problem("seat " + seat + " of acknowledged booking " + ack + " is " + row + " in PostgreSQL");
                        }
                        Long live = liveBookingSeats.get(seat);
                        if (live == null || live != ack.bookingId) {
                            problem("seat " + seat + " of acknowledged booking " + ack + " has live booking_seats row " + live);
                        }
                        claim(liveOwner, seat, ack);
                    }
                }
                case RELEASED -> {
                    if (!"RELEASED".equals(hold.status())) {
                        problem("released hold " + ack + " is " + hold.status() + " in PostgreSQL");
                    }
                    for (String seat : ack.seats) {
                        SeatRow row = seats.get(seat);
                        if (row != null && "HELD".equals(row.state()) && ack.holdId.equals(row.holdId())) {
                            problem("seat " + seat + " of released hold " + ack + " is still held by it");
                        }
                    }
                }
                case RELEASE_UNKNOWN, CHECKOUT_UNKNOWN -> notes.add("outcome unknown to its buyer: " + ack + ", hold row "
                        + hold.status());
            }
        }

        // the referee's invariants over the whole show
        int heldWithoutHold = 0;
        int soldWithoutBooking = 0;
        for (Map.Entry<String, SeatRow> e : seats.entrySet()) {
            SeatRow row = e.getValue();
            if ("HELD".equals(row.state())) {
                HoldRow hold = holds.get(row.holdId());
                if (hold == null || !"ACTIVE".equals(hold.status())) {
                    heldWithoutHold++;
                    problem("seat " + e.getKey() + " is HELD by " + row.holdId() + " whose hold row is "
                            + (hold == null ? "missing" : hold.status()));
                }
            }
            if ("SOLD".equals(row.state())) {
                BookingRow booking = bookings.get(row.bookingId());
                Long live = liveBookingSeats.get(e.getKey());
                if (booking == null || !"CONFIRMED".equals(booking.status()) || live == null || !live.equals(row.bookingId())) {
                    soldWithoutBooking++;
                    problem("seat " + e.getKey() + " is SOLD by booking " + row.bookingId() + " which is " + booking
                            + " with live booking_seats row " + live);
                }
            }
        }
        liveBookingSeats.forEach((seat, booking) -> {
            SeatRow row = seats.get(seat);
            if (row == null || !"SOLD".equals(row.state()) || !booking.equals(row.bookingId())) {
                problem("live booking_seats row " + seat + " of booking " + booking + " but the seat is " + row);
            }
        });
        // hold rows that are ACTIVE but whose seats are not all theirs: left by a multi-block hold
        // whose roll-back failed while its claim failed (the buyer heard 503); they lapse with the hold
        int partial = 0;
        for (Map.Entry<String, HoldRow> e : holds.entrySet()) {
            if ("ACTIVE".equals(e.getValue().status())) {
                for (String seat : e.getValue().seats()) {
                    SeatRow row = seats.get(seat);
                    if (row == null || !"HELD".equals(row.state()) || !e.getKey().equals(row.holdId())) {
                        partial++;
                        break;
                    }
                }
            }
        }
        // holds that exist although no buyer heard of them: their request got no answer (its member
        // died, it timed out, or its retry met the first attempt's in-flight marker); they lapse
        Set<String> told = new HashSet<>();
        sale.acks().forEach(a -> told.add(a.holdId));
        long unheard = holds.entrySet().stream().filter(e -> "ACTIVE".equals(e.getValue().status())
                && !told.contains(e.getKey()) && !"fault-probe".equals(e.getValue().account())).count();
        long[] byState = new long[4];
        seats.values().forEach(r -> byState[List.of("AVAILABLE", "HELD", "SOLD", "BLOCKED").indexOf(r.state())]++);
        rig.log("referee: " + checked + " acknowledged live holds/bookings checked seat by seat; seats AVAILABLE "
                + byState[0] + " HELD " + byState[1] + " SOLD " + byState[2] + "; hold rows " + holds.size()
                + ", bookings " + bookings.size() + "; HELD without an active hold " + heldWithoutHold
                + ", SOLD without a live booking " + soldWithoutBooking + ", active holds not holding all their seats "
                + partial + "; active holds no buyer was told about " + unheard + "; acknowledged holds whose "
                + "later release or checkout got no clear answer " + notes.size());
        return this;
    }

    /** No seat in two acknowledged live holds or bookings. */
    private void claim(Map<String, String> owner, String seat, Sale.Ack ack) {
        String before = owner.put(seat, ack.holdId);
        if (before != null && !before.equals(ack.holdId)) {
            problem("seat " + seat + " was acknowledged to two live holds: " + before + " and " + ack);
        }
    }

    /** {@code GET /v1/holds/{id}} on the surviving members tells every buyer what they were told before. */
    SaleAudit checkHoldsApi(List<Member> survivors) {
        List<Sale.Ack> live = sale.acks().stream()
                .filter(a -> a.state == Sale.State.HELD || a.state == Sale.State.BOOKED || a.state == Sale.State.RELEASED)
                .toList();
        ConcurrentLinkedQueue<String> found = new ConcurrentLinkedQueue<>();
        AtomicInteger asked = new AtomicInteger();
        try (ExecutorService pool = Executors.newFixedThreadPool(6, Thread.ofVirtual().factory())) {
            for (Sale.Ack ack : live) {
                pool.submit(() -> {
                    Member m = survivors.get(Math.floorMod(ack.holdId.hashCode(), survivors.size()));
                    String expected = switch (ack.state) {
                        case HELD -> "HELD";
                        case BOOKED -> "CONFIRMED";
                        default -> "RELEASED";
                    };
                    try {
                        Http.Reply r = rig.http.get(m.base, "/v1/holds/" + ack.holdId, ack.token, Sale.READ_TIMEOUT);
                        asked.incrementAndGet();
                        if (r.status() != 200 || !expected.equals(r.json().path("status").asText())) {
                            found.add("GET /v1/holds/" + ack.holdId + " on " + m.name + " answered " + r + ", expected "
                                    + expected + " for " + ack);
                        }
                    } catch (IOException | RuntimeException e) {
                        found.add("GET /v1/holds/" + ack.holdId + " on " + m.name + " failed: " + e);
                    }
                });
            }
        }
        found.forEach(this::problem);
        rig.log("holds API: " + asked.get() + " holds asked on " + survivors.stream().map(m -> m.name).toList()
                + ", " + found.size() + " wrong");
        return this;
    }

    /**
     * How long a member's seat map may take to agree with PostgreSQL after the sale: change events
     * are best effort (one can be lost while partitions move, as after a split heals), and a member
     * reads every show it watches whole every 30 s ({@code ShowSnapshots.FULL_READ_MILLIS}), so a
     * map that missed an event converges within that, and a margin for a busy machine.
     */
    static final java.time.Duration SEAT_MAP_CONVERGES = java.time.Duration.ofSeconds(40);

    /**
     * Every surviving member's seat map (the grid, through {@code /availability}) agrees with
     * PostgreSQL on every seat of the show: a disagreement must go away within {@code timeout}.
     */
    SaleAudit checkGridAgrees(List<Member> survivors, Duration timeout) {
        Map<String, String> referee = new HashMap<>();
        rig.query("SELECT seat_id, state FROM seats WHERE show_id = ?", rs -> {
            referee.put(FaultRig.string(rs, 1), FaultRig.string(rs, 2));
            return null;
        }, plan.showId());
        for (Member m : survivors) {
            long deadline = System.nanoTime() + timeout.toNanos();
            List<String> mismatches;
            long t0 = System.nanoTime();
            while (true) {
                mismatches = new ArrayList<>();
                try {
                    Http.Reply r = rig.http.get(m.base, "/v1/shows/" + plan.showId() + "/availability", null, Sale.READ_TIMEOUT);
                    if (r.status() != 200) {
                        mismatches.add("availability answered " + r);
                    } else {
                        String[] grid = FaultRig.decodeAvailability(r.json());
                        if (grid.length != plan.seatOrder().size()) {
                            mismatches.add("availability has " + grid.length + " seats, the show " + plan.seatOrder().size());
                        } else {
                            for (int g = 0; g < grid.length; g++) {
                                String seat = plan.seatOrder().get(g);
                                if (!grid[g].equals(referee.get(seat))) {
                                    mismatches.add(seat + " grid " + grid[g] + " / PostgreSQL " + referee.get(seat));
                                }
                            }
                        }
                    }
                } catch (IOException e) {
                    mismatches.add("availability failed: " + e);
                }
                if (mismatches.isEmpty() || System.nanoTime() > deadline) {
                    break;
                }
                FaultRig.sleep(500);
            }
            if (!mismatches.isEmpty()) {
                problem(m.name + "'s seat map disagrees with PostgreSQL on " + mismatches.size() + " seats, e.g. "
                        + mismatches.subList(0, Math.min(10, mismatches.size())));
            } else {
                rig.log("grid: " + m.name + "'s seat map agrees with PostgreSQL on all " + referee.size() + " seats (after "
                        + FaultRig.millis(t0) + " ms)");
            }
        }
        return this;
    }

    void problem(String p) {
        synchronized (problems) {
            problems.add(p);
        }
    }

    List<String> problems() {
        return List.copyOf(problems);
    }

    void assertClean() {
        if (!problems.isEmpty()) {
            StringBuilder b = new StringBuilder(problems.size() + " violations after the sale (" + sale.summary() + "):\n");
            problems.stream().limit(40).forEach(p -> b.append("  ").append(p).append('\n'));
            if (problems.size() > 40) {
                b.append("  ... and ").append(problems.size() - 40).append(" more\n");
            }
            throw new AssertionError(b + rig.diagnostics());
        }
    }

    private static Long longOrNull(ResultSet rs, int column) {
        try {
            long v = rs.getLong(column);
            return rs.wasNull() ? null : v;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Set<String> textArray(ResultSet rs, int column) {
        try {
            Array a = rs.getArray(column);
            return a == null ? Set.of() : new HashSet<>(Arrays.asList((String[]) a.getArray()));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
