package org.boxoffice.bench.cluster;

import org.boxoffice.bench.probe.CpuMeter;
import org.boxoffice.bench.report.TargetCheck;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

class ClusterReportTest {

    /** A steady run's CPU per attempt (all of it, and the load's own without the idle CPU) and its idle cores. */
    private static ClusterReport.Steady steady(int members, double membersMicros, double pgMicros, double membersLoad,
                                               double pgLoad, double idleCores) {
        return steady(members, membersMicros, pgMicros, membersLoad, pgLoad, idleCores, 0);
    }

    /** As above, with {@code jitMicros} of the members' load's own CPU per attempt spent by their JIT compilers. */
    private static ClusterReport.Steady steady(int members, double membersMicros, double pgMicros, double membersLoad,
                                               double pgLoad, double idleCores, double jitMicros) {
        return new ClusterReport.Steady(members, 1, 1000, 300, 40, 200, 1.3, 70, Map.of(), 0, Map.of(),
                Map.of(ClusterReport.MEMBERS, membersMicros, ClusterReport.POSTGRESQL, pgMicros),
                Map.of(ClusterReport.MEMBERS, idleCores), Map.of(ClusterReport.MEMBERS, membersLoad,
                ClusterReport.POSTGRESQL, pgLoad), Map.of(), 0,
                Map.of(CpuMeter.JIT, jitMicros, "virtual-thread carriers (request handlers)", membersLoad - jitMicros), Map.of(), null);
    }

    /** A run of {@code seconds} seconds at 300 attempts a second, for the timeline only. */
    private static org.boxoffice.bench.load.RunResult runOfSeconds(int seconds) {
        List<org.boxoffice.bench.load.RunStats.TimelinePoint> timeline = new java.util.ArrayList<>();
        for (int t = 1; t <= seconds; t++) {
            timeline.add(new org.boxoffice.bench.load.RunStats.TimelinePoint(t, 300, 10, 5, 0, 60, 20, 70, 30, 0, 0));
        }
        org.boxoffice.bench.load.Latency none = new org.boxoffice.bench.load.Latency(0, 0, 0, 0, 0, 0, 0);
        return new org.boxoffice.bench.load.RunResult("s", "show", 100, 8, 100 * seconds, seconds, false,
                null, false, 300L * seconds, 10L * seconds, 10L * seconds, 20, 0, Map.of(), 0, 0, 0, 0, none, none, none, none,
                timeline, null, List.of(), java.util.Set.of(), null, List.of(), java.util.Set.of(), null);
    }

    private static ClusterReport.EventOutcome event(String kind, double ratio, long serverErrors, int fewestReady) {
        return new ClusterReport.EventOutcome(new ClusterReport.Event(kind, "member-1", 50, null, 30.0, null, 30.0, null),
                ratio * 98, ratio, serverErrors, serverErrors, 0, fewestReady, 3, ratio * 98, 196);
    }

    private static ClusterReport.Elastic elastic(List<ClusterReport.EventOutcome> events, long violations) {
        return new ClusterReport.Elastic(1000, 300, 40, Map.of(), 0, 98, events, List.of(), 0, Map.of(), Map.of(), violations);
    }

    @Test
    void theSteadyRuns_giveTheCpuRatioOfMembersAndPostgresql_andEachMembersIdleCost() {
        List<TargetCheck> t = new ClusterReport("c", Map.of(), List.of(steady(1, 567, 70, 448, 64, 0.04, 52),
                steady(3, 1408, 149, 840, 50, 0.171, 150)),
                null, null).targets();
        assertEquals(2, t.size());
        assertEquals("3 members' CPU per hold attempt vs one member's (members + PostgreSQL)", t.get(0).target());
        // without the JIT compilers: (840 + 50 - 150) / (448 + 64 - 52)
        assertEquals("2.44x (1,557 vs 637 us); without the idle CPU 1.74x; without it and the JIT compiler's 1.61x",
                t.get(0).measured());
        assertEquals(false, t.get(0).met());
        assertEquals("0.057 cores each (3 members), 0.040 (one)", t.get(1).measured());
        assertEquals(false, t.get(1).met());
    }

