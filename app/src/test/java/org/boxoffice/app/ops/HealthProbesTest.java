package org.boxoffice.app.ops;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The readiness check runs on its own schedule, never because someone asked. */
class HealthProbesTest {

    private static HealthProbes.Check safe() {
        return new HealthProbes.Check("cluster-safe", true, Map.of("clusterSafe", true));
    }

    @Test
    void aSafetyCheckThatWaits_neverHoldsReadinessBack() throws InterruptedException {
        java.util.concurrent.CountDownLatch migrating = new java.util.concurrent.CountDownLatch(1);
        AtomicInteger readinessRuns = new AtomicInteger();
        try (HealthProbes probes = new HealthProbes("member", () -> true, () -> {
            readinessRuns.incrementAndGet();
            return new HealthProbes.Check("boxoffice", true, Map.of());
        }, () -> {
            try {
                migrating.await(); // as isClusterSafe() can while partitions move
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return safe();
        }, Duration.ofMillis(20))) {
            long deadline = System.currentTimeMillis() + 10_000;
            while (readinessRuns.get() < 5 && System.currentTimeMillis() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(readinessRuns.get() >= 5, "readiness went on while the safety check waited: " + readinessRuns);
            assertTrue(probes.ready().up());
            assertFalse(probes.safe().up(), "not safe until a safety check has answered");
            migrating.countDown();
            while (!probes.safe().up() && System.currentTimeMillis() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(probes.safe().up(), "safe once the check answered");
        }
    }

    @Test
    void readiness_isCheckedOnItsSchedule_andReadsAreServedFromMemory() {
        AtomicInteger runs = new AtomicInteger();
        AtomicBoolean db = new AtomicBoolean(true);
        // a period longer than the test: only the first check and explicit refreshes run
        try (HealthProbes probes = new HealthProbes("member", () -> true, () -> {
            runs.incrementAndGet();
            return new HealthProbes.Check("boxoffice", db.get(), Map.of("database", db.get()));
        }, HealthProbesTest::safe, Duration.ofHours(1))) {
            assertEquals(1, runs.get(), "checked once at start");
            for (int i = 0; i < 1_000; i++) {
                assertTrue(probes.ready().up());
            }
            assertEquals(1, runs.get(), "reads never run the check");

            db.set(false);
            assertTrue(probes.ready().up(), "until the next check, the last answer stands");
            probes.refresh();
            assertFalse(probes.ready().up());
            assertEquals(2, runs.get());
            assertEquals(2, probes.checks());
        }
    }

    @Test
    void aFailingCheck_isAnswerDown_notAnError() {
        try (HealthProbes probes = new HealthProbes("member", () -> true, () -> {
            throw new IllegalStateException("pool closed");
        }, HealthProbesTest::safe, Duration.ofHours(1))) {
            assertFalse(probes.ready().up());
            assertEquals("pool closed", probes.ready().data().get("error"));
        }
    }
}
