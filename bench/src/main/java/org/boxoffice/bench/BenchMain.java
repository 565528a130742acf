package org.boxoffice.bench;

import org.boxoffice.bench.report.LatestFigures;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code ./boxoffice bench}: parses the command line and runs {@link FlashSaleBench} (or, with
 * {@code --reads}, {@link ReadBench}; with {@code --sms-outage}, {@link SmsOutageBench}; with {@code --members},
 * {@link ClusterBench}).
 * Exit codes: 0 done, 1 an invariant was violated or the run failed, 2 a bad command line.
 */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] args) {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (BenchOptions.UsageException e) {
            System.err.println("bench: " + e.getMessage());
            System.err.println("bench: see ./boxoffice bench --help");
            System.exit(2);
            return;
        }
        if (options.help) {
            System.out.print(BenchOptions.usage());
            return;
        }
        // the embedded PostgreSQL and its helpers log at INFO; the bench's own output is what matters here
        Logger.getLogger("").setLevel(Level.WARNING);
        if (options.latestFigures && options.out == null) {
            // the run's folder is known up front, so its results.json can be read afterwards
            options.out = Path.of("bench", "results", DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC)
                    .format(Instant.now()));
        }
        int code;
        try {
            if (options.aotTrain != null) {
                code = new WarmMembers(options).train();
            } else if (options.warmStart) {
                code = new WarmMembers(options).measure();
            } else if (options.members != null) {
                code = new ClusterBench(options).run();
            } else if (options.reads) {
                code = new ReadBench(options).run();
            } else if (options.smsOutage) {
                code = new SmsOutageBench(options).run();
            } else {
                code = new FlashSaleBench(options).run();
            }
        } catch (Exception e) {
            System.err.println("bench: failed: " + e.getMessage());
            e.printStackTrace();
            code = 1;
        }
        if (options.latestFigures) {
            code = Math.max(code, latestFigures(options.out.resolve("results.json")));
        }
        System.exit(code);
    }

    /** Writes the run's targets into the docs' table of latest figures (exit code 1 when it cannot). */
    private static int latestFigures(Path results) {
        Path doc = Path.of("docs", "benchmark.md");
        if (!Files.isRegularFile(results) || !Files.isRegularFile(doc)) {
            System.err.println("bench: --latest-figures: no " + results + " or " + doc + " (run from the repository's folder)");
            return 1;
        }
        try {
            int rows = LatestFigures.update(doc, results, LocalDate.now(ZoneOffset.UTC));
            System.out.println("bench: " + rows + " row(s) of the latest figures written to " + doc);
            return 0;
        } catch (Exception e) {
            System.err.println("bench: --latest-figures: " + e.getMessage());
            return 1;
        }
    }
}
