package org.boxoffice.bench.probe;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class HoldStagesTest {

    private static String exposition(double claims, double claimSeconds, double under5ms, double under50ms) {
        return """
                # TYPE boxoffice_hold_stage_seconds histogram
                boxoffice_hold_stage_seconds_bucket{scope="application",stage="claim",le="0.005",} %s
                boxoffice_hold_stage_seconds_bucket{scope="application",stage="claim",le="0.05",} %s
                boxoffice_hold_stage_seconds_bucket{scope="application",stage="claim",le="+Inf",} %s
                boxoffice_hold_stage_seconds_count{scope="application",stage="claim",} %s
                boxoffice_hold_stage_seconds_sum{scope="application",stage="claim",} %s
                boxoffice_hold_stage_seconds_max{scope="application",stage="claim",} 0.2
                boxoffice_hold_stage_seconds_count{scope="application",stage="token",} 0.0
                boxoffice_hold_stage_seconds_sum{scope="application",stage="token",} 0.0
                boxoffice_holds_total 3
                """.formatted(under5ms, under50ms, claims, claims, claimSeconds);
    }

    @Test
    void since_givesEachStagesCountMeanAndBucketOfItsNinetyNinthPercentile_overTheRunAndMembers() {
        HoldStages before = HoldStages.parse(exposition(100, 0.5, 100, 100));
        // two members: 1,000 more claims, 30 s more in all; of them 900 within 5 ms, 995 within 50 ms
        HoldStages after = HoldStages.parse(exposition(600, 15.5, 550, 597))
                .plus(HoldStages.parse(exposition(500, 15, 450, 498)));

        assertEquals("holds past the seat map, by stage: claim 1,000 x 30.0 ms mean, 99 % within 50 ms",
                after.since(before.plus(HoldStages.parse(exposition(0, 0, 0, 0)))));
    }

    @Test
    void since_saysWhenTheNinetyNinthPercentileIsBeyondTheLastBucket_andNothingWithoutHolds() {
        HoldStages before = HoldStages.parse(exposition(0, 0, 0, 0));

        assertEquals("holds past the seat map, by stage: claim 100 x 100.0 ms mean, 99 % within more than the last bucket",
                HoldStages.parse(exposition(100, 10, 50, 90)).since(before));
        assertEquals("", before.since(before));
        assertEquals("", HoldStages.NONE.since(HoldStages.NONE));
    }
    @Test
    void storesSince_givesTheRefereesStoresByBatchSize_inTheServicesOrder_andIgnoresHoldStages() {
        String stores = """
                # TYPE boxoffice_referee_store_seconds histogram
                boxoffice_referee_store_seconds_bucket{batch="17+",scope="application",le="0.01",} 40.0
                boxoffice_referee_store_seconds_bucket{batch="17+",scope="application",le="+Inf",} 50.0
                boxoffice_referee_store_seconds_count{batch="17+",scope="application",} 50.0
                boxoffice_referee_store_seconds_sum{batch="17+",scope="application",} 0.6
                boxoffice_referee_store_seconds_bucket{batch="1",scope="application",le="0.002",} 200.0
                boxoffice_referee_store_seconds_bucket{batch="1",scope="application",le="+Inf",} 200.0
                boxoffice_referee_store_seconds_count{batch="1",scope="application",} 200.0
                boxoffice_referee_store_seconds_sum{batch="1",scope="application",} 0.3
                boxoffice_referee_store_seconds_count{batch="2-4",scope="application",} 0.0
                boxoffice_referee_store_seconds_sum{batch="2-4",scope="application",} 0.0
                """;
        HoldStages none = HoldStages.storesByBatch("");

        assertEquals("stores from arrival to commit, by the transitions in their batch: of 1 200 x 1.5 ms mean, "
                + "99 % within 2 ms; of 17+ 50 x 12.0 ms mean, 99 % within more than the last bucket",
                HoldStages.storesByBatch(stores + exposition(100, 1, 100, 100)).storesSince(none));
        assertEquals("", HoldStages.storesByBatch(exposition(100, 1, 100, 100)).storesSince(none), "hold stages are not stores");
    }
}
