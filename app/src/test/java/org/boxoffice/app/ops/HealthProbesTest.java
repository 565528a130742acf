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

    @Test
    void aMemberThatWasStopped_isNotReadyAtOnce_andForTheHoldDown_thenAsItsChecksSay() throws InterruptedException {
        try (HealthProbes probes = new HealthProbes("member", () -> true,
                () -> new HealthProbes.Check("boxoffice", true, Map.of("members", 3)), HealthProbesTest::safe,
                Duration.ofHours(1), Duration.ofMillis(300))) {
            assertTrue(probes.ready().up());
            probes.wokeUp(Duration.ofSeconds(17));
            HealthProbes.Check woken = probes.ready(); // the wake-up's answer, or already its check's: both say so
            assertFalse(woken.up(), "the answer from before the stop is void at once");
            assertEquals(17_000L, woken.data().get("resumedAfterStopMillis"));
            long deadline = System.currentTimeMillis() + 10_000;
            while (probes.checks() < 2 && System.currentTimeMillis() < deadline) {
                Thread.sleep(5); // the check the wake-up asked for
            }
            probes.refresh();
            assertFalse(probes.ready().up(), "a check within the hold-down does not make it ready");
            assertEquals(true, probes.ready().data().get("heldDownAfterStop"));
            assertEquals(17_000L, probes.ready().data().get("resumedAfterStopMillis"));
            Thread.sleep(400);
            probes.refresh();
            assertTrue(probes.ready().up(), "after the hold-down its checks tell again");
        }
    }

    @Test
    void aRequestServedWhileAWakeUpIsNoticed_isAnsweredDown_evenWithChecksRacingIt() throws InterruptedException {
        // checks every millisecond, each saying "ready": whichever lands around a wake-up, no request
        // served once the wake-up is noticed may be answered 200 within the hold-down (in a member the
        // ticker notices it, and until then a request sees the lost time for itself: readyNow)
        try (HealthProbes probes = new HealthProbes("member", () -> true,
                () -> new HealthProbes.Check("boxoffice", true, Map.of("members", 3)), HealthProbesTest::safe,
                Duration.ofMillis(1), Duration.ofSeconds(30))) {
            assertEquals(200, probes.readyStatus());
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger ready = new AtomicInteger();
            AtomicBoolean woken = new AtomicBoolean();
            Thread asker = new Thread(() -> {
                while (!stop.get()) {
                    boolean after = woken.get();
                    if (probes.readyStatus() == 200 && after) {
                        ready.incrementAndGet();
                    }
                }
            });
            asker.start();
            Thread.sleep(20);
            probes.wokeUp(Duration.ofSeconds(5));
            woken.set(true); // once noticed: a request read after this must see the hold-down
            Thread.sleep(200); // two hundred checks, all up, within the hold-down
            stop.set(true);
            asker.join(10_000);
            assertEquals(0, ready.get(), "requests answered ready within the hold-down");
            assertEquals(503, probes.readyStatus());
        }
    }

    @Test
    void aCheckBegunBeforeTheStop_isDropped_evenWhenItEndsAfterTheHoldDown() throws Exception {
        java.util.concurrent.CountDownLatch begun = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        AtomicBoolean before = new AtomicBoolean(false);
        try (HealthProbes probes = new HealthProbes("member", () -> true, () -> {
            runs.incrementAndGet();
            if (before.getAndSet(false)) {
                begun.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return new HealthProbes.Check("boxoffice", true, Map.of("members", 3)); // the cluster as it was
            }
            return new HealthProbes.Check("boxoffice", false, Map.of("members", 1)); // as it is after the stop
        }, HealthProbesTest::safe, Duration.ofHours(1), Duration.ZERO)) {
            before.set(true);
            Thread slow = new Thread(probes::refresh);
            slow.start();
            begun.await();
            int runsBefore = runs.get();
            probes.wokeUp(Duration.ofSeconds(20));
            long deadline = System.currentTimeMillis() + 10_000;
            while (runs.get() == runsBefore && System.currentTimeMillis() < deadline) {
                Thread.sleep(5);
            }
            Thread.sleep(50);
            release.countDown();
            slow.join(10_000);
            assertFalse(probes.ready().up(), "a check from before the stop must not speak for the member after it");
            assertEquals(1, probes.ready().data().get("members"));
        }
    }
}
