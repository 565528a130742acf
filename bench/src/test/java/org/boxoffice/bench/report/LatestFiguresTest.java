package org.boxoffice.bench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatestFiguresTest {

    private static final String DOC = """
            # Benchmark

            ## Latest figures

            BEGIN
            | scenario | target | goal | latest | verdict | run |
            |---|---|---|---|---|---|
            | stampede | CPU per hold attempt (gen + server + pg) vs best baseline | <= 0.25x | 0.30x (old) | **missed** | `--stampede --sweep`, 2026-12-01 |
            | stampede | hold p99 / seat-map p99 at half the highest rate | < 50 ms / < 20 ms | 70 ms / 28 ms | **missed** | `--stampede --sweep`, 2026-12-01 |
            | reads | every read endpoint vs the empty handler | >= 50 % | 27-107 % | met but for two | `--reads`, 2026-12-01 |
            END

            ## What each scenario does
            """.replace("BEGIN", LatestFigures.BEGIN).replace("END", LatestFigures.END);

    private static final String RESULTS = """
            {"command": "./boxoffice bench --stampede --sweep --warmup 30",
             "targets": [
               {"target": "CPU per hold attempt (gen + server + pg) vs best baseline", "goal": "<= 0.25x",
                "measured": "0.12x (173 us vs pg-conditional 1,419 us)", "met": true},
               {"target": "highest sustained attempts/s vs best baseline", "goal": ">= 5x",
                "measured": "5.66x (5,657/s vs pg-conditional 1,000/s)", "met": true},
               {"target": "fresh member at 80 % of its steady rate", "goal": "<= 10 s",
                "measured": "see --warm-start runs", "met": null}
             ]}
            """;

    @Test
    void aRunReplacesItsScenariosRowsOfTheSameTarget_addsItsNewOnesAfterThem_andLeavesTheRestAlone() throws Exception {
        List<LatestFigures.Row> rows = LatestFigures.rows(new ObjectMapper().readTree(RESULTS), LocalDate.of(2026, 12, 5));
        String out = LatestFigures.rewrite(DOC, rows);

        List<String> table = out.lines().filter(l -> l.startsWith("| ") && !l.startsWith("| scenario")).toList();
        assertEquals(List.of(
                "| stampede | CPU per hold attempt (gen + server + pg) vs best baseline | <= 0.25x | 0.12x (173 us vs pg-conditional 1,419 us) | met | `--stampede --sweep --warmup 30`, 2026-12-05 |",
                "| stampede | hold p99 / seat-map p99 at half the highest rate | < 50 ms / < 20 ms | 70 ms / 28 ms | **missed** | `--stampede --sweep`, 2026-12-01 |",
                "| stampede | highest sustained attempts/s vs best baseline | >= 5x | 5.66x (5,657/s vs pg-conditional 1,000/s) | met | `--stampede --sweep --warmup 30`, 2026-12-05 |",
                "| stampede | fresh member at 80 % of its steady rate | <= 10 s | see --warm-start runs | not measured | `--stampede --sweep --warmup 30`, 2026-12-05 |",
                "| reads | every read endpoint vs the empty handler | >= 50 % | 27-107 % | met but for two | `--reads`, 2026-12-01 |"),
                table);
        assertTrue(out.startsWith("# Benchmark") && out.endsWith("## What each scenario does\n"), "the rest of the document is kept");
        assertEquals(out, LatestFigures.rewrite(out, rows), "writing the same run twice changes nothing");
    }

    @Test
    void theDocsTable_isOneTheBenchCanRewrite_andRewritingItWithNothingChangesNothing() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "benchmark.md"));
        assertEquals(doc, LatestFigures.rewrite(doc, List.of()));
    }

    @Test
    void theScenarioIsTakenFromTheCommandLine() {
        assertEquals("stampede", LatestFigures.scenario("./boxoffice bench --stampede --sweep"));
        assertEquals("general admission", LatestFigures.scenario("./boxoffice bench --stampede --general-admission 20000 --sweep"));
        assertEquals("waiting room", LatestFigures.scenario("./boxoffice bench --stampede --rate 1000 --waiting-room 400"));
        assertEquals("bots", LatestFigures.scenario("./boxoffice bench --stampede --waiting-room 400 --bots 0.3"));
        assertEquals("several members", LatestFigures.scenario("./boxoffice bench --members 3 --kill-at 285"));
        assertEquals("scaling curve", LatestFigures.scenario("./boxoffice bench --members 3 --cpu-quota 0.4 --sweep"));
        assertEquals("sms outage", LatestFigures.scenario("./boxoffice bench --sms-outage --seats 2000"));
        assertEquals("warm start", LatestFigures.scenario("./boxoffice bench --warm-start --seats 5000"));
        assertEquals("closed loop", LatestFigures.scenario("./boxoffice bench"));
    }

    @Test
    void aCellWithAPipeIsEscaped_andReadBackWhole() {
        LatestFigures.Row r = new LatestFigures.Row("stampede", "a | b", "0", "1", "met", "`x`");
        assertEquals(r, LatestFigures.Row.parse(r.line()).withUnescaped());
    }

    @Test
    void aDocumentWithoutTheTable_isRefused_andTheFileIsNotTouched(@TempDir Path dir) throws Exception {
        Path doc = dir.resolve("benchmark.md");
        Files.writeString(doc, "# Benchmark\n");
        Path results = dir.resolve("results.json");
        Files.writeString(results, RESULTS);
        assertThrows(IllegalArgumentException.class, () -> LatestFigures.update(doc, results, LocalDate.of(2026, 12, 5)));
        assertEquals("# Benchmark\n", Files.readString(doc));
    }
}