    @Test
    void eachKindOfChange_isJudgedByItsWorstEvent_andNoLossIsOneRowForAll() {
        List<TargetCheck> t = new ClusterReport("c", Map.of(), List.of(), elastic(List.of(event("join", 3.8, 0, 3),
                event("restart", 2.3, 0, 2), event("restart", 8.9, 0, 2), event("leave", 2.6, 0, 3)), 0), null).targets();
        assertEquals(List.of("join mid-sale: worst second's hold p99 vs the steady p99",
                "restart mid-sale: worst second's hold p99 vs the steady p99",
                "leave mid-sale: worst second's hold p99 vs the steady p99",
                "changes of size mid-sale (join, restart, leave): 5xx and lost connections, fewest members ready, invariant violations"),
                t.stream().map(TargetCheck::target).toList());
        assertEquals("2.3x, 8.9x (steady 98 ms; a steady stretch as long peaks at 2.0x, 2.0x)", t.get(1).measured());
        assertEquals(List.of(false, false, true, true), t.stream().map(TargetCheck::met).toList());

        List<TargetCheck> lost = new ClusterReport("c", Map.of(), List.of(), elastic(List.of(event("kill", 2.0, 3, 1)), 0), null)
                .targets();
        assertEquals("3, FEWER than N-1, 0", lost.get(1).measured());
        assertEquals(false, lost.get(1).met());
    }

    @Test
    void theScalingCurve_comparesItsLargestClusterWithOneMember_andJudgesOnlyThreeOrMore() {
        ClusterReport.CurvePoint one = new ClusterReport.CurvePoint(1, 0.4, 476.0, List.of(), Map.of());
        ClusterReport.CurvePoint two = new ClusterReport.CurvePoint(2, 0.4, 168.0, List.of(), Map.of());
        ClusterReport.CurvePoint three = new ClusterReport.CurvePoint(3, 0.4, 119.0, List.of(), Map.of());
        TargetCheck full = new ClusterReport("c", Map.of(), List.of(), null, List.of(one, two, three)).targets().getFirst();
        assertEquals("0.25x (476, 168, 119 attempts/s at 1..3 members, 0.40 cores each)", full.measured());
        assertEquals(false, full.met());
        assertNull(new ClusterReport("c", Map.of(), List.of(), null, List.of(one, two)).targets().getFirst().met(),
                "two members do not judge a target set for three");
    }

    @Test
    void aSecondWithoutAnyReadinessLook_keepsTheCountTheLastLooksGave_andASecondWithLooksCountsThem() {
        org.boxoffice.bench.load.RunResult run = runOfSeconds(4);
        long start = 1_000_000_000_000L;
        long second = 1_000_000_000L;
        List<MemberHealth.Sample> health = List.of(
                new MemberHealth.Sample(start + 100_000_000L, "member-1", true, 3),
                new MemberHealth.Sample(start + 100_000_000L, "member-2", true, 3),
                new MemberHealth.Sample(start + 100_000_000L, "member-3", true, 3),
                // second 2: the watching thread was held up and took no look at all
                new MemberHealth.Sample(start + 2 * second + 100_000_000L, "member-1", true, 3),
                new MemberHealth.Sample(start + 2 * second + 100_000_000L, "member-2", false, 3),
                new MemberHealth.Sample(start + 2 * second + 600_000_000L, "member-3", true, 3));
        // second 4: no look either, after a second that found one member not ready

        ClusterReport.Elastic elastic = ClusterReport.Elastic.of(run, Map.of(), Map.of(), List.of(), health, start, 0);

        List<Integer> ready = elastic.seconds().stream().map(ClusterReport.Second::membersReady).toList();
        List<Integer> watched = elastic.seconds().stream().map(ClusterReport.Second::membersWatched).toList();
        assertEquals(List.of(3, 3, 2, 2), ready);
        assertEquals(List.of(3, 3, 3, 3), watched);
    }

