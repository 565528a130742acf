package org.boxoffice.app.fault;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.sql.Array;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PostgreSQL, the referee, stops for a few seconds in the middle of a sale on two members. While
 * it is down every seat write must answer 503 (never 500, never a 201 that is not in PostgreSQL
 * afterwards), seat maps must keep being served from the grid, and when it is back the sale must
 * resume by itself with nothing lost and nothing held twice.
 */
@Tag("fault")
class DatabaseOutageFaultIT {

    private static final long OUTAGE_MILLIS = 6_000;

    @Test
    void postgresqlStopsMidSale_writesAnswer503_readsGoOn_andTheSaleRecovers() {
        FaultRig.run("db-outage", 2, 1, this::run);
    }

    private void run(FaultRig rig) {
        long t0 = System.nanoTime();
        rig.startDatabase();
        List<Member> members = rig.startCluster(2);
        Member m1 = members.get(0);
        FaultRig.ShowPlan plan = rig.createShow(m1, "fault-outage", 4, 40, 50, members);
        boolean checkout = rig.checkoutWorks(m1, plan);

        Sale sale = new Sale(rig, plan, () -> members, new Sale.Options(16, 0.10, checkout ? 0.10 : 0.0, 60, 60)).start();
        FaultRig.sleep(6_000);

        long stopAsked = System.currentTimeMillis();
        rig.stopDatabase();
        long down = System.currentTimeMillis(); // the server has exited: nothing can commit from here
        rig.log("PostgreSQL is down (stopping took " + (down - stopAsked) + " ms)");
        FaultRig.sleep(OUTAGE_MILLIS);
        long restartAsked = System.currentTimeMillis();
        rig.startDatabase();
        long up = System.currentTimeMillis();
        rig.log("PostgreSQL is up again on the same port and data directory");
        long readyAgain = -1;
        long deadline = up + 12_000;
        while (System.currentTimeMillis() < deadline) {
            if (readyAgain < 0 && members.stream().allMatch(m -> {
                Http.Reply r = m.readiness(rig.http);
                return r != null && r.status() == 200;
            })) {
                readyAgain = System.currentTimeMillis() - up;
            }
            FaultRig.sleep(250);
        }
        sale.stop();
        for (Member m : members) {
            m.awaitReady(rig.http, 2, Duration.ofSeconds(60));
        }

        // what buyers and readers saw: reads sent while the database was down, and every write that
        // was in flight at any moment of the outage (sent before it and still waiting, or sent during it)
        Predicate<Sale.Attempt> isRead = a -> a.kind() == Sale.Kind.AVAILABILITY || a.kind() == Sale.Kind.SEATS;
        Predicate<Sale.Attempt> readDuringOutage = isRead.and(a -> a.start() >= down && a.start() < restartAsked);
        Predicate<Sale.Attempt> writeInOutage = isRead.negate().and(a -> a.start() < restartAsked && a.end() > down);
        Map<String, Integer> writes = outcomes(sale, writeInOutage);
        Map<String, Integer> reads = outcomes(sale, readDuringOutage);
        long slowestWrite = sale.attempts(writeInOutage).stream().mapToLong(Sale.Attempt::millis).max().orElse(0);
        long slowestRead = sale.attempts(readDuringOutage).stream().mapToLong(Sale.Attempt::millis).max().orElse(0);
        long first = sale.attempts(a -> a.kind() == Sale.Kind.HOLD && a.status() == 201 && a.start() >= up).stream()
                .mapToLong(a -> a.end() - up).min().orElse(-1);
        long writes503 = sale.count(writeInOutage.and(a -> a.status() == 503));
        rig.log("PostgreSQL down for " + (restartAsked - down) + " ms (plus " + (down - stopAsked) + " ms of shutting "
                + "down): writes in flight during the outage " + writes + " (slowest answer " + slowestWrite
                + " ms); reads sent during it " + reads + " (slowest " + slowestRead + " ms); after it was back: first "
                + "hold acknowledged after " + first + " ms, both members ready after " + readyAgain + " ms");

        List<Sale.Attempt> errors = sale.serverErrors();
        assertTrue(errors.isEmpty(), "5xx other than 503: " + errors.stream().limit(10).toList());
        // every write answered: 503, or what the grid decides without the database (409, 422), or a
        // success that waited for its connection until PostgreSQL was back (the audit finds it there)
        List<Sale.Attempt> unanswered = sale.attempts(writeInOutage.and(a -> a.status() < 0));
        assertTrue(unanswered.isEmpty(), "writes in flight during the outage got no answer within "
                + Sale.WRITE_TIMEOUT.toSeconds() + " s: " + unanswered.stream().limit(10).toList());
        assertTrue(writes503 > 0, "no write was refused with 503 while PostgreSQL was down: " + writes);
        long badReads = sale.count(readDuringOutage.and(a -> a.status() != 200));
        long goodReads = sale.count(readDuringOutage.and(a -> a.status() == 200));
        assertTrue(badReads == 0 && goodReads > 0,
                "seat maps were not served from the grid while PostgreSQL was down: " + reads);
        assertTrue(first >= 0 && first < 15_000, "the sale did not resume within 15 s of PostgreSQL's return ("
                + first + " ms)");
        assertTrue(readyAgain >= 0, "the members did not report ready within 12 s of PostgreSQL's return");

        SaleAudit audit = new SaleAudit(rig, sale, plan).awaitSettlements(Duration.ofSeconds(40)).checkReferee();
        falseFailures(rig, sale, plan, audit);
        audit.checkHoldsApi(members)
                .checkGridAgrees(members, SaleAudit.SEAT_MAP_CONVERGES)
                .assertClean();
        rig.log("PASSED in " + FaultRig.millis(t0) + " ms");
    }

