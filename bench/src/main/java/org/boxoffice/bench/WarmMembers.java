package org.boxoffice.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.boxoffice.bench.http.BoxofficeApi;
import org.boxoffice.bench.load.Buyer;
import org.boxoffice.bench.load.LoadRun;
import org.boxoffice.bench.load.OpenLoopRun;
import org.boxoffice.bench.load.RunResult;
import org.boxoffice.bench.load.RunStats;
import org.boxoffice.bench.load.Target;
import org.boxoffice.bench.probe.CpuMeter;
import org.boxoffice.bench.report.Chart;
import org.boxoffice.bench.report.TargetCheck;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Members that are warm before the rush, two jobs:
 *
 * <ul>
 *   <li>{@code --aot-train FILE}: the AOT training run the launcher makes at build time on JDK 25+.
 *   The service starts with {@code -XX:AOTCacheOutput=FILE}, sells shows the way the bench does
 *   (holds, 409s with alternatives, best available, releases, seat maps, a stampede past the
 *   sell-out, a waiting room with passes), and stops; on its way out the JVM writes the cache:
 *   classes loaded and linked, method profiles recorded.</li>
 *   <li>{@code --warm-start}: a fresh member under a sale from its first request, without the cache,
 *   with it ({@code --aot-cache}), and with it and the member's start-up rehearsal (which every other
 *   bench run turns off): seconds to ready, seconds from the first request until it first serves
 *   80 % of its steady rate (the median of its last 15 s), and its JIT compiler's CPU before ready
 *   and over the first 30 s.</li>
 * </ul>
 */
final class WarmMembers {

    private static final int TRAIN_SEATS = 2_000;
    private static final int TRAIN_BUYERS = 2_000;
    private static final int MEASURE_SECONDS = 60;
    private static final int JIT_WINDOW_SECONDS = 30;
    private static final int STEADY_SECONDS = 15;

    private final BenchOptions o;

    WarmMembers(BenchOptions o) {
        this.o = o;
    }

    /** The training run: writes the cache to {@code o.aotTrain}; 0 when it was written. */
    int train() throws Exception {
        Path work = Files.createTempDirectory("boxoffice-aot-");
        Path target = o.aotTrain.toAbsolutePath();
        Path partial = target.resolveSibling(target.getFileName() + ".partial");
        Files.deleteIfExists(partial);
        try (Database db = Database.embedded(work.resolve("postgres"))) {
            ServiceLauncher.Started s = ServiceLauncher.start(o, db, work.resolve("service"),
                    List.of("-XX:AOTCacheOutput=" + partial), work.resolve("service.log"));
            try {
                BoxofficeApi api = s.api();
                String admin = api.adminToken();
                List<String> tokens = api.tokens(Buyer.accountIds(TRAIN_BUYERS), 16);
                // a sale that never sells out: every hold released at once
                Target show = show(api, admin, "aot-training");
                List<Buyer> crowd = Buyer.crowd(TRAIN_BUYERS, o.seed, show.plan(), tokens);
                FlashSaleBench.log("AOT training: a closed-loop sale for 20 s");
                new LoadRun(show, crowd, new LoadRun.Settings(32, Duration.ofSeconds(20), 3, 0.2, 1.0, 0, 5, o.seed, true)).run();
                // a stampede past the sell-out: refusals, alternatives, seat maps
                FlashSaleBench.log("AOT training: a stampede for 10 s");
                new OpenLoopRun(show(api, admin, "aot-training"), crowd,
                        new OpenLoopRun.Settings(800, Duration.ofSeconds(10), 64, 2, 0.2, 5, o.seed), null).run();
                // a waiting room: queue, passes, holds with a pass
                FlashSaleBench.log("AOT training: a waiting room for 5 s");
                Target roomShow = show(api, admin, "aot-training");
                api.openWaitingRoom(admin, roomShow.showId(), 200, FlashSaleBench.DOOR_DIFFICULTY);
                LoadRun.Room room = LoadRun.joinQueue(api, roomShow.showId(), crowd.subList(0, 500), 16);
                new OpenLoopRun(roomShow, crowd.subList(0, 500), new OpenLoopRun.Settings(400, Duration.ofSeconds(5), 64, 2, 0.2, 5,
                        o.seed), room).run();
            } finally {
                FlashSaleBench.log("AOT training: stopping the service; the JVM writes its cache on the way out");
                s.process().close(600);
            }
        } finally {
            RunEnvironment.deleteRecursively(work);
        }
        if (!Files.isRegularFile(partial)) {
            System.err.println("bench: the training run wrote no AOT cache (see the service's output above)");
            return 1;
        }
        Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        FlashSaleBench.log(String.format(Locale.ROOT, "AOT cache written: %s (%,d MB)", target, Files.size(target) >> 20));
        return 0;
    }