    /**
     * With members in CPU quotas, each second names the members their quota held back and in how many
     * of the second's periods; a second in which none was (or a run without quotas) shows nothing.
     */
    @Test
    void eachSecond_saysHowBusyTheMachineWasAndWhichMembersCompiled() {
        org.boxoffice.bench.load.RunResult run = runOfSeconds(2);
        Map<Integer, Map<String, Integer>> heldBack = Map.of(1, Map.of("member-1", 0), 2, Map.of("member-4", 10));
        Map<Integer, Double> machine = Map.of(1, 1.234, 2, 1.98);
        Map<Integer, Map<String, Double>> jit = Map.of(1, Map.of("member-1", 0.01), 2, Map.of("member-1", 0.02, "member-4", 0.312));

        ClusterReport.Elastic elastic = ClusterReport.Elastic.of(run, Map.of(), Map.of(), List.of(), List.of(), 0, 0,
                heldBack, machine, jit);

        assertEquals("", elastic.seconds().get(0).compilingMembers(), "under a twentieth of a core is not compiling");
        assertEquals("member-4 0.31", elastic.seconds().get(1).compilingMembers());
        String table = new ClusterReport("c", Map.of(), List.of(), elastic, null).render();
        assertTrue(table.contains("the machine's busy cores"), table);
        List<String> rows = table.lines().filter(l -> l.matches("\\s+[12]: .*")).toList();
        assertEquals(2, rows.size(), table);
        assertTrue(rows.get(0).endsWith("1.23"), rows.get(0));
        assertTrue(rows.get(1).endsWith("1.98  member-4 10  JIT member-4 0.31"), rows.get(1));
    }

    @Test
    void eachSecond_namesTheMembersTheirQuotaHeldBack() {
        org.boxoffice.bench.load.RunResult run = runOfSeconds(3);
        Map<Integer, Map<String, Integer>> heldBack = Map.of(
                1, Map.of("member-1", 0, "member-2", 0, "member-3", 0),
                2, Map.of("member-1", 2, "member-2", 7, "member-3", 0),
                3, Map.of("member-1", 0, "member-2", 0, "member-4", 9));

        ClusterReport.Elastic elastic = ClusterReport.Elastic.of(run, Map.of(), Map.of(), List.of(), List.of(), 0, 0, heldBack);

        assertEquals("", elastic.seconds().get(0).heldBackMembers());
        assertEquals("member-1 2, member-2 7", elastic.seconds().get(1).heldBackMembers());
        String table = new ClusterReport("c", Map.of(), List.of(), elastic, null).render();
        assertTrue(table.contains("members held back by their CPU quota (in how many of the second's periods)"), table);
        List<String> rows = table.lines().filter(l -> l.matches("\\s+[123]: .*")).toList();
        assertEquals(3, rows.size(), table);
        assertFalse(rows.get(0).contains("member-"), rows.get(0));
        assertTrue(rows.get(1).endsWith("member-1 2, member-2 7"), rows.get(1));
        assertTrue(rows.get(2).endsWith("member-4 9"), rows.get(2));

        assertFalse(table.contains("busy cores"), "nothing measured, no column: " + table);

        String withoutQuotas = new ClusterReport("c", Map.of(), List.of(),
                ClusterReport.Elastic.of(run, Map.of(), Map.of(), List.of(), List.of(), 0, 0), null).render();
        assertFalse(withoutQuotas.contains("held back"), withoutQuotas);
    }

    @Test
    void aMembersGroup_isNamedByTheMember() {
        assertEquals("member-4", ThrottleWatch.member("bench-3-ab12cd34-member-4", "bench-3-ab12cd34"));
    }

