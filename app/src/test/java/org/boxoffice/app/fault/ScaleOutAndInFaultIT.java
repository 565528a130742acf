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
 * the next one leaves only once the cluster is safe again ({@code /observe/health/safe}), as an
 * operator pacing a scale-down does. Every member in the load balancer's list must answer ready
 * at every poll (each 250 ms, as endpoints follow readiness) while partitions migrate: a join or a
 * leave never takes the serving members out of the list.
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
        ReadinessWatch watch = new ReadinessWatch(rig, targets).start();
        Sale sale = new Sale(rig, plan, () -> targets, new Sale.Options(16, 0.10, checkout ? 0.10 : 0.0, 60, 60)).start();
        FaultRig.sleep(4_000);

        // scale out: 1 -> 2 -> 3, each joining under load
        long out2 = System.currentTimeMillis();
        Member m2 = rig.startMember(1);
        // each newcomer is listed as soon as it answers ready, as endpoints follow readiness: its
        // partitions may still be arriving; the next step waits for a safe cluster
        Duration join2 = m2.awaitServing(rig.http, 2, FaultRig.READY_TIMEOUT);
        targets.add(m2);
        m2.awaitSafe(rig.http, Duration.ofSeconds(60));
        rig.log("m2 joined and ready in " + join2.toMillis() + " ms, cluster safe after "
                + (System.currentTimeMillis() - out2) + " ms");
        long out3 = System.currentTimeMillis();
        Member m3 = rig.startMember(2);
        Duration join3 = m3.awaitServing(rig.http, 3, FaultRig.READY_TIMEOUT);
        targets.add(m3);
        m3.awaitSafe(rig.http, Duration.ofSeconds(60));
        rig.log("m3 joined and ready in " + join3.toMillis() + " ms, cluster safe after "
                + (System.currentTimeMillis() - out3) + " ms");
        FaultRig.sleep(5_000);

        // scale in: 3 -> 2 -> 1, each leaving gracefully
        long in2 = System.currentTimeMillis();
        Duration leave3 = leave(rig, targets, m3, List.of(m1, m2));
        long in1 = System.currentTimeMillis();
        Duration leave2 = leave(rig, targets, m2, List.of(m1));
        FaultRig.sleep(4_000);
        sale.stop();
        watch.stop();
        long end = System.currentTimeMillis();

        long[] phase = {
                acked(sale, sale.startedAt(), out2), acked(sale, out2, out3), acked(sale, out3, in2),
                acked(sale, in2, in1), acked(sale, in1, end)};
        rig.log("holds acknowledged by phase: 1 member " + phase[0] + ", while m2 joined " + phase[1]
                + ", while m3 joined and with 3 members " + phase[2] + ", while m3 left " + phase[3]
                + ", while m2 left and on m1 alone " + phase[4] + "; graceful stops took m3 " + leave3.toMillis()
                + " ms, m2 " + leave2.toMillis() + " ms; 503s " + sale.count(a -> a.status() == 503)
                + ", transport failures " + sale.count(a -> a.status() < 0));

        rig.log("readiness of the listed members: " + watch.summary());
        assertTrue(watch.notReady().isEmpty(), "a listed member was not ready while partitions moved: "
                + watch.notReady().stream().limit(10).toList());
        assertTrue(watch.polls() > 40, "readiness was polled only " + watch.polls() + " times");
        List<Sale.Attempt> errors = sale.serverErrors();
        assertTrue(errors.isEmpty(), "5xx other than 503: " + errors.stream().limit(10).toList());
        for (int i = 0; i < phase.length; i++) {
            assertTrue(phase[i] > 0, "no hold was acknowledged in phase " + (i + 1) + ": " + sale.summary());
        }
        new SaleAudit(rig, sale, plan)
                .awaitSettlements(Duration.ofSeconds(40))
                .checkReferee()
                .checkHoldsApi(List.of(m1))
                .checkGridAgrees(List.of(m1), SaleAudit.SEAT_MAP_CONVERGES)
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
        rest.get(0).awaitSafe(rig.http, Duration.ofSeconds(60));
        rig.log(leaving.name + " left gracefully in " + took.toMillis() + " ms; " + rest.size() + " member(s) safe");
        return took;
    }

    /**
     * Polls the readiness of every member in the load balancer's list every 250 ms, as kube-proxy
     * follows endpoints, and keeps each answer that was not 200 from a member still listed after
     * the poll (a member taken out of the list before its SIGTERM may go down: it is no longer served).
     */
    static final class ReadinessWatch {
        private final FaultRig rig;
        private final List<Member> targets;
        private final List<String> notReady = new CopyOnWriteArrayList<>();
        private final java.util.concurrent.atomic.AtomicInteger polls = new java.util.concurrent.atomic.AtomicInteger();
        private volatile boolean stopped;
        private Thread thread;

        ReadinessWatch(FaultRig rig, List<Member> targets) {
            this.rig = rig;
            this.targets = targets;
        }

        ReadinessWatch start() {
            long t0 = System.currentTimeMillis();
            thread = Thread.ofPlatform().daemon().name("readiness-watch").start(() -> {
                while (!stopped) {
                    for (Member m : List.copyOf(targets)) {
                        Http.Reply r = m.readiness(rig.http);
                        if ((r == null || r.status() != 200) && targets.contains(m) && !stopped) {
                            notReady.add(m.name + " at " + (System.currentTimeMillis() - t0) + " ms: "
                                    + (r == null ? "no answer" : r.status() + " " + r.body()));
                        }
                    }
                    polls.incrementAndGet();
                    FaultRig.sleep(250);
                }
            });
            return this;
        }

        void stop() {
            stopped = true;
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        List<String> notReady() {
            return notReady;
        }

        int polls() {
            return polls.get();
        }

        String summary() {
            return polls.get() + " polls, " + notReady.size() + " answers other than 200";
        }
    }

    private static long acked(Sale sale, long from, long to) {
        return sale.count(a -> a.kind() == Sale.Kind.HOLD && a.status() == 201 && a.end() >= from && a.end() < to);
    }
}
