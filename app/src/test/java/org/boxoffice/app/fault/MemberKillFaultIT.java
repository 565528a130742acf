package org.boxoffice.app.fault;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.DistributedObject;
import com.hazelcast.core.HazelcastInstance;
import org.boxoffice.grid.GridMaps;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three members (quorum 2, one backup), a sale from 24 buyers on all three: the oldest member (the
 * cluster's master) is killed with SIGKILL mid-sale. The sale must go on on the other two, and
 * afterwards every hold and booking a buyer was told about must be in PostgreSQL, in the API and
 * in the grid's seat map, and no seat may be held or sold twice. Then the killed member comes back
 * and is killed again in the middle of its start-up rehearsal, which must leave nothing behind.
 */
@Tag("fault")
class MemberKillFaultIT {

    @Test
    void sigkillOfAMemberMidSale_losesNothing_andSellsNothingTwice() {
        FaultRig.run("member-kill", 3, 2, this::run);
    }

    private void run(FaultRig rig) {
        long t0 = System.nanoTime();
        FaultRig.ThreeMemberSale started = rig.threeMemberSale("fault-kill");
        List<Member> members = started.members();
        Member m1 = members.get(0);
        Member m2 = members.get(1);
        Member m3 = members.get(2);
        FaultRig.ShowPlan plan = started.plan();
        boolean checkout = started.checkout();
        List<Member> targets = started.targets();
        Sale sale = started.sale();

        Member victim = m1;
        List<Member> survivors = List.of(m2, m3);
        long killAt = System.currentTimeMillis();
        victim.kill();
        rig.log("SIGKILL " + victim + " (the master) at sale +" + (killAt - sale.startedAt()) + " ms");
        FaultRig.sleep(1_000);
        targets.remove(victim); // the load balancer notices a second later
        long safeAfter = -1;
        long deadline = killAt + 20_000;
        while (System.currentTimeMillis() < deadline) {
            if (safeAfter < 0 && survivors.stream().allMatch(m -> {
                Http.Reply r = m.readiness(rig.http);
                return r != null && r.status() == 200 && m.members(rig.http) == 2;
            })) {
                safeAfter = System.currentTimeMillis() - killAt;
                rig.log("survivors ready again (2 members, cluster safe) " + safeAfter + " ms after the kill");
            }
            FaultRig.sleep(250);
        }
        sale.stop();
        for (Member m : survivors) {
            m.awaitReady(rig.http, 2, Duration.ofSeconds(60));
        }

        // figures
        Figures f = Figures.around(sale, killAt);
        rig.log("before the kill: " + f.before() + " holds in 5 s; first hold acknowledged after the kill: "
                + f.firstAckAfter() + " ms (from a request sent after it); longest gap between acknowledged holds "
                + "around the kill: " + f.longestGap() + " ms; back to half the earlier rate after " + f.recovered()
                + " ms; slowest hold in flight at the kill: " + f.slowestAcross() + " ms; transport failures "
                + sale.count(a -> a.status() < 0) + "; survivors cluster-safe after " + safeAfter + " ms");
        if (checkout) {
            rig.log("bookings acknowledged: " + sale.acks().stream().filter(a -> a.state == Sale.State.BOOKED).count());
        } else {
            rig.log("checkout is not available in this build: holds only");
        }

        List<Sale.Attempt> errors = sale.serverErrors();
        assertTrue(errors.isEmpty(), "5xx other than 503: " + errors.stream().limit(10).toList() + rig.diagnostics());
        assertTrue(f.before() > 0, "no hold was acknowledged before the kill: " + sale.summary() + rig.diagnostics());
        assertTrue(f.firstAckAfter() >= 0 && f.firstAckAfter() < 20_000,
                "the sale did not go on after the kill: " + sale.summary() + rig.diagnostics());

        SaleAudit.everything(rig, sale, plan, survivors);

        killedWhileRehearsing_leavesNothingBehind(rig, m2, m3);
        rig.log("PASSED in " + FaultRig.millis(t0) + " ms: " + sale.summary());
    }

    /**
     * The killed member comes back, as a kubelet restarts it, with a rehearsal long enough to be
     * killed in the middle of it. Its rehearsal runs on a private stage in its own JVM, so nothing of
     * it may be found afterwards: no rehearsal object in the cluster, no rehearsal show in PostgreSQL.
     */
    private static void killedWhileRehearsing_leavesNothingBehind(FaultRig rig, Member m2, Member m3) {
        rig.memberSetup((index, env, jvm) -> env.put("BOXOFFICE_REHEARSAL_SECONDS", "60"));
        Member again = rig.startMember(0);
        long deadline = System.currentTimeMillis() + 60_000;
        while (m2.members(rig.http) != 3 && System.currentTimeMillis() < deadline) {
            FaultRig.sleep(250);
        }
        assertEquals(3, m2.members(rig.http), "the restarted member did not join" + rig.diagnostics());
        FaultRig.sleep(5_000); // its rehearsal is under way: private shows, holds, seat maps
        Http.Reply ready = again.readiness(rig.http);
        assertTrue(ready == null || ready.status() != 200, "a rehearsing member answered ready" + rig.diagnostics());
        again.kill();
        rig.log("SIGKILL " + again + " 5 s into its rehearsal");
        m2.awaitReady(rig.http, 2, Duration.ofSeconds(60));
        m3.awaitReady(rig.http, 2, Duration.ofSeconds(60));

        ClientConfig config = new ClientConfig().setClusterName(rig.cluster);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.getNetworkConfig().addAddress("127.0.0.1:" + m2.gridPort, "127.0.0.1:" + m3.gridPort);
        HazelcastInstance client = HazelcastClient.newHazelcastClient(config);
        try {
            List<String> left = client.getDistributedObjects().stream().map(DistributedObject::getName)
                    .filter(name -> name.startsWith(GridMaps.REHEARSAL_PREFIX) || name.contains("rehearsal")).toList();
            assertEquals(List.of(), left, "rehearsal objects in the cluster after a member died rehearsing");
        } finally {
            client.shutdown();
        }
        assertEquals(0L, rig.count("SELECT count(*) FROM shows WHERE show_id LIKE '~rehearsal%'"),
                "a rehearsal show reached PostgreSQL");
        assertEquals(0L, rig.count("SELECT count(*) FROM holds WHERE show_id LIKE '~rehearsal%'"),
                "a rehearsal hold reached PostgreSQL");
        rig.log("a member killed while rehearsing left nothing in the cluster or PostgreSQL");
    }
}
