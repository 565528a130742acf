package org.boxoffice.app.fault;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three members (quorum 2, one backup), a sale from 24 buyers on all three: the oldest member (the
 * cluster's master) stops answering mid-sale without closing a connection (SIGSTOP), as a member
 * whose node died or whose link was cut looks to the others. Nothing tells the survivors but the
 * missing heartbeats, so every claim on its partitions waits until they take it out: within the
 * member's heartbeat deadline (10 s), not Hazelcast's default minute. Then it wakes up (SIGCONT)
 * believing it still belongs, must find its way back, and afterwards every hold and booking a buyer
 * was told about must be in PostgreSQL, in the API and in the grid's seat map, none twice.
 */
@Tag("fault")
class MemberFreezeFaultIT {

    /** The members' heartbeat deadline, and what the survivors may take beyond it on a busy machine. */
    private static final long DETECTION_MS = 10_000;
    private static final long SLACK_MS = 10_000;

    @Test
    void memberThatStopsAnsweringMidSale_isTakenOutWithinTheHeartbeatDeadline_andLosesNothing() {
        FaultRig.run("member-freeze", 3, 2, this::run);
    }

    private void run(FaultRig rig) {
        long t0 = System.nanoTime();
        FaultRig.ThreeMemberSale started = rig.threeMemberSale("fault-freeze");
        List<Member> members = started.members();
        Member m1 = members.get(0);
        Member m2 = members.get(1);
        Member m3 = members.get(2);
        FaultRig.ShowPlan plan = started.plan();
        List<Member> targets = started.targets();
        Sale sale = started.sale();

        Member victim = m1;
        List<Member> survivors = List.of(m2, m3);
        long frozenAt = System.currentTimeMillis();
        victim.freeze();
        rig.log("SIGSTOP " + victim + " (the master) at sale +" + (frozenAt - sale.startedAt()) + " ms");
        FaultRig.sleep(1_000);
        targets.remove(victim); // the load balancer's readiness look times out a second later
        long outAfter = -1;
        long deadline = frozenAt + DETECTION_MS + SLACK_MS + 20_000;
        while (System.currentTimeMillis() < deadline && outAfter < 0) {
            if (survivors.stream().allMatch(m -> m.members(rig.http) == 2)) {
                outAfter = System.currentTimeMillis() - frozenAt;
                rig.log("both survivors see 2 members " + outAfter + " ms after the freeze");
            }
            FaultRig.sleep(200);
        }
        FaultRig.sleep(5_000); // the sale goes on on two members
        Figures f = Figures.around(sale, frozenAt);

        victim.thaw();
        long thawedAt = System.currentTimeMillis();
        rig.log("SIGCONT " + victim + " after " + (thawedAt - frozenAt) + " ms stopped");
        // it wakes up with its last readiness answer (ready, 3 members) in memory, about a cluster
        // that took it out: a load balancer that believed it would send it writes it must refuse
        List<Integer> wakingAnswers = new java.util.ArrayList<>();
        while (System.currentTimeMillis() < thawedAt + 3_000) {
            Http.Reply r = victim.readiness(rig.http);
            wakingAnswers.add(r == null ? -1 : r.status());
            FaultRig.sleep(100);
        }
        rig.log("readiness of the woken member in its first 3 s: " + wakingAnswers);
        victim.awaitServing(rig.http, 3, Duration.ofSeconds(150));
        rig.log(victim + " serves again with 3 members " + (System.currentTimeMillis() - thawedAt) + " ms after it woke up");
        targets.add(victim);
        FaultRig.sleep(5_000); // the sale on three members again
        sale.stop();
        for (Member m : members) {
            m.awaitReady(rig.http, 3, Duration.ofSeconds(60));
        }

        rig.log("before the freeze: " + f.before() + " holds in 5 s; first hold acknowledged after it: "
                + f.firstAckAfter() + " ms (from a request sent after it); longest gap between acknowledged holds: "
                + f.longestGap() + " ms; back to half the earlier rate after " + f.recovered() + " ms; slowest hold in"
                + " flight at the freeze: " + f.slowestAcross() + " ms; transport failures "
                + sale.count(a -> a.status() < 0) + "; taken out after " + outAfter + " ms");

        List<Sale.Attempt> errors = sale.serverErrors();
        assertTrue(errors.isEmpty(), "5xx other than 503: " + errors.stream().limit(10).toList() + rig.diagnostics());
        assertTrue(f.before() > 0, "no hold was acknowledged before the freeze: " + sale.summary() + rig.diagnostics());
        assertTrue(outAfter >= 0 && outAfter <= DETECTION_MS + SLACK_MS, "the survivors took the silent member out after "
                + outAfter + " ms (-1: not within " + (deadline - frozenAt) + " ms); its heartbeat deadline is "
                + DETECTION_MS + " ms" + rig.diagnostics());
        assertTrue(!wakingAnswers.contains(200), "the woken member answered ready in its first 3 s: " + wakingAnswers
                + rig.diagnostics());
        assertTrue(f.firstAckAfter() >= 0 && f.firstAckAfter() <= DETECTION_MS + SLACK_MS,
                "the sale did not go on within the heartbeat deadline: " + f.firstAckAfter() + " ms; " + sale.summary()
                        + rig.diagnostics());

        SaleAudit.everything(rig, sale, plan, members);
        rig.log("PASSED in " + FaultRig.millis(t0) + " ms: " + sale.summary());
    }
}
