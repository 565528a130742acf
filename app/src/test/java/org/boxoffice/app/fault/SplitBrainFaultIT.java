package org.boxoffice.app.fault;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntPredicate;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real network partition in the middle of a sale: three members (quorum 2, one backup) on a
 * loopback network of their own ({@link GridNetwork}), cut between {m1, m2} and {m3} for real TCP
 * (connections go silent, as behind a firewall dropping packets), then healed.
 *
 * <p>While cut off, m3 is below the quorum: it must refuse every seat write with 503
 * {@code GRID_UNAVAILABLE} (never a 201 for a hold) and keep serving reads, while m1 and m2 keep
 * selling. After the heal m3 must merge back (three members everywhere, ready), its seat map must
 * be PostgreSQL's again (the merge drops its copy of the inventory and reloads it from the
 * referee), and, as after every fault test, every acknowledged hold must be in PostgreSQL and no
 * seat held or sold twice; the members' invariant gauges must stay 0 all along.
 */
@Tag("fault")
class SplitBrainFaultIT {

    /** A silent peer is declared dead after this long (Hazelcast's default: 60 s). */
    private static final int NO_HEARTBEAT_SECONDS = 15;
    /** How long the cut lasts once both sides have noticed it. */
    private static final long CUT_AFTER_DETECTION_MILLIS = 12_000;
    private static final Duration DETECTION_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration MERGE_TIMEOUT = Duration.ofSeconds(90);

    @Test
    void networkPartition_minorityRefusesSeatWrites_majorityKeepsSelling_mergeReloadsFromPostgres() {
        FaultRig.run("split-brain", 3, 2, this::run);
    }

