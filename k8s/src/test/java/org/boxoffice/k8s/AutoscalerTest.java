package org.boxoffice.k8s;

import io.fabric8.kubernetes.api.model.autoscaling.v2.HPAScalingPolicy;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HPAScalingRules;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerSpec;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The prod overlay's HorizontalPodAutoscaler: it scales the member StatefulSet on CPU, and no
 * faster than partitions can migrate, within what the quorum, the disruption budget and the
 * graceful shutdown allow.
 */
class AutoscalerTest {

    private final Manifests prod = Kustomize.overlay("prod");

    @Test
    void prod_scalesTheMemberStatefulSet_onCpu() {
        HorizontalPodAutoscalerSpec spec = autoscaler().getSpec();
        assertAll(
                () -> assertEquals("apps/v1", spec.getScaleTargetRef().getApiVersion()),
                () -> assertEquals("StatefulSet", spec.getScaleTargetRef().getKind()),
                () -> assertEquals(Manifests.MEMBERS, spec.getScaleTargetRef().getName()),
                () -> {
                    List<MetricSpec> cpu = spec.getMetrics().stream()
                            .filter(m -> "Resource".equals(m.getType()) && "cpu".equals(m.getResource().getName()))
                            .toList();
                    assertEquals(1, cpu.size(), "one CPU metric: " + spec.getMetrics());
                    var target = cpu.getFirst().getResource().getTarget();
                    assertEquals("Utilization", target.getType(), "utilization of the request");
                    int percent = target.getAverageUtilization();
                    assertTrue(percent >= 40 && percent <= 80, "a CPU target of " + percent + " % of the request");
                },
                // utilization is measured against the request: without one the HPA cannot act
                () -> assertNotNull(prod.memberContainer().getResources().getRequests().get("cpu")));
    }

    @Test
    void floor_isTheOverlaysMemberCount_whoseMajorityIsTheQuorum_andSurvivesTheLossOfOneMember() {
        HorizontalPodAutoscalerSpec spec = autoscaler().getSpec();
        int replicas = prod.members().getSpec().getReplicas();
        int quorum = Integer.parseInt(prod.memberConfig("BOXOFFICE_GRID_QUORUM"));
        assertAll(
                // kubectl apply sets replicas: at the floor it cannot shrink a scaled-out cluster
                // below what the autoscaler would choose anyway
                () -> assertEquals(replicas, spec.getMinReplicas(), "minReplicas vs the StatefulSet's replicas"),
                () -> assertTrue(2 * quorum > spec.getMinReplicas(), "quorum " + quorum + " is no majority of the floor"),
                () -> assertTrue(spec.getMinReplicas() - 1 >= quorum,
                        "at the floor, losing one member would stop seat writes (quorum " + quorum + ")"),
                () -> assertTrue(spec.getMaxReplicas() > spec.getMinReplicas(), "nothing to scale"));
    }

    @Test
    void scaleDown_removesOneMemberAtATime_slowerThanAMemberHandsItsPartitionsOver() {
        HPAScalingRules down = autoscaler().getSpec().getBehavior().getScaleDown();
        assertNotNull(down, "the default scale-down may remove half the members per 15 s");
        long grace = prod.memberPod().getTerminationGracePeriodSeconds();
        assertAll(
                () -> assertOneMemberPerPeriodOfAtLeast(down, grace, "scale-down"),
                () -> assertTrue(down.getStabilizationWindowSeconds() != null && down.getStabilizationWindowSeconds() >= 600,
                        "scale-down stabilization " + down.getStabilizationWindowSeconds() + " s: a sale comes in waves"),
                // the disruption budget lets one member go at a time as well; the two must agree
                () -> assertEquals(1, prod.all(io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget.class)
                        .getFirst().getSpec().getMaxUnavailable().getIntVal()));
    }

    @Test
    void scaleUp_addsOneMemberAtATime_andWaitsForItsMigration() {
        HPAScalingRules up = autoscaler().getSpec().getBehavior().getScaleUp();
        assertNotNull(up, "the default scale-up may double the members per 15 s");
        assertOneMemberPerPeriodOfAtLeast(up, 60, "scale-up");
    }

    @Test
    void dev_hasNoAutoscaler() {
        assertEquals(List.of(), Kustomize.overlay("dev").all(HorizontalPodAutoscaler.class).stream()
                .map(Manifests::describe).toList());
    }

    private HorizontalPodAutoscaler autoscaler() {
        List<HorizontalPodAutoscaler> all = prod.all(HorizontalPodAutoscaler.class);
        assertEquals(1, all.size(), "autoscalers in prod");
        return all.getFirst();
    }

    private static void assertOneMemberPerPeriodOfAtLeast(HPAScalingRules rules, long seconds, String what) {
        List<HPAScalingPolicy> policies = rules.getPolicies();
        assertTrue(policies != null && !policies.isEmpty(), what + " has no policies");
        for (HPAScalingPolicy policy : policies) {
            assertEquals("Pods", policy.getType(), what + ": count members, not percent: " + policy);
            assertEquals(1, policy.getValue(), what + ": one member per step: " + policy);
            assertTrue(policy.getPeriodSeconds() >= seconds,
                    what + " every " + policy.getPeriodSeconds() + " s, less than " + seconds + " s");
        }
        // with several policies "Max" (the default) would pick the fastest
        assertTrue(policies.size() == 1 || "Min".equals(rules.getSelectPolicy()), what + " selectPolicy");
    }
}
