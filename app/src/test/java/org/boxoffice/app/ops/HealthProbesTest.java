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

    @Test
    void readiness_isCheckedOnItsSchedule_andReadsAreServedFromMemory() {
        AtomicInteger runs = new AtomicInteger();
        AtomicBoolean db = new AtomicBoolean(true);
        // a period longer than the test: only the first check and explicit refreshes run
        try (HealthProbes probes = new HealthProbes("member", () -> true, () -> {
            runs.incrementAndGet();
            return new HealthProbes.Check("boxoffice", db.get(), Map.of("database", db.get()));
        }, Duration.ofHours(1))) {
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
        }, Duration.ofHours(1))) {
            assertFalse(probes.ready().up());
            assertEquals("pool closed", probes.ready().data().get("error"));
        }
    }
}