    private void run(FaultRig rig) {
        long t0 = System.nanoTime();
        GridNetwork net = new GridNetwork(rig);
        rig.closeLast(net);
        rig.memberSetup(net.setup(NO_HEARTBEAT_SECONDS));
        rig.startDatabase();
        List<Member> members = rig.startCluster(3);
        Member m1 = members.get(0);
        Member m2 = members.get(1);
        Member m3 = members.get(2);
        assertTrue(net.opened() > 0 && net.strangers() == 0, "member connections do not all go through the proxies: "
                + net.opened() + " carried, " + net.strangers() + " from unknown addresses" + rig.diagnostics());

        FaultRig.ShowPlan plan = rig.createShow(m1, "fault-split", 4, 50, 60, members);
        boolean checkout = rig.checkoutWorks(m2, plan);
        // two holds of the probe account made before the cut, for m3 to be asked to release and pay while cut off
        String probeToken = rig.token(m1, "fault-probe", false);
        List<String> order = plan.seatOrder();
        String releaseProbe = probeHold(rig, m1, plan, probeToken, order.get(order.size() - 2));
        String checkoutProbe = probeHold(rig, m1, plan, probeToken, order.get(order.size() - 3));
        if (checkout) {
            // a declined attempt before the cut: the hold is extended already, so the checkout m3 is
            // asked for while cut off makes no grid write before it would charge
            Http.Reply declined = rig.http.must(() -> rig.http.post(m1.base, "/v1/holds/" + checkoutProbe + "/checkout",
                    probeToken, "{\"paymentMethod\":\"card_declined\"}", "split-decline-" + checkoutProbe,
                    Sale.WRITE_TIMEOUT));
            assertEquals(402, declined.status(), "the declined probe checkout: " + declined);
        }

        Gauges gauges = new Gauges(rig, members).start();
        MemberCounts counts = new MemberCounts(rig, members).start();
        rig.closeLast(gauges::stop); // also when the test fails half-way
        rig.closeLast(counts::stop);
        List<Member> targets = new CopyOnWriteArrayList<>(members); // the load balancer never notices the cut
        Sale sale = new Sale(rig, plan, () -> targets, new Sale.Options(24, 0.10, checkout ? 0.15 : 0.0, 60, 80)).start();
        FaultRig.sleep(8_000);

        // ------------------------------------------------------------ the cut
        long cutAt = System.currentTimeMillis();
        net.cut(Set.of(2));
        long m3Alone = counts.awaitFirst(m3, n -> n == 1, cutAt, DETECTION_TIMEOUT);
        long m1Two = counts.awaitFirst(m1, n -> n == 2, cutAt, DETECTION_TIMEOUT);
        long m2Two = counts.awaitFirst(m2, n -> n == 2, cutAt, DETECTION_TIMEOUT);
        long majority = Math.max(m1Two, m2Two);
        rig.log("detected: m3 sees itself alone " + (m3Alone - cutAt) + " ms after the cut, m1 and m2 see two members after "
                + (m1Two - cutAt) + " / " + (m2Two - cutAt) + " ms");

        // m3, cut off: writes refused, reads served
        Map<String, String> probes = new TreeMap<>();
        Http.Reply availability = rig.http.must(() -> rig.http.get(m3.base, "/v1/shows/" + plan.showId()
                + "/availability", null, Sale.READ_TIMEOUT));
        probes.put("m3 GET availability", availability.toString());
        assertEquals(200, availability.status(), "m3 serves no seat map while cut off: " + availability + rig.diagnostics());
        String freeSeat = seatFreeEverywhere(rig, plan, FaultRig.decodeAvailability(availability.json()));
        String freeToken = rig.token(m3, "fault-probe-cut", false);
        Http.Reply hold = rig.http.must(() -> rig.http.post(m3.base, "/v1/shows/" + plan.showId() + "/holds", freeToken,
                "{\"seatIds\":[\"" + freeSeat + "\"]}", "split-hold-" + freeSeat, Sale.WRITE_TIMEOUT));
        probes.put("m3 hold " + freeSeat, hold.toString());
        Http.Reply release = rig.http.must(() -> rig.http.delete(m3.base, "/v1/holds/" + releaseProbe, probeToken,
                Sale.WRITE_TIMEOUT));
        probes.put("m3 release " + releaseProbe, release.toString());
        Http.Reply pay = checkout ? rig.http.must(() -> rig.http.post(m3.base, "/v1/holds/" + checkoutProbe + "/checkout",
                probeToken, "{\"paymentMethod\":\"card_ok\"}", "split-pay-" + checkoutProbe, Sale.WRITE_TIMEOUT)) : null;
        if (pay != null) {
            probes.put("m3 checkout " + checkoutProbe, pay.toString());
        }
        Http.Reply seats = rig.http.must(() -> rig.http.get(m3.base, "/v1/shows/" + plan.showId() + "/seats?section=A",
                null, Sale.READ_TIMEOUT));
        probes.put("m3 GET seats", seats.status() + "");
        Http.Reply holdRead = rig.http.must(() -> rig.http.get(m3.base, "/v1/holds/" + releaseProbe, probeToken,
                Sale.READ_TIMEOUT));
        probes.put("m3 GET hold " + releaseProbe, holdRead.toString());
        rig.log("probes on m3 while cut off: " + probes);
        assertRefused(hold, "a hold of " + freeSeat + " (free in PostgreSQL and in m3's map)", rig);
        assertRefused(release, "the release of hold " + releaseProbe, rig);
        if (pay != null) {
            assertRefused(pay, "the checkout of hold " + checkoutProbe, rig);
        }
        assertTrue(seats.status() == 200 && holdRead.status() == 200
                        && "HELD".equals(holdRead.json().path("status").asText()),
                "m3 does not serve reads while cut off: " + probes + rig.diagnostics());

        long healAfter = Math.max(m3Alone, majority) + CUT_AFTER_DETECTION_MILLIS;
        FaultRig.sleep(Math.max(0, healAfter - System.currentTimeMillis()));

        // ------------------------------------------------------------ the heal
        long healAt = System.currentTimeMillis();
        net.heal();
        long allThree = -1;
        long ready = -1;
        long deadline = healAt + MERGE_TIMEOUT.toMillis();
        while (System.currentTimeMillis() < deadline && ready < 0) {
            if (allThree < 0 && members.stream().allMatch(m -> counts.latest(m) == 3)) {
                allThree = System.currentTimeMillis();
            }
            if (allThree >= 0 && members.stream().allMatch(m -> {
                Http.Reply r = m.readiness(rig.http);
                return r != null && r.status() == 200 && m.members(rig.http) == 3;
            })) {
                ready = System.currentTimeMillis();
            }
            FaultRig.sleep(200);
        }
        rig.log("after the heal: all three see three members after "
                + since(allThree, healAt) + " ms, all ready (cluster safe) after " + since(ready, healAt) + " ms");
        assertTrue(ready >= 0, "the cluster did not become whole and ready within " + MERGE_TIMEOUT.toSeconds()
                + " s of the heal: member counts " + counts.latestAll() + rig.diagnostics());
        FaultRig.sleep(6_000); // the sale goes on on three members
        sale.stop();
        counts.stop();

        // m3 again: the writes it refused work now; PostgreSQL shows they had changed nothing
        String releaseStatus = rig.query("SELECT status FROM holds WHERE hold_id = ?", rs -> FaultRig.string(rs, 1),
                releaseProbe).get(0);
        long probePayments = checkout ? rig.count("SELECT count(*) FROM payments WHERE hold_id = ? AND status <> 'DECLINED'",
                checkoutProbe) : 0;
        Http.Reply releaseAfter = rig.http.must(() -> rig.http.delete(m3.base, "/v1/holds/" + releaseProbe, probeToken,
                Sale.WRITE_TIMEOUT));
        Http.Reply payAfter = checkout ? rig.http.must(() -> rig.http.post(m3.base, "/v1/holds/" + checkoutProbe
                + "/checkout", probeToken, "{\"paymentMethod\":\"card_ok\"}", "split-pay2-" + checkoutProbe,
                Sale.WRITE_TIMEOUT)) : null;
        rig.log("after the merge on m3: hold " + releaseProbe + " was " + releaseStatus + " in PostgreSQL, its release "
                + "now answers " + releaseAfter + (checkout ? "; hold " + checkoutProbe + " had " + probePayments
                + " payment attempts, its checkout now answers " + payAfter : ""));

        // ------------------------------------------------------------ figures
        // the members' own account, from their logs (same clock): when each dropped the other side
        // from its member list (a member may learn it from the master rather than suspect itself)
        long m3Drops = loggedAt(m3, " has left ", cutAt);
        long m1Drops = loggedAt(m1, " has left ", cutAt);
        long m2Drops = loggedAt(m2, " has left ", cutAt);
        long merging = loggedAt(m3, " is MERGING", healAt);
        long mergedLogged = loggedAt(m3, " is MERGED", healAt);
        rig.log("member logs: m3 drops m1/m2 " + since(m3Drops, cutAt) + " ms after the cut, m1 drops m3 after "
                + since(m1Drops, cutAt) + " ms, m2 after " + since(m2Drops, cutAt) + " ms (so m3 went on taking writes for "
                + (m3Drops < 0 || m1Drops < 0 || m2Drops < 0 ? "?" : m3Drops - Math.min(m1Drops, m2Drops))
                + " ms after the majority had moved its partitions, on copies that no longer see the majority's writes); "
                + "after the heal m3 is MERGING " + since(merging, healAt) + " ms, MERGED " + since(mergedLogged, healAt) + " ms");
        long refusedFrom = sale.attempts(a -> a.member().equals(m3.name) && isWrite(a) && a.end() >= cutAt
                && a.status() == 503 && "GRID_UNAVAILABLE".equals(a.code())).stream()
                .mapToLong(Sale.Attempt::end).min().orElse(-1);
        Predicate<Sale.Attempt> onM3 = a -> a.member().equals(m3.name);
        // sent once m3 had begun refusing, answered before the heal (a write straddling the heal may
        // meet the merged cluster, where it is allowed)
        Predicate<Sale.Attempt> m3WriteWhileRefusing = onM3.and(SplitBrainFaultIT::isWrite)
                .and(a -> refusedFrom >= 0 && a.start() >= refusedFrom && a.end() < healAt);
        Predicate<Sale.Attempt> m3ReadWhileAlone = onM3.and(a -> !isWrite(a) && a.start() >= m3Alone && a.start() < healAt);
        Predicate<Sale.Attempt> heldBeforeItKnew = onM3.and(a -> a.kind() == Sale.Kind.HOLD && a.status() == 201
                && a.start() >= cutAt && (refusedFrom < 0 || a.start() < refusedFrom));
        Map<String, Integer> m3Writes = outcomes(sale, m3WriteWhileRefusing);
        Map<String, Integer> m3Reads = outcomes(sale, m3ReadWhileAlone);
        long[] majorityHolds = new long[2];
        for (int i = 0; i < 2; i++) {
            String name = members.get(i).name;
            majorityHolds[i] = sale.count(a -> a.member().equals(name) && a.kind() == Sale.Kind.HOLD && a.status() == 201
                    && a.start() >= majority && a.end() < healAt);
        }
        long readyAt = ready;
        long m3AfterMerge = sale.count(onM3.and(a -> a.kind() == Sale.Kind.HOLD && a.status() == 201 && a.start() >= readyAt));
        long firstM3AfterHeal = sale.attempts(onM3.and(a -> a.kind() == Sale.Kind.HOLD && a.status() == 201
                && a.start() >= healAt)).stream().mapToLong(a -> a.end() - healAt).min().orElse(-1);
        Figures f = Figures.around(sale, cutAt);
        rig.log("cut: m3 alone after " + (m3Alone - cutAt) + " ms, m1+m2 after " + (majority - cutAt) + " ms; m3 refuses "
                + "seat writes (first 503 GRID_UNAVAILABLE) from " + since(refusedFrom, cutAt) + " ms after the cut; holds "
                + "m3 acknowledged after the cut before it refused: " + sale.count(heldBeforeItKnew) + "; m3 writes while "
                + "refusing " + m3Writes + "; m3 reads while alone " + m3Reads + "; holds acknowledged by m1 / m2 while cut "
                + "(after they noticed): " + majorityHolds[0] + " / " + majorityHolds[1] + "; longest gap between "
                + "acknowledged holds around the cut " + f.longestGap() + " ms, back to half the earlier rate after "
                + f.recovered() + " ms; slowest hold in flight at the cut " + f.slowestAcross() + " ms");
        rig.log("merge: MERGING on m3 " + since(merging, healAt) + " ms and MERGED " + since(mergedLogged, healAt)
                + " ms after the heal, three members everywhere after "
                + since(allThree, healAt) + " ms, all ready after " + since(ready, healAt) + " ms; m3's first acknowledged "
                + "hold after the heal " + firstM3AfterHeal + " ms after it, " + m3AfterMerge + " holds on m3 once ready; "
                + "cut lasted " + (healAt - cutAt) + " ms; transport failures " + sale.count(a -> a.status() < 0)
                + "; 503s " + sale.count(a -> a.status() == 503));

        // ------------------------------------------------------------ what must hold
        List<Sale.Attempt> errors = sale.serverErrors();
        assertTrue(errors.isEmpty(), "5xx other than 503: " + errors.stream().limit(10).toList() + rig.diagnostics());
        assertTrue(refusedFrom >= 0, "m3 never answered 503 GRID_UNAVAILABLE while cut off: " + sale.summary()
                + rig.diagnostics());
        List<Sale.Attempt> accepted = sale.attempts(m3WriteWhileRefusing.and(a -> a.status() >= 200 && a.status() < 300));
        assertTrue(accepted.isEmpty(), "m3 accepted seat writes below its quorum: " + accepted.stream().limit(10).toList()
                + rig.diagnostics());
        List<Sale.Attempt> badReads = sale.attempts(m3ReadWhileAlone.and(a -> a.status() != 200));
        assertTrue(badReads.isEmpty() && sale.count(m3ReadWhileAlone) > 0, "m3 did not serve every read while cut off: "
                + m3Reads + " " + badReads.stream().limit(5).toList() + rig.diagnostics());
        assertTrue(majorityHolds[0] > 0 && majorityHolds[1] > 0, "m1 and m2 did not both keep selling while cut from m3: "
                + majorityHolds[0] + " / " + majorityHolds[1] + " " + sale.summary() + rig.diagnostics());
        assertTrue(m3AfterMerge > 0, "m3 acknowledged no hold after the merge: " + sale.summary() + rig.diagnostics());
        assertEquals("ACTIVE", releaseStatus, "the release m3 refused while cut off changed the hold anyway");
        assertEquals(204, releaseAfter.status(), "m3 cannot release a hold after the merge: " + releaseAfter);
        if (checkout) {
            assertEquals(0, probePayments, "the checkout m3 refused while cut off recorded a payment (or charged) anyway");
            assertTrue(payAfter.status() == 200 && "BOOKED".equals(payAfter.json().path("status").asText()),
                    "m3 cannot sell a hold after the merge: " + payAfter);
        }
        assertEquals(0, net.strangers(), "connections from unknown addresses reached the proxies");

        answersTheRefereeDidNotSee(rig, sale, plan, cutAt, healAt);
        SaleAudit.everything(rig, sale, plan, members);
        gauges.stop();
        Map<String, Long> last = gauges.readAll();
        rig.log("invariant gauges: highest seen " + gauges.highest() + " over " + gauges.samples() + " samples; now " + last);
        assertTrue(gauges.highest().values().stream().allMatch(v -> v == 0) && last.values().stream().allMatch(v -> v == 0)
                        && !last.isEmpty(),
                "invariant gauges were not 0: highest " + gauges.highest() + ", now " + last + rig.diagnostics());
        rig.log("PASSED in " + FaultRig.millis(t0) + " ms: " + sale.summary());
    }

