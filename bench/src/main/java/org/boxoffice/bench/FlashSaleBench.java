package org.boxoffice.bench;

import org.boxoffice.bench.probe.HttpCeiling;
import org.boxoffice.bench.load.Sweep;
import org.boxoffice.bench.report.BenchReport;
import org.boxoffice.bench.report.Chart;
import org.boxoffice.bench.report.HalfRate;
import org.boxoffice.bench.report.ResultsJson;
import org.boxoffice.bench.report.SummaryTable;
import org.boxoffice.bench.report.SystemOutcome;
import org.boxoffice.bench.report.Targets;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One complete bench run: PostgreSQL, then Boxoffice (start, warm up, sell the hot show, check
 * the invariants, the expiry and the heap; with {@code --general-admission}, {@link GeneralAdmissionRun}
 * sells one area by count instead), then each PostgreSQL-only baseline behind its own HTTP
 * server on the same database with the same crowd, then the report. Systems run one after the
 * other, never side by side, and each server is stopped before the next starts, so every system
 * has the machine to itself (apart from the load generator, which every system shares alike).
 */
final class FlashSaleBench {

    /**
     * The waiting room door's proof of work in the bench: PBKDF2 rounds per key derivation and
     * derivations per challenge on average. Far below a browser's default (docs/web.md), so that one
     * load-generator thread can solve a challenge for each of tens of thousands of fans; the
     * service's work per challenge (one derivation to issue, two HMACs to check) is the same shape.
     */
    static final int DOOR_COST = 100;
    static final int DOOR_DIFFICULTY = 2;

    private final BenchOptions o;
    private final Path out;
    private final RunEnvironment env;

    FlashSaleBench(BenchOptions options) {
        this.o = options;
        this.env = new RunEnvironment(options);
        this.out = env.out();
    }

    int run() throws Exception {
        Instant started = Instant.now();
        Files.createDirectories(out);
        Path work = Files.createTempDirectory("boxoffice-bench-");
        Thread hook = new Thread(env::closeAll, "bench-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            Database db = env.openDatabase(work);
            BotFigures bots = new BotFigures(env);
            SystemRun system = new SystemRun(env, bots);
            List<SystemOutcome> systems = new ArrayList<>();
            Baselines baselines = new Baselines(env, system);
            BenchReport report;
            HalfRate halfRate = null;
            if (o.generalAdmission != null) {
                SystemOutcome box = new GeneralAdmissionRun(env, db, system).run(work);
                systems.add(box);
                systems.addAll(baselines.runAreas(db, box, GeneralAdmissionRun.AREA));
                report = new BenchReport(started, RunDescription.machine(db), o.shownCommand(), new RunDescription(o).settings(),
                        systems, baselines.ceiling(), null, null,
                        Targets.generalAdmission(systems, baselines.ceiling(), baselines.pacedFloor()), env.notes());
            } else {
                BoxofficeRun.Outcome box = new BoxofficeRun(env, db, system, bots).run(work);
                halfRate = box.halfRate();
                systems.add(box.outcome());
                systems.addAll(baselines.run(db, box.outcome()));
                HttpCeiling.Result ceiling = baselines.ceiling();
                report = new BenchReport(started, RunDescription.machine(db), o.shownCommand(),
                        new RunDescription(o).settings(), systems, ceiling, box.expiry(), box.memory(),
                        o.stampede ? Targets.stampede(systems, ceiling, baselines.pacedFloor(), halfRate)
                        : Targets.evaluate(systems, box.expiry(), box.memory()), env.notes());
            }
            ResultsJson.write(report, out.resolve("results.json"));
            Chart.write(systems.stream().map(SystemOutcome::run).toList(),
                    String.format(Locale.ROOT, "%s: %,d %s, %,d buyers, %d connections (%s)",
                            o.generalAdmission != null ? "General admission" : "Flash sale", o.seats,
                            o.generalAdmission != null ? "admissions" : "seats", o.buyers(), o.connections,
                            report.machine().get("summary")),
                    out.resolve("chart.png"));
            Map<String, Sweep.Result> sweeps = new LinkedHashMap<>();
            systems.stream().filter(s -> s.sweep() != null).forEach(s -> sweeps.put(s.run().system(), s.sweep()));
            if (!sweeps.isEmpty()) {
                Chart.writeSweep(sweeps, String.format(Locale.ROOT, "Stampede rate sweep: %,d %s, %,d buyers, %d connections,"
                        + " %d s per rate (%s)", o.seats, o.generalAdmission != null ? "admissions" : "seats", o.buyers(),
                        o.connections, o.sweepStep.toSeconds(),
                        report.machine().get("summary")), out.resolve("sweep.png"));
            }
            String summary = SummaryTable.render(report);
            Files.writeString(out.resolve("summary.txt"), summary);
            System.out.println(summary);
            System.out.println("results: " + out.toAbsolutePath());
            long violations = report.violations() + (halfRate == null ? 0 : halfRate.violations());
            if (violations > 0) {
                System.out.println("\n!!!!!!!! " + violations + " INVARIANT VIOLATION(S): a seat was held or sold twice,"
                        + " an area sold beyond its capacity,"
                        + " an acknowledged hold or booking is not in PostgreSQL, or money was not conserved."
                        + " See results.json. !!!!!!!!");
                return 1;
            }
            return 0;
        } finally {
            env.closeAll();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running already
            }
            RunEnvironment.deleteRecursively(work);
        }
    }

    static void log(String message) {
        System.out.println("bench: " + message);
    }
}
