package org.boxoffice.app.ops;

import org.boxoffice.app.TestApp;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The safety answer on real members: kept while nothing changes, asked afresh after a join until settled. */
class ClusterSafetyTest {

    @Test
    void aSafeAnswer_isKeptUntilTheMembershipChanges_andAskedAfreshWhileTheClusterSettles() throws Exception {
        try (TestApp first = TestApp.start()) {
            ClusterSafety safety = new ClusterSafety(first.app.hazelcast(), Duration.ofSeconds(30), Duration.ofMillis(500));
            assertTrue(safety.check().clusterSafe());
            safety.check();
            assertEquals(2, safety.asked(), "within the settling time every answer is asked");

            Thread.sleep(600);
            assertTrue(safety.check().clusterSafe());
            long asked = safety.asked();
            for (int i = 0; i < 20; i++) {
                assertTrue(safety.check().clusterSafe());
            }
            assertEquals(asked, safety.asked(), "a settled safe answer is kept: no call to the cluster");

            try (TestApp second = TestApp.joining(first)) {
                ClusterSafety.Verdict afterJoin = safety.check();
                assertEquals(asked + 1, safety.asked(), "a join makes the next answer a fresh one");
                assertEquals(2, afterJoin.members());
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (!safety.check().clusterSafe()) {
                    assertTrue(System.nanoTime() < deadline, "the two members never became safe");
                    Thread.sleep(100);
                }
                Thread.sleep(600);
                safety.check();
                long settled = safety.asked();
                safety.check();
                assertEquals(settled, safety.asked(), "kept again once settled");
            }
            safety.check();
            assertTrue(safety.asked() > 0);
        }
    }
}