    // ---------------------------------------------------------------- helpers

    private static String probeHold(FaultRig rig, Member via, FaultRig.ShowPlan plan, String token, String seat) {
        Http.Reply r = rig.http.must(() -> rig.http.post(via.base, "/v1/shows/" + plan.showId() + "/holds", token,
                "{\"seatIds\":[\"" + seat + "\"]}", "split-probe-" + seat, Sale.WRITE_TIMEOUT));
        if (r.status() != 201) {
            throw new AssertionError("probe hold of " + seat + ": " + r);
        }
        return r.json().get("holdId").asText();
    }

    /**
     * Logs the answers that the grid gave on its own and PostgreSQL contradicts, each with when it
     * was sent relative to the cut: releases answered 204 whose hold is still ACTIVE (the audit fails
     * on them) and checkouts answered 409 HOLD_EXPIRED for a hold that is ACTIVE and unexpired (a
     * wrong refusal, reported like every write whose outcome its buyer cannot know) — both come from
     * a block copy that missed a write the other side made — and first attempts of a hold answered
     * 409 REQUEST_IN_PROGRESS (reported).
     */
    private static void answersTheRefereeDidNotSee(FaultRig rig, Sale sale, FaultRig.ShowPlan plan, long cutAt,
                                                   long healAt) {
        Set<String> active = new HashSet<>(rig.query("SELECT hold_id FROM holds WHERE show_id = ? AND status = 'ACTIVE' "
                + "AND expires_at > now()", rs -> FaultRig.string(rs, 1), plan.showId()));
        List<String> releases = new ArrayList<>();
        List<String> expired = new ArrayList<>();
        for (Sale.Attempt a : sale.attempts(x -> active.contains(x.holdId())
                && (x.kind() == Sale.Kind.RELEASE && x.status() == 204
                || x.kind() == Sale.Kind.CHECKOUT && x.status() == 409 && "HOLD_EXPIRED".equals(x.code())))) {
            String held = sale.attempts(x -> x.kind() == Sale.Kind.HOLD && a.holdId().equals(x.holdId())).stream()
                    .map(h -> "held via " + h.member() + " (sent at cut" + signed(h.start() - cutAt) + " ms, answered at cut"
                            + signed(h.end() - cutAt) + " ms)").findFirst().orElse("");
            String line = a.holdId() + " " + held + ", " + a.kind() + " via " + a.member() + " sent at cut"
                    + signed(a.start() - cutAt) + " ms" + (a.start() >= healAt ? " (after the heal)" : "");
            (a.kind() == Sale.Kind.RELEASE ? releases : expired).add(line);
        }
        // a fresh Idempotency-Key told "in progress": Hazelcast re-ran the marker's putIfAbsent after
        // a member left, and the re-run found the first run's marker
        List<String> inProgress = sale.attempts(x -> x.kind() == Sale.Kind.HOLD && !x.retry() && x.status() == 409
                && "REQUEST_IN_PROGRESS".equals(x.code())).stream()
                .map(x -> "via " + x.member() + " sent at cut" + signed(x.start() - cutAt) + " ms").toList();
        rig.log("releases answered 204 whose hold PostgreSQL still has ACTIVE: " + releases.size()
                + (releases.isEmpty() ? "" : " " + releases) + "; checkouts answered 409 HOLD_EXPIRED for a hold ACTIVE "
                + "and unexpired in PostgreSQL: " + expired.size() + (expired.isEmpty() ? "" : " " + expired)
                + "; first attempts of a hold answered 409 REQUEST_IN_PROGRESS: " + inProgress.size()
                + (inProgress.isEmpty() ? "" : " " + inProgress));
    }

