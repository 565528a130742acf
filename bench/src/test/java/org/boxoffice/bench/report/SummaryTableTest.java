package org.boxoffice.bench.report;

import org.boxoffice.bench.check.RunChecker;
import org.boxoffice.bench.load.Checkouts;
import org.boxoffice.bench.load.Latency;
import org.boxoffice.bench.load.RunResult;
import org.boxoffice.bench.load.RunStats;
import org.boxoffice.bench.load.Sweep;
import org.boxoffice.bench.probe.CpuMeter;
import org.boxoffice.bench.probe.ExpiryCheck;
import org.boxoffice.bench.probe.HttpCeiling;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The summary table of a fixed stampede report, compared with the text the table printed for it when this test was written. */
class SummaryTableTest {

    private static final Latency HOLDS = new Latency(10_000, 2.5, 8.0, 20.0, 45.0, 60.0, 3.1);
    private static final Latency READS = new Latency(1_000, 1.5, 3.0, 6.0, 9.0, 12.0, 1.9);

    @Test
    void render_printsEverySectionOfAStampedeReport_asBefore() throws IOException {
        assertEquals(expected(), SummaryTable.render(report()));
    }

    @Test
    void render_printsAClosedLoopReportWithoutBaselines_asBefore() throws IOException {
        BenchReport closedLoop = new BenchReport(Instant.parse("2026-01-02T03:04:05Z"), Map.of("summary", "a machine"),
                "./boxoffice bench", Map.of("summary", "a sale"), List.of(new SystemOutcome(run("boxoffice", null, null, null),
                null, null, null, null, null, null, null, null, null)), null, null, null, List.of(), List.of());
        assertEquals(resource("summary-closed-loop.txt"), SummaryTable.render(closedLoop));
    }

    private static BenchReport report() {
        RunResult.Fairness fairness = new RunResult.Fairness(9_000, 8_500, 20_000, 11_000, 3, 40, 0, Set.of());
        RunResult.OpenLoop open = new RunResult.OpenLoop(3_000, 15_000, 2_950, 5, 12, 0, 7, READS, 16_000, 1.2, 0, fairness, 0);
        RunResult box = run("boxoffice", open, new RunResult.RoomStats(9_000, 8_500, 30_000, false),
                new Checkouts.Summary(2_000, 2_100, 1_900, 20, 5, 60, 70, 10, 15, Map.of("timeout", 15L), 5_000, HOLDS));
        RunResult.OpenLoop baselineOpen = new RunResult.OpenLoop(3_000, 15_000, 1_200, 5, 900, 300, 400, READS, 6_000, 0.8, 2, null, 0);
        RunResult pg = run("pg-conditional", baselineOpen, null, null);
        Map<String, Double> cpu = new LinkedHashMap<>();
        cpu.put("load generator", 2.0);
        cpu.put("server", 3.5);
        cpu.put("postgresql", 1.25);
        cpu.put(CpuMeter.MACHINE, 7.5);
        RunChecker.Finding none = new RunChecker.Finding(0, List.of());
        RunChecker.Report clean = new RunChecker.Report(5_000, 100, 4_900, none, none, none, none, none, 0);
        RunChecker.Report broken = new RunChecker.Report(5_000, 100, 4_900, new RunChecker.Finding(2, List.of("A-1-1", "A-1-2")),
                none, none, none, none, 3);
        Sweep.Result sweep = new Sweep.Result(250, List.of(new Sweep.Step(2_000, 1_990, 3, 40, 5, 0, true),
                new Sweep.Step(4_000, 3_100, 30, 400, 50, 20, false)), 2_000.0);
        HttpCeiling.Result refusals = new HttpCeiling.Result("POST /holds", 64, 3, 9_000, READS, 27_000, 4,
                Map.of("server", 1.5, "postgresql", 0.3, "load generator", 1.0));
        Map<String, Double> threads = new LinkedHashMap<>();
        threads.put("helidon", 2.1);
        threads.put("jit", 0.4);
        SystemOutcome boxOutcome = new SystemOutcome(box, clean, null, cpu, threads, 0, null, sweep, null, refusals);
        SystemOutcome pgOutcome = new SystemOutcome(pg, broken, null, Map.of("load generator", 1.0, "postgresql", 4.0), Map.of(),
                120, null, null, null, null);
        HttpCeiling.Result ceiling = new HttpCeiling.Result("/health", 64, 3, 40_000, READS, 120_000, 0,
                Map.of("server", 1.2, "load generator", 0.9, CpuMeter.MACHINE, 2.4));
        ExpiryCheck.Result expiry = new ExpiryCheck.Result("show-x", 5, 5, List.of(120L, 340L), true, 340);
        List<TargetCheck> targets = List.of(new TargetCheck("hold p99", "< 250 ms", "20 ms", true),
                new TargetCheck("refusal cost", "< 50 us", "60 us", false), new TargetCheck("idle member", "< 5 %", "?", null));
        return new BenchReport(Instant.parse("2026-01-02T03:04:05Z"), Map.of("summary", "2 cores, 8 GiB"), "./boxoffice bench --stampede",
                Map.of("summary", "5,000 seats"), List.of(boxOutcome, pgOutcome), ceiling, expiry, null, targets,
                List.of("first note", "second note"));
    }

    private static RunResult run(String system, RunResult.OpenLoop open, RunResult.RoomStats room, Checkouts.Summary checkouts) {
        return new RunResult(system, "show-" + system, 5_000, 64, 20_000, 5, true, 1.8, false, 15_000, 2_000, 5_000, 12_500, 300,
                Map.of(), 40, 80, 1_000, 700, HOLDS, HOLDS, READS, READS,
                List.of(new RunStats.TimelinePoint(1, 3_000, 1_000, 2_000, 0, 200, 2, 20, 6, 0, 0)), room, List.of(), Set.of(),
                checkouts, List.of(), Set.of(), open);
    }

    private static String expected() throws IOException {
        return resource("summary-stampede.txt");
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = SummaryTableTest.class.getResourceAsStream(name)) {
            return in == null ? "(missing " + name + ")" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