    /**
     * A 503 promises "nothing was changed": no hold request answered 503 may have left an active
     * hold of exactly its seats for its account behind in PostgreSQL.
     */
    private static void falseFailures(FaultRig rig, Sale sale, FaultRig.ShowPlan plan, SaleAudit audit) {
        Map<String, List<Set<String>>> activeByAccount = new TreeMap<>();
        rig.query("SELECT account_id, seat_ids FROM holds WHERE show_id = ? AND status = 'ACTIVE'", rs -> {
            try {
                Array a = rs.getArray(2);
                activeByAccount.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                        .add(new HashSet<>(Arrays.asList((String[]) a.getArray())));
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return null;
        }, plan.showId());
        Set<String> acknowledged = new HashSet<>();
        sale.acks().forEach(a -> acknowledged.add(key(a.account, a.seats)));
        int found = 0;
        for (Sale.Attempt a : sale.attempts(x -> x.kind() == Sale.Kind.HOLD && x.status() == 503)) {
            Set<String> seats = new HashSet<>(a.seats());
            if (acknowledged.contains(key(a.account(), a.seats()))) {
                continue; // the same buyer held the same seats later, with an answer
            }
            if (activeByAccount.getOrDefault(a.account(), List.of()).contains(seats)) {
                found++;
                audit.problem("hold request answered 503 at sale +" + (a.start() - sale.startedAt()) + " ms left an active "
                        + "hold of " + a.account() + " on " + a.seats() + " in PostgreSQL");
            }
        }
        rig.log("503 answers that changed something anyway: " + found + " of "
                + sale.count(x -> x.kind() == Sale.Kind.HOLD && x.status() == 503));

        // the same promise for money: a checkout answered 503 must not have been charged (once the
        // provider took the money the answer is 202 PENDING, settled later by webhook or reconciliation)
        Set<String> captured = new HashSet<>();
        rig.query("SELECT hold_id FROM payments WHERE show_id = ? AND status = 'CAPTURED'", rs -> {
            try {
                captured.add(rs.getString(1));
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return null;
        }, plan.showId());
        List<Sale.Attempt> charged503 = sale.attempts(x -> x.kind() == Sale.Kind.CHECKOUT && x.status() == 503
                && captured.contains(x.holdId()));
        for (Sale.Attempt a : charged503) {
            audit.problem("checkout of hold " + a.holdId() + " answered 503 at sale +" + (a.start() - sale.startedAt())
                    + " ms although its payment was captured");
        }
        rig.log("checkouts answered 503: " + sale.count(x -> x.kind() == Sale.Kind.CHECKOUT && x.status() == 503)
                + ", of which charged: " + charged503.size());
    }

    private static String key(String account, List<String> seats) {
        return account + " " + new java.util.TreeSet<>(seats);
    }

    private static Map<String, Integer> outcomes(Sale sale, Predicate<Sale.Attempt> filter) {
        Map<String, Integer> out = new TreeMap<>();
        for (Sale.Attempt a : sale.attempts(filter)) {
            out.merge(a.kind() + " " + (a.status() < 0 ? "io" : a.status() + (a.code().isEmpty() ? "" : ":" + a.code())),
                    1, Integer::sum);
        }
        return out;
    }
}