    private static String signed(long millis) {
        return (millis >= 0 ? "+" : "") + millis;
    }

    /** The last seat (in layout order) that both PostgreSQL and m3's seat map show as free. */
    private static String seatFreeEverywhere(FaultRig rig, FaultRig.ShowPlan plan, String[] m3Map) {
        Set<String> free = new HashSet<>(rig.query("SELECT seat_id FROM seats WHERE show_id = ? AND state = 'AVAILABLE'",
                rs -> FaultRig.string(rs, 1), plan.showId()));
        for (int g = m3Map.length - 1; g >= 0; g--) {
            String seat = plan.seatOrder().get(g);
            if ("AVAILABLE".equals(m3Map[g]) && free.contains(seat)) {
                return seat;
            }
        }
        throw new AssertionError("no seat is free both in PostgreSQL and in m3's seat map");
    }

    private static void assertRefused(Http.Reply r, String what, FaultRig rig) {
        assertTrue(r.status() == 503 && "GRID_UNAVAILABLE".equals(r.code()),
                "m3, cut off below its quorum, answered " + r + " to " + what + " (expected 503 GRID_UNAVAILABLE)"
                        + rig.diagnostics());
    }

    private static boolean isWrite(Sale.Attempt a) {
        return a.kind() == Sale.Kind.HOLD || a.kind() == Sale.Kind.RELEASE || a.kind() == Sale.Kind.CHECKOUT;
    }

