package org.boxoffice.app.fault;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sale that starts on one member, goes on while two more join (partitions migrate to them) and
 * while they leave again one by one with SIGTERM (graceful: each hands its partitions back before
 * it exits), and ends on the first member alone. Nothing acknowledged may be lost on the way.
 *
 * <p>Quorum 1: the cluster legitimately runs on one member at both ends, and a quorum of 2 would
 * refuse every seat write there. Members leave the load balancer's list before their SIGTERM and
 * the next one leaves only once the cluster is safe again, as a Kubernetes scale-down with a
 * readiness gate does.
 */
@Tag("fault")
class ScaleOutAndInFaultIT {

    @Test
    void oneToThreeAndBackToOneMemberDuringASale_losesNothing() {
        FaultRig.run("scale", 3, 1, this::run);
    }

    private void run(FaultRig rig) {
        long t0 = System.nanoTime();
        rig.startDatabase();
        Member m1 = rig.startReady(0, 1);
        FaultRig.ShowPlan plan = rig.createShow(m1, "fault-scale", 4, 50, 60, List.of(m1));
        boolean checkout = rig.checkoutWorks(m1, plan);

        List<Member> targets = new CopyOnWriteArrayList<>(List.of(m1));
        Sale sale = new Sale(rig, plan, () -> targets, new Sale.Options(16, 0.10, checkout ? 0.10 : 0.0, 60, 60)).start();
        FaultRig.sleep(4_000);

        // scale out: 1 -> 2 -> 3, each joining under load
        long out2 = System.currentTimeMillis();
        Member m2 = rig.startMember(1);
        Duration join2 = m2.awaitReady(rig.http, 2, FaultRig.READY_TIMEOUT);
        targets.add(m2);
        rig.log("m2 joined and ready (cluster safe) in " + join2.toMillis() + " ms");
        long out3 = System.currentTimeMillis();
        Member m3 = rig.startMember(2);
        Duration join3 = m3.awaitReady(rig.http, 3, FaultRig.READY_TIMEOUT);
        targets.add(m3);
        rig.log("m3 joined and ready (cluster safe) in " + join3.toMillis() + " ms");
        FaultRig.sleep(5_000);

        // scale in: 3 -> 2 -> 1, each leaving gracefully
        long in2 = System.currentTimeMillis();
        Duration leave3 = leave(rig, targets, m3, List.of(m1, m2));
        long in1 = System.currentTimeMillis();
        Duration leave2 = leave(rig, targets, m2, List.of(m1));
        FaultRig.sleep(4_000);
        sale.stop();
        long end = System.currentTimeMillis();

        long[] phase = {
                acked(sale, sale.startedAt(), out2), acked(sale, out2, out3), acked(sale, out3, in2),
                acked(sale, in2, in1), acked(sale, in1, end)};
        rig.log("holds acknowledged by phase: 1 member " + phase[0] + ", while m2 joined " + phase[1]
                + ", while m3 joined and with 3 members " + phase[2] + ", while m3 left " + phase[3]
                + ", while m2 left and on m1 alone " + phase[4] + "; graceful stops took m3 " + leave3.toMillis()
                + " ms, m2 " + leave2.toMillis() + " ms; 503s " + sale.count(a -> a.status() == 503)
                + ", transport failures " + sale.count(a -> a.status() < 0));

        List<Sale.Attempt> errors = sale.serverErrors();
        assertTrue(errors.isEmpty(), "5xx other than 503: " + errors.stream().limit(10).toList());
        for (int i = 0; i < phase.length; i++) {
            assertTrue(phase[i] > 0, "no hold was acknowledged in phase " + (i + 1) + ": " + sale.summary());
        }
        new SaleAudit(rig, sale, plan)
                .awaitSettlements(Duration.ofSeconds(40))
                .checkReferee()
                .checkHoldsApi(List.of(m1))
                .checkGridAgrees(List.of(m1), Duration.ofSeconds(15))
                .assertClean();
        rig.log("PASSED in " + FaultRig.millis(t0) + " ms: " + sale.summary());
    }

    /** Takes {@code leaving} out of the load balancer, stops it with SIGTERM, waits until the rest are safe. */
    private static Duration leave(FaultRig rig, List<Member> targets, Member leaving, List<Member> rest) {
        targets.remove(leaving);
        FaultRig.sleep(500); // requests already sent to it finish
        Duration took = leaving.stop(Duration.ofSeconds(120));
        for (Member m : rest) {
            m.awaitReady(rig.http, rest.size(), Duration.ofSeconds(60));
        }
        rig.log(leaving.name + " left gracefully in " + took.toMillis() + " ms; " + rest.size() + " member(s) safe");
        return took;
    }

    private static long acked(Sale sale, long from, long to) {
        return sale.count(a -> a.kind() == Sale.Kind.HOLD && a.status() == 201 && a.end() >= from && a.end() < to);
    }
}
