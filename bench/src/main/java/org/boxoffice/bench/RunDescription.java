package org.boxoffice.bench;

import org.boxoffice.bench.load.ShowPlan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import static org.boxoffice.bench.BoxofficeRun.METRICS_SCRAPE_EVERY;
import static org.boxoffice.bench.SystemRun.STAMPEDE_WARMUP_RATE;

/**
 * What a flash-sale run's report says about itself: the scenario as its options set it, the code
 * it measured and the machine and PostgreSQL it ran on, so that two reports can be compared.
 */
final class RunDescription {

    private final BenchOptions o;

    RunDescription(BenchOptions options) {
        this.o = options;
    }

    Map<String, Object> settings() {
        Map<String, Object> m = new LinkedHashMap<>();
        List<ShowPlan.SectionSpec> sections = ShowPlan.regularSections(o.seats);
        m.put("summary", String.format(Locale.ROOT, "%,d seats in %d sections of up to 50 rows x 50 seats; %,d buyers wanting"
                        + " 1-4 adjacent seats, mostly in the front sections; %d connections; %.0f%% best available;"
                        + " up to %d retries with an offered alternative; %.0f%% abandon;%s 1 seat-map read per %d hold attempts;"
                        + " limit %d s per system after %s warm-up", o.seats, sections.size(), o.buyers(), o.connections,
                100 * o.bestAvailable, o.retries, 100 * o.abandon,
                o.pay > 0 ? String.format(Locale.ROOT, " %.0f%% of the rest pay at once (boxoffice only);", 100 * o.pay) : "",
                o.readEvery, o.duration.toSeconds(),
                o.warmupAuto ? "an adaptive (JIT settled)" : "a " + o.warmup.toSeconds() + " s"));
        m.put("seats", o.seats);
        if (o.generalAdmission != null) {
            m.put("summary", String.format(Locale.ROOT, "one general-admission area of %,d admissions sold by count; %,d buyers"
                            + " asking for 1-4 admissions; %d connections; up to %d retries (for what is left after a SOLD_OUT"
                            + " naming fewer than asked); 1 areas read per %d hold attempts; limit %d s per system after a %d s"
                            + " warm-up", o.generalAdmission, o.buyers(), o.connections, o.retries, o.readEvery,
                    o.duration.toSeconds(), o.warmup.toSeconds()));
            m.put("generalAdmissionCapacity", o.generalAdmission);
        }
        m.put("sections", sections.size());
        m.put("buyers", o.buyers());
        m.put("connections", o.connections);
        m.put("durationLimitSeconds", o.duration.toSeconds());
        m.put("warmupSeconds", o.warmupAuto ? "auto (until the server's JIT uses < 10% of a core, max 120 s)" : o.warmup.toSeconds());
        if (o.stampede && !o.warmupAuto && !o.warmup.isZero()) {
            m.put("warmupStampede", String.format(Locale.ROOT, "the last third (%d s) open loop at %,.0f attempts/s on the warm-up show, selling it out",
                    o.warmup.minus(o.warmup.multipliedBy(2).dividedBy(3)).toSeconds(), o.rate != null ? o.rate : STAMPEDE_WARMUP_RATE));
        }
        if (!o.warmup.isZero()) {
            m.put("warmupMetricsScrape", "boxoffice's /observe/metrics every " + METRICS_SCRAPE_EVERY.toSeconds()
                    + " s during its warm-up, as a monitoring system would (the baselines have no metrics endpoint)");
        }
        m.put("retries", o.retries);
        m.put("bestAvailableShare", o.bestAvailable);
        m.put("abandonShare", o.abandon);
        m.put("payShare", o.pay);
        m.put("readEvery", o.readEvery);
        m.put("baselinePool", o.baselinePool);
        m.put("servicePool", o.servicePool == null ? "service default" : o.servicePool);
        m.put("blockGroups", o.blockGroups == null ? "service default" : o.blockGroups);
        m.put("serviceJvmOptions", o.serviceOpts);
        m.put("seed", o.seed);
        m.put("target", o.url != null ? o.url : "service started by the bench");
        m.put("waitingRoomAdmissionsPerSecond", o.waitingRoom);
        m.put("code", codeVersion());
        return m;
    }

    /** The commit the jars were built from, and whether the working tree differed: results name the code they measured. */
    private String codeVersion() {
        String jar = "";
        try {
            jar = ", service jar built " + Files.getLastModifiedTime(o.appJar).toInstant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        } catch (IOException e) {
            // no jar: --url
        }
        try {
            Process head = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").redirectErrorStream(true).start();
            String commit = new String(head.getInputStream().readAllBytes()).trim();
            Process status = new ProcessBuilder("git", "status", "--porcelain", "--untracked-files=no").redirectErrorStream(true).start();
            long changed = new String(status.getInputStream().readAllBytes()).lines().count();
            if (head.waitFor() != 0 || status.waitFor() != 0) {
                return "unknown (not a git checkout)" + jar;
            }
            return commit + (changed > 0 ? " with " + changed + " uncommitted changed files" : "") + jar;
        } catch (IOException e) {
            return "unknown (no git)" + jar;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown" + jar;
        }
    }

    static Map<String, Object> machine(Database db) {
        Map<String, Object> m = new LinkedHashMap<>();
        int cores = Runtime.getRuntime().availableProcessors();
        String cpu = "?";
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            cpu = lines.filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst().orElse("?");
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        long memory = 0;
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            memory = os.getTotalMemorySize();
        }
        String pg = "?";
        if (db != null) {
            try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW server_version")) {
                pg = rs.next() ? rs.getString(1) : "?";
            } catch (SQLException e) {
                pg = "? (" + e.getMessage() + ")";
            }
        }
        m.put("cores", cores);
        m.put("cpu", cpu);
        m.put("memoryGiB", Math.round(memory / (1024.0 * 1024 * 1024)));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        m.put("java", Runtime.version().toString() + " (" + System.getProperty("java.vm.vendor") + ")");
        m.put("postgresql", pg + (db != null ? " — " + db.describe() : ""));
        Map<String, String> durability = db == null ? null : db.durabilitySettings();
        m.put("postgresqlSettings", durability);
        m.put("summary", String.format(Locale.ROOT, "%d cores %s, %d GiB, Java %s, PostgreSQL %s", cores, cpu,
                Math.round(memory / (1024.0 * 1024 * 1024)), Runtime.version().feature(), pg)
                + (durability == null ? "" : " (fsync " + durability.get("fsync") + ", synchronous_commit "
                + durability.get("synchronous_commit") + ")"));
        return m;
    }
}