    @Test
    void aMemberNotLookedAtInASecond_countsAsItsLastLookSaid_andAnUnwatchedMemberLeavesTheCount() {
        org.boxoffice.bench.load.RunResult run = runOfSeconds(3);
        long start = 1_000_000_000_000L;
        long second = 1_000_000_000L;
        List<MemberHealth.Sample> health = List.of(
                new MemberHealth.Sample(start + 100_000_000L, "member-1", true, 3),
                new MemberHealth.Sample(start + 200_000_000L, "member-2", true, 3),
                new MemberHealth.Sample(start + 300_000_000L, "member-3", true, 3),
                // second 2: one slow answer held the watching thread up; only the joining member was looked at
                new MemberHealth.Sample(start + second + 900_000_000L, "member-4", false, 4),
                // second 3: member-3 is taken out of the Service; the others are looked at again
                new MemberHealth.Sample(start + 2 * second + 100_000_000L, "member-3", false, MemberHealth.Sample.UNWATCHED),
                new MemberHealth.Sample(start + 2 * second + 200_000_000L, "member-1", true, 4),
                new MemberHealth.Sample(start + 2 * second + 300_000_000L, "member-2", true, 4));

        ClusterReport.Elastic elastic = ClusterReport.Elastic.of(run, Map.of(), Map.of(), List.of(), health, start, 0);

        assertEquals(List.of(3, 3, 2), elastic.seconds().stream().map(ClusterReport.Second::membersReady).toList());
        assertEquals(List.of(3, 4, 3), elastic.seconds().stream().map(ClusterReport.Second::membersWatched).toList());
    }

    /**
     * A second whose answers include holds sent again after a lost connection: the event's worst second
     * is judged on all answers, and the answers to a first send are given beside it.
     */
    @Test
    void anEventsWorstSecond_isJudgedOnAllAnswers_andGivesTheAnswersToAFirstSendBesideIt() {
        List<org.boxoffice.bench.load.RunStats.TimelinePoint> timeline = new java.util.ArrayList<>();
        for (int t = 1; t <= 6; t++) {
            // second 4: the kill's resends take 700 ms; answers to a first send 60 ms
            timeline.add(new org.boxoffice.bench.load.RunStats.TimelinePoint(t, 300, 10, 5, t == 4 ? 7 : 0, 60, 5,
                    t == 4 ? 700 : 20, 30, 0, 0, t == 4 ? 60 : 20));
        }
        org.boxoffice.bench.load.Latency none = new org.boxoffice.bench.load.Latency(0, 0, 0, 0, 0, 0, 0);
        org.boxoffice.bench.load.RunResult run = new org.boxoffice.bench.load.RunResult("s", "show", 100, 8, 600, 6, false,
                null, false, 1800L, 60L, 60L, 20, 0, Map.of(), 0, 0, 0, 0, none, none, none, none,
                timeline, null, List.of(), java.util.Set.of(), null, List.of(), java.util.Set.of(), null);
        ClusterReport.Event kill = new ClusterReport.Event("kill", "member-1", 3, null, 1.0, 0.1, 1.0, null);

        ClusterReport.Elastic elastic = ClusterReport.Elastic.of(run, Map.of(), Map.of(), List.of(kill), List.of(), 0, 0);

        ClusterReport.EventOutcome out = elastic.events().getFirst();
        assertEquals(700, out.worstHoldP99Ms());
        assertEquals(60, out.worstFirstTryHoldP99Ms());
        assertEquals(35, out.p99Ratio(), 1e-9, "judged on every answer: 700 ms against the steady 20 ms");
        String text = new ClusterReport("c", Map.of(), List.of(), elastic, null).render();
        org.junit.jupiter.api.Assertions.assertTrue(text.contains("worst second's hold p99 700.0 ms = 35.0x steady (target <= 3x: MISSED),"
                + " of answers to a first send 60.0 ms"), text);
    }