    /** One fresh member's first minute. */
    record Start(String mode, double readySeconds, double jitCpuBeforeFirstRequest, Double secondsTo80Percent,
                 double steadyAttemptsPerSecond, double jitCpuFirst30s, double serverCpuFirst30s,
                 List<RunStats.TimelinePoint> timeline) {
    }

    /** The warm-start comparison; writes warm-start.json, warm-start.png and a summary to the results folder. */
    int measure() throws Exception {
        Path out = o.out != null ? o.out
                : Path.of("bench", "results", DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now())
                + "-warm-start");
        Files.createDirectories(out);
        Path work = Files.createTempDirectory("boxoffice-warm-");
        List<Start> starts = new ArrayList<>();
        List<RunResult> runs = new ArrayList<>();
        try (Database db = Database.embedded(work.resolve("postgres"))) {
            record Mode(String name, String file, List<String> jvm, boolean rehearse) {
            }
            List<Mode> modes = new ArrayList<>();
            modes.add(new Mode("no AOT cache", "no-aot", List.of(), false));
            if (o.aotCache != null) {
                modes.add(new Mode("AOT cache", "aot", ServiceLauncher.aotCache(o), false));
                modes.add(new Mode("AOT + rehearsal", "aot-rehearsal", ServiceLauncher.aotCache(o), true));
            } else {
                System.err.println("bench: --warm-start without --aot-cache measures the member without a cache only");
                modes.add(new Mode("rehearsal", "rehearsal", List.of(), true));
            }
            for (Mode mode : modes) {
                long t0 = System.nanoTime();
                // the rehearsal as shipped (boxoffice.rehearsal.seconds: 20 by default), or none
                Map<String, String> env = mode.rehearse() ? Map.of("BOXOFFICE_REHEARSAL_SECONDS", "20") : Map.of();
                ServiceLauncher.Started s = ServiceLauncher.start(o, db, work.resolve("service-" + starts.size()), mode.jvm(),
                        out.resolve("service-" + mode.file() + ".log"), env);
                double ready = (System.nanoTime() - t0) / 1e9;
                try {
                    RunResult run = firstMinute(s, mode.name(), ready, starts);
                    runs.add(run);
                } finally {
                    s.process().close();
                }
            }
        } finally {
            RunEnvironment.deleteRecursively(work);
        }
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("command", String.join(" ", o.arguments));
        report.put("scenario", String.format(Locale.ROOT, "a fresh member, ready; from its first request: tokens and a show, then a"
                + " closed-loop sale (%d connections, %,d seats, every hold released at once) for %d s; time to 80 %% and JIT CPU"
                + " counted from the first request", Math.min(o.connections, 64), o.seats, MEASURE_SECONDS));
        report.put("starts", starts);
        json.writeValue(out.resolve("warm-start.json").toFile(), report);
        Map<String, Object> results = new LinkedHashMap<>();
        results.put("command", report.get("command"));
        results.put("targets", targets(starts));
        json.writeValue(out.resolve("results.json").toFile(), results);
        Chart.write(runs, "A fresh member's first minute: without and with the AOT cache, and with its rehearsal", out.resolve("warm-start.png"));
        StringBuilder sb = new StringBuilder("\nwarm start: ").append(report.get("scenario")).append('\n');
        for (Start st : starts) {
            sb.append(String.format(Locale.ROOT, "  %-16s ready in %5.1f s (JIT CPU before ready: %.1f s); 80 %% of its steady %,.0f attempts/s %s; JIT CPU in the first %d s:"
                            + " %.1f s of %.1f s server CPU%n", st.mode(), st.readySeconds(), st.jitCpuBeforeFirstRequest(), st.steadyAttemptsPerSecond(),
                    st.secondsTo80Percent() == null ? "never reached" : String.format(Locale.ROOT, "within %.0f s", st.secondsTo80Percent()),
                    JIT_WINDOW_SECONDS, st.jitCpuFirst30s(), st.serverCpuFirst30s()));
        }
        Files.writeString(out.resolve("summary.txt"), sb.toString());
        System.out.println(sb);
        System.out.println("results: " + out.toAbsolutePath());
        return 0;
    }

    /**
     * The warm start's target, for the table of latest figures: the rehearsed member (the cache and
     * the rehearsal, or the rehearsal alone on a JDK without a cache) at 80 % of its steady rate within
     * {@value #TARGET_SECONDS_TO_80} s of its first request, beside the other starts' figures.
     */
    static List<TargetCheck> targets(List<Start> starts) {
        Start rehearsed = starts.stream().filter(st -> st.mode().contains("rehearsal")).reduce((a, b) -> b).orElse(null);
        if (rehearsed == null) {
            return List.of();
        }
        StringBuilder others = new StringBuilder();
        for (Start st : starts) {
            if (st != rehearsed) {
                others.append(others.isEmpty() ? "" : ", ").append(st.mode().replace("no AOT cache", "none").replace("AOT cache", "the cache alone"))
                        .append(' ').append(to80(st));
            }
        }
        Double s80 = rehearsed.secondsTo80Percent();
        String measured = to80(rehearsed) + String.format(Locale.ROOT, " (ready %.1f s after start%s)", rehearsed.readySeconds(),
                others.isEmpty() ? "" : "; " + others);
        return List.of(new TargetCheck("fresh member at 80 % of its steady rate (" + rehearsed.mode().replace("AOT", "AOT cache") + ")",
                "<= " + TARGET_SECONDS_TO_80 + " s", measured, s80 != null && s80 <= TARGET_SECONDS_TO_80));
    }

    private static String to80(Start st) {
        return st.secondsTo80Percent() == null ? "never" : String.format(Locale.ROOT, "%.0f s", st.secondsTo80Percent());
    }

    /** A rehearsed member's goal: 80 % of its steady rate within this many seconds of its first request. */
    static final int TARGET_SECONDS_TO_80 = 10;

    private RunResult firstMinute(ServiceLauncher.Started s, String mode, double ready, List<Start> starts) throws Exception {
        BoxofficeApi api = s.api();
        // the clock starts at the first request: the set-up calls below are part of the member's first seconds
        long pid = s.process().pid();
        long firstRequest = System.nanoTime();
        long jit0 = CpuMeter.threadKinds(pid).getOrDefault(CpuMeter.JIT, 0L);
        long cpu0 = ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).map(Duration::toNanos).orElse(0L);
        AtomicLong jitAt30 = new AtomicLong(-1);
        AtomicLong cpuAt30 = new AtomicLong(-1);
        ScheduledExecutorService at = Executors.newSingleThreadScheduledExecutor();
        at.schedule(() -> {
            jitAt30.set(CpuMeter.threadKinds(pid).getOrDefault(CpuMeter.JIT, 0L) - jit0);
            cpuAt30.set(ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).map(Duration::toNanos).orElse(0L) - cpu0);
        }, JIT_WINDOW_SECONDS, TimeUnit.SECONDS);
        String admin = api.adminToken();
        int buyers = Math.max(1_000, o.seats / 2);
        List<String> tokens = api.tokens(Buyer.accountIds(buyers), 16);
        Target show = show(api, admin, "boxoffice (" + mode + ")");
        List<Buyer> crowd = Buyer.crowd(buyers, o.seed, show.plan(), tokens);
        double setUp = (System.nanoTime() - firstRequest) / 1e9;
        FlashSaleBench.log("warm start (" + mode + "): selling for " + MEASURE_SECONDS + " s from the first request");
        RunResult run = new LoadRun(show, crowd, new LoadRun.Settings(Math.min(o.connections, 64), Duration.ofSeconds(MEASURE_SECONDS),
                o.retries, o.bestAvailable, 1.0, 0, o.readEvery, o.seed, true)).run();
        at.shutdown();
        at.awaitTermination(5, TimeUnit.SECONDS);
        List<RunStats.TimelinePoint> timeline = run.timeline();
        double steady = timeline.stream().skip(Math.max(0, timeline.size() - STEADY_SECONDS))
                .mapToDouble(RunStats.TimelinePoint::attemptsPerSecond).sorted()
                .skip(Math.min(STEADY_SECONDS, timeline.size()) / 2).findFirst().orElse(0);
        Double to80 = timeline.stream().filter(p -> p.attemptsPerSecond() >= 0.8 * steady).map(RunStats.TimelinePoint::t)
                .min(Comparator.naturalOrder()).orElse(null);
        Start st = new Start(mode, ready, jit0 / 1e9, to80 == null ? null : (double) Math.round(setUp + to80), steady, jitAt30.get() / 1e9,
                cpuAt30.get() / 1e9, timeline);
        starts.add(st);
        FlashSaleBench.log(String.format(Locale.ROOT, "warm start (%s): steady %,.0f attempts/s, 80 %% %s, JIT %.1f CPU-s in 30 s",
                mode, steady, to80 == null ? "never" : "within " + st.secondsTo80Percent() + " s of the first request", st.jitCpuFirst30s()));
        return run;
    }

    private Target show(BoxofficeApi api, String admin, String name) {
        return BoxofficeRun.freshShow(api, admin, o, name, o.aotTrain != null ? TRAIN_SEATS : o.seats);
    }
}