    /**
     * When {@code m} first logged a line containing {@code text} at or after {@code after} (epoch
     * millis), or -1. Log lines start with the member's local time of day ({@code HH:mm:ss.SSS});
     * the members run on this machine, so their clock is this one.
     */
    private static long loggedAt(Member m, String text, long after) {
        List<String> lines;
        try {
            lines = Files.readAllLines(m.log, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return -1;
        }
        for (String line : lines) {
            if (!line.contains(text) || line.length() < 12) {
                continue;
            }
            try {
                LocalTime time = LocalTime.parse(line.substring(0, 12));
                ZonedDateTime near = Instant.ofEpochMilli(after).atZone(ZoneId.systemDefault());
                long at = near.with(time).toInstant().toEpochMilli();
                if (at < after - 12 * 3600_000L) {
                    at += 24 * 3600_000L; // past midnight
                }
                if (at >= after) {
                    return at;
                }
            } catch (DateTimeParseException e) {
                // a continuation line
            }
        }
        return -1;
    }

    private static long since(long at, long from) {
        return at < 0 ? -1 : at - from;
    }

    private static Map<String, Integer> outcomes(Sale sale, Predicate<Sale.Attempt> filter) {
        Map<String, Integer> out = new TreeMap<>();
        for (Sale.Attempt a : sale.attempts(filter)) {
            out.merge(a.kind() + " " + (a.status() < 0 ? "io" : a.status() + (a.code().isEmpty() ? "" : ":" + a.code())),
                    1, Integer::sum);
        }
        return out;
    }

    /**
     * How many members each member sees, polled every 200 ms on a thread per member (a member
     * waiting on a silent peer must not hold up the others' clocks); keeps each change with its time.
     */
    private static final class MemberCounts {
        private final FaultRig rig;
        private final List<Member> members;
        private final Map<String, List<long[]>> changes = new ConcurrentHashMap<>();
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean stopped;

        MemberCounts(FaultRig rig, List<Member> members) {
            this.rig = rig;
            this.members = members;
        }

        MemberCounts start() {
            for (Member m : members) {
                List<long[]> seen = new CopyOnWriteArrayList<>();
                changes.put(m.name, seen);
                threads.add(Thread.ofVirtual().name("count-" + m.name).start(() -> {
                    int last = Integer.MIN_VALUE;
                    while (!stopped) {
                        int n = m.members(rig.http);
                        if (n != last && n > 0) {
                            seen.add(new long[]{System.currentTimeMillis(), n});
                            last = n;
                        }
                        FaultRig.sleep(200);
                    }
                }));
            }
            return this;
        }

        /** Waits until {@code m} has been seen with a count that {@code test} accepts, after {@code after}. */
        long awaitFirst(Member m, IntPredicate test, long after, Duration timeout) {
            long deadline = System.currentTimeMillis() + timeout.toMillis();
            while (System.currentTimeMillis() < deadline) {
                for (long[] c : changes.get(m.name)) {
                    if (c[0] >= after && test.test((int) c[1])) {
                        return c[0];
                    }
                }
                FaultRig.sleep(100);
            }
            throw new AssertionError(m.name + " did not see the expected number of members within " + timeout.toSeconds()
                    + " s; it saw " + history(m) + rig.diagnostics());
        }

        int latest(Member m) {
            List<long[]> seen = changes.get(m.name);
            return seen.isEmpty() ? -1 : (int) seen.get(seen.size() - 1)[1];
        }

        Map<String, Integer> latestAll() {
            Map<String, Integer> out = new TreeMap<>();
            members.forEach(m -> out.put(m.name, latest(m)));
            return out;
        }

        private String history(Member m) {
            return changes.get(m.name).stream().map(c -> c[1] + "@" + c[0]).toList().toString();
        }

        void stop() {
            stopped = true;
            threads.forEach(t -> {
                try {
                    t.join(5_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
    }

    /**
     * The members' {@code boxoffice_invariant_violations} gauges (checked against PostgreSQL every
     * 5 s in these tests), sampled every 2 s: the highest value seen per member and kind.
     */
    private static final class Gauges {
        private static final String METRIC = "boxoffice_invariant_violations{";
        private final FaultRig rig;
        private final List<Member> members;
        private final Map<String, Long> highest = new ConcurrentHashMap<>();
        private volatile int samples;
        private volatile boolean stopped;
        private Thread thread;

        Gauges(FaultRig rig, List<Member> members) {
            this.rig = rig;
            this.members = members;
        }

        Gauges start() {
            thread = Thread.ofVirtual().name("invariant-gauges").start(() -> {
                while (!stopped) {
                    readAll().forEach((k, v) -> highest.merge(k, v, Math::max));
                    samples++;
                    FaultRig.sleep(2_000);
                }
            });
            return this;
        }

        /** member/kind -> value, from every member that answers now. */
        Map<String, Long> readAll() {
            Map<String, Long> out = new TreeMap<>();
            for (Member m : members) {
                try {
                    Http.Reply r = rig.http.getAccepting(m.base, "/observe/metrics", "text/plain", Duration.ofSeconds(3));
                    if (r.status() != 200) {
                        continue;
                    }
                    for (String line : r.body().split("\n")) {
                        if (line.startsWith(METRIC)) {
                            int k = line.indexOf("kind=\"");
                            String kind = line.substring(k + 6, line.indexOf('"', k + 6));
                            double v = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                            out.put(m.name + "/" + kind, (long) v);
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    // a member busy merging answers at the next sample
                }
            }
            return out;
        }

        Map<String, Long> highest() {
            return new TreeMap<>(highest);
        }

        int samples() {
            return samples;
        }

        void stop() {
            stopped = true;
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