    /**
     * A steady stretch has slow seconds of its own: beside an event's worst second the report gives
     * the worst second a steady stretch as long typically has, the steady seconds' quantile
     * length / (length + 1), so a reader sees how far the event stands out from the run's noise.
     */
    @Test
    void anEvent_isShownBesideTheWorstSecondOfASteadyStretchAsLong() {
        List<Double> steady = java.util.stream.IntStream.rangeClosed(1, 101).mapToObj(i -> (double) i).toList();
        assertEquals(51, ClusterReport.typicalWorst(steady, 1), 1e-9, "one second: the median");
        assertEquals(76, ClusterReport.typicalWorst(steady, 3), 1e-9, "three seconds: the 75th percentile");
        assertEquals(97, ClusterReport.typicalWorst(steady, 24), 1e-9, "24 seconds: the 96th percentile");
        assertEquals(0, ClusterReport.typicalWorst(List.of(), 5));

        List<org.boxoffice.bench.load.RunStats.TimelinePoint> timeline = new java.util.ArrayList<>();
        for (int t = 1; t <= 12; t++) {
            // the event's window is seconds 5 to 7 (it settles at 5, a second more), its worst 300 ms;
            // the steady seconds (the first two left out) are 3, 4 and 8 to 12: 30, 40, 60, 70, 80, 90, 100 ms
            double p99 = t == 5 ? 300 : t == 6 ? 40 : 10 * (t > 6 ? t - 2 : t);
            timeline.add(new org.boxoffice.bench.load.RunStats.TimelinePoint(t, 300, 10, 5, 0, 60, 5, p99, 30, 0, 0, p99));
        }
        org.boxoffice.bench.load.Latency none = new org.boxoffice.bench.load.Latency(0, 0, 0, 0, 0, 0, 0);
        org.boxoffice.bench.load.RunResult run = new org.boxoffice.bench.load.RunResult("s", "show", 100, 8, 1200, 12, false,
                null, false, 3600L, 120L, 120L, 20, 0, Map.of(), 0, 0, 0, 0, none, none, none, none,
                timeline, null, List.of(), java.util.Set.of(), null, List.of(), java.util.Set.of(), null);
        ClusterReport.Event leave = new ClusterReport.Event("leave", "member-1", 4, 0.0, 1.0, 0.1, 1.0, null);

        ClusterReport.Elastic elastic = ClusterReport.Elastic.of(run, Map.of(), Map.of(), List.of(leave), List.of(), 0, 0);

        ClusterReport.EventOutcome out = elastic.events().getFirst();
        assertEquals(300, out.worstHoldP99Ms());
        // three seconds long: the steady seconds' 75th percentile, between 80 and 90 ms
        assertEquals(85, out.steadyWorstHoldP99Ms(), 1e-9);
        String text = new ClusterReport("c", Map.of(), List.of(), elastic, null).render();
        org.junit.jupiter.api.Assertions.assertTrue(text.contains(String.format(java.util.Locale.ROOT,
                "a steady stretch as long peaks at %.1f ms", out.steadyWorstHoldP99Ms())), text);
        String check = new ClusterReport("c", Map.of(), List.of(), elastic, null).targets().stream()
                .filter(c -> c.target().startsWith("leave")).findFirst().orElseThrow().measured();
        org.junit.jupiter.api.Assertions.assertTrue(check.contains("a steady stretch as long peaks at"), check);
    }

    /**
     * The sale opens on a fresh show: a burst of winners until it sells out, slow seconds that no
     * event meets (the events come after it). The steady seconds start once the holds fall to a
     * tenth of their peak.
     */
    @Test
    void theOpeningsBurstOfWinners_isNotPartOfTheSteadySeconds() {
        List<org.boxoffice.bench.load.RunStats.TimelinePoint> timeline = new java.util.ArrayList<>();
        for (int t = 1; t <= 20; t++) {
            // seconds 1-6 sell the show (400 holds a second at the peak, p99 900 ms), then 5 holds a second at 20 ms
            double holds = t <= 6 ? (t == 3 ? 400 : 200) : 5;
            double p99 = t <= 6 ? 900 : 20;
            timeline.add(new org.boxoffice.bench.load.RunStats.TimelinePoint(t, 300, holds, 5, 0, 60, 5, p99, 30, 0, 0, p99));
        }
        org.boxoffice.bench.load.Latency none = new org.boxoffice.bench.load.Latency(0, 0, 0, 0, 0, 0, 0);
        org.boxoffice.bench.load.RunResult run = new org.boxoffice.bench.load.RunResult("s", "show", 100, 8, 6000, 20, false,
                null, false, 1200L, 60L, 60L, 20, 0, Map.of(), 0, 0, 0, 0, none, none, none, none,
                timeline, null, List.of(), java.util.Set.of(), null, List.of(), java.util.Set.of(), null);

        ClusterReport.Elastic elastic = ClusterReport.Elastic.of(run, Map.of(), Map.of(), List.of(), List.of(), 0, 0);

        assertEquals(6, ClusterReport.openingEnd(elastic.seconds()));
        assertEquals(20, elastic.steadyHoldP99Ms(), 1e-9, "the median of seconds 7 to 20, not of the opening's");
    }
}
