package org.boxoffice.app.ops;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The batch-size classes a store's time is told by: every size in exactly one, bounds included. */
class RefereeMetricsTest {

    @Test
    void batchClass_putsEverySizeInTheClassItsLabelNames() {
        int[][] sizeAndClass = {{1, 0}, {2, 1}, {4, 1}, {5, 2}, {16, 2}, {17, 3}, {48, 3}, {200, 3}};
        for (int[] sc : sizeAndClass) {
            assertEquals(sc[1], RefereeMetrics.batchClass(sc[0]), "batch of " + sc[0]);
        }
        assertEquals(java.util.List.of("1", "2-4", "5-16", "17+"), RefereeMetrics.BATCH_CLASSES);
    }
}
