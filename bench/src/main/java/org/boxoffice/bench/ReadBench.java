package org.boxoffice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.boxoffice.bench.baseline.BaselineServer;
import org.boxoffice.bench.http.BoxofficeApi;
import org.boxoffice.bench.http.HttpConnection;
import org.boxoffice.bench.http.HttpResponse;
import org.boxoffice.bench.probe.CpuMeter;
import org.boxoffice.bench.probe.JfrProfile;
import org.boxoffice.bench.reads.HoldTraffic;
import org.boxoffice.bench.reads.OnSaleMix;
import org.boxoffice.bench.reads.ReadLoad;
import org.boxoffice.bench.reads.ReadReport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * {@code ./boxoffice bench --reads}: the read endpoints of an on-sale, each beside an empty
 * handler in the same run. Starts PostgreSQL, the service (demo catalog: the 60,000-seat
 * {@code echoes-berlin-1} on sale) and the baseline server (whose {@code /health} is the empty
 * handler the flash-sale bench calls the HTTP ceiling), side by side but measured one at a time.
 *
 * <ol>
 *   <li>the empty handler, then every endpoint as a browser asks (gzip accepted), and the large ones
 *       without gzip too: a warm-up, a closed-loop pass (req/s, latency, server and load-generator
 *       CPU per request), a pass paced at half the target rate, i.e. a quarter of the empty
 *       handler's req/s (p99 there is the latency target's figure);
 *   <li>the on-sale mix (mostly seat-map polls with If-None-Match every 2 s, then show pages, then
 *       search) at that same rate, with no seat-map churn, a trickle and a sale's;
 *   <li>the empty handler again: its figure is the mean of both passes, so a machine that got
 *       busier meanwhile shows up as a gap between them;
 *   <li>with {@code --profile}, one Flight Recorder profile per service endpoint.
 * </ol>
 */
final class ReadBench {

    private static final String SHOW = "echoes-berlin-1";
    private static final String EVENT = "midnight-echoes";
    private static final Duration WARM = Duration.ofSeconds(2);
    private static final Duration DEFAULT_PHASE = Duration.ofSeconds(5);
    /** A mix phase is long enough for every fan to poll three times after warming up. */
    private static final Duration MIX_WARM = Duration.ofSeconds(4);
    private static final double[] CHURN = {0, 0.2, 10};
    private static final int[] MIX_WEIGHTS = {80, 13, 5, 2};

    private final BenchOptions o;
    private final Path out;
    private final Duration phase;
    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private final ReadReport report = new ReadReport();

    ReadBench(BenchOptions options) {
        this.o = options;
        this.out = options.out != null ? options.out : Path.of("bench", "results",
                DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now()) + "-reads");
        boolean durationGiven = options.arguments.stream().anyMatch(a -> a.equals("--duration") || a.startsWith("--duration="));
        this.phase = durationGiven ? options.duration : DEFAULT_PHASE;
    }

    private record Server(String name, int port, long pid) {
    }

    int run() throws Exception {
        if (o.url != null) {
            throw new IllegalStateException("--reads starts its own service and empty handler; --url is not supported");
        }
        Files.createDirectories(out);
        Path work = Files.createTempDirectory("boxoffice-reads-");
        try {
            Database db = o.dbUrl != null ? Database.external(o.dbUrl, o.dbUser, o.dbPassword) : Database.embedded(work.resolve("postgres"));
            resources.push(db);
            Server empty = startBaseline(db);
            Server service = startService(db, work);
            measure(service, empty);
            String text = report.render();
            Files.writeString(out.resolve("reads.txt"), text);
            HttpResponse.JSON.copy().enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValue(out.resolve("reads.json").toFile(), report.json());
            System.out.println();
            System.out.println(text);
            System.out.println("results: " + out.toAbsolutePath());
            return 0;
        } finally {
            while (!resources.isEmpty()) {
                try {
                    resources.pop().close();
                } catch (Exception e) {
                    System.err.println("bench: closing: " + e);
                }
            }
            try (Stream<Path> paths = Files.walk(work)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private void measure(Server service, Server empty) throws Exception {
        BoxofficeApi api = new BoxofficeApi(ServiceLauncher.HOST, service.port());
        JsonNode show = api.show(SHOW);
        String firstSection = show.path("sections").get(0).path("name").asText();
        String lastSection = show.path("sections").get(show.path("sections").size() - 1).path("name").asText();
        List<String> seatIds = new ArrayList<>();
        try (HttpConnection c = api.connect()) {
            c.get("/v1/shows/" + SHOW + "/seats?section=" + lastSection, null).json().path("seats")
                    .forEach(s -> seatIds.add(s.path("seatId").asText()));
        }
        List<String> tokens = api.tokens(IntStream.range(0, 200).mapToObj(i -> "reader-" + i).toList(), 8);
        String availability = "/v1/shows/" + SHOW + "/availability";
        String etag;
        try (HttpConnection c = api.connect()) {
            etag = c.send("GET", availability, null, null, "Accept-Encoding: gzip", null).etag();
        }
        List<String> searches = List.of("/v1/events", "/v1/events?city=Berlin", "/v1/events?q=echoes",
                "/v1/events?city=Lisbon&q=fado");
        report.setup("command", o.shownCommand());
        report.setup("machine", Runtime.getRuntime().availableProcessors() + " cores, load generator, service, baseline and"
                + " PostgreSQL on the same machine");
        report.setup("connections", o.connections);
        report.setup("phase", phase.toSeconds() + " s measured after " + WARM.toSeconds() + " s warm-up, per pass");
        report.setup("show", SHOW + " (" + show.path("layout").path("seatCount").asInt() + " seats, "
                + show.path("sections").size() + " sections)");
        report.setup("service JVM", o.serviceOpts);
        report.setup("code", codeVersion());

        record Target(String name, Server server, boolean probe, ReadLoad.Source source, String path) {
        }
        List<Target> targets = List.of(
                new Target("live probe", service, true, ReadLoad.always("live", "/observe/health/live", null), "/observe/health/live"),
                new Target("ready probe", service, true, ReadLoad.always("ready", "/observe/health/ready", null), "/observe/health/ready"),
                new Target("search", service, false, ReadLoad.rotating(searches.stream()
                        .map(p -> new ReadLoad.Request("search", p, null)).toList()), String.join(" | ", searches)),
                new Target("event", service, false, ReadLoad.always("event", "/v1/events/" + EVENT, null), "/v1/events/" + EVENT),
                new Target("show", service, false, ReadLoad.always("show", "/v1/shows/" + SHOW, null), "/v1/shows/" + SHOW),
                new Target("show (no gzip)", service, false, ReadLoad.always(new ReadLoad.Request("show",
                        "/v1/shows/" + SHOW, null, false)), "/v1/shows/" + SHOW + " without Accept-Encoding"),
                new Target("seats of a section", service, false, ReadLoad.always("seats",
                        "/v1/shows/" + SHOW + "/seats?section=" + firstSection, null), "/v1/shows/" + SHOW + "/seats?section=" + firstSection),
                new Target("seats (no gzip)", service, false, ReadLoad.always(new ReadLoad.Request("seats",
                        "/v1/shows/" + SHOW + "/seats?section=" + firstSection, null, false)), "the same without Accept-Encoding"),
                new Target("availability 200", service, false, ReadLoad.always("availability", availability, null), availability),
                new Target("availability (no gzip)", service, false, ReadLoad.always(new ReadLoad.Request("availability",
                        availability, null, false)), availability + " without Accept-Encoding"),
                new Target("availability 304", service, false, ReadLoad.always("availability", availability, etag),
                        availability + " with If-None-Match"));

        ReadLoad.Source emptySource = ReadLoad.always("empty", "/health", null);
        // one round over everything first, closed and paced, so the first endpoint measured does
        // not pay for the service's (and the load generator's) JIT compiling the common paths
        log("warming up every endpoint");
        for (Target t : targets) {
            ReadLoad load = new ReadLoad(ServiceLauncher.HOST, t.server().port(), o.connections);
            load.closed(t.source(), WARM);
            load.paced(t.source(), WARM, 10_000);
        }
        new ReadLoad(ServiceLauncher.HOST, empty.port(), o.connections).closed(emptySource, WARM);
        report.setup("load average before", loadAverage());
        ReadReport.Endpoint first = endpoint("empty handler", "/health", false, empty, emptySource, 0);
        // the throughput target is half the empty handler's req/s; latency is measured at half that,
        // the empty handler's own included: its tail there is what the machine adds to everyone's
        double half = first.closed().perSecond() * ReadReport.RATE_SHARE / 2;
        ReadLoad emptyLoad = new ReadLoad(ServiceLauncher.HOST, empty.port(), o.connections);
        emptyLoad.paced(emptySource, Duration.ofSeconds(1), half);
        first = new ReadReport.Endpoint(first.name(), first.path(), false, first.closed(), first.serverMicros(),
                first.clientMicros(), emptyLoad.paced(emptySource, phase, half).total());
        report.endpoint(first);
        report.empty(first.closed().perSecond(), first.serverMicros());
        log(String.format(Locale.ROOT, "empty handler: %,.0f req/s; paced passes run at %,.0f req/s", first.closed().perSecond(), half));
        for (Target t : targets) {
            report.endpoint(endpoint(t.name(), t.path(), t.probe(), t.server(), t.source(), half));
        }
        for (double churn : CHURN) {
            report.mix(mix(service, api, seatIds, tokens, searches, half, churn));
        }
        ReadReport.Endpoint last = endpoint("empty handler (again)", "/health", false, empty, emptySource, 0);
        report.endpoint(last);
        report.setup("load average after", loadAverage());
        report.empty((first.closed().perSecond() + last.closed().perSecond()) / 2, (first.serverMicros() + last.serverMicros()) / 2);
        report.note(String.format(Locale.ROOT, "the empty handler's two passes differ by %.0f%% (how much the machine's"
                        + " load moved during the run)",
                100 * Math.abs(first.closed().perSecond() - last.closed().perSecond()) / first.closed().perSecond()));
        report.note("ratios within this run are the figures to compare; absolute req/s move with whatever else runs on"
                + " the machine. CPU per request is the steadier measure");
        if (o.profile) {
            for (Target t : targets) {
                profile(t.name(), service, t.source());
            }
        }
    }

    /** Warm-up, a closed-loop pass with CPU per request, and (when {@code paced > 0}) a paced pass. */
    private ReadReport.Endpoint endpoint(String name, String path, boolean probe, Server server, ReadLoad.Source source,
                                         double paced) throws Exception {
        ReadLoad load = new ReadLoad(ServiceLauncher.HOST, server.port(), o.connections);
        load.closed(source, WARM);
        CpuMeter meter = meter(server);
        CpuMeter.Sample before = meter.sample();
        ReadLoad.Result closed = load.closed(source, phase);
        Map<String, Double> cpu = CpuMeter.between(before, meter.sample());
        long n = Math.max(1, closed.total().requests());
        double serverMicros = 1e6 * cpu.getOrDefault("server", 0.0) / n;
        double clientMicros = 1e6 * cpu.getOrDefault("load generator", 0.0) / n;
        ReadLoad.KindResult pacedResult = null;
        if (paced > 0) {
            load.paced(source, Duration.ofSeconds(1), paced); // connections settle into the pace first
            pacedResult = load.paced(source, phase, paced).total();
        }
        log(String.format(Locale.ROOT, "%-22s %,8.0f req/s  p99 %6.2f ms  %5.0f µs server CPU/req%s", name,
                closed.total().perSecond(), closed.total().latency().p99(), serverMicros,
                pacedResult == null ? "" : String.format(Locale.ROOT, "  p99 %6.2f ms at %,.0f req/s",
                        pacedResult.latency().p99(), pacedResult.perSecond())));
        return new ReadReport.Endpoint(name, path, probe, closed.total(), serverMicros, clientMicros, pacedResult);
    }

    private ReadReport.Mix mix(Server service, BoxofficeApi api, List<String> seatIds, List<String> tokens,
                               List<String> searches, double rate, double churn) throws Exception {
        String name = churn == 0 ? "on-sale mix, seat map unchanged" : String.format(Locale.ROOT,
                "on-sale mix, %.1f holds/s", churn);
        OnSaleMix source = new OnSaleMix(SHOW, EVENT, searches, o.connections, rate, 2.0, MIX_WEIGHTS, o.seed);
        ReadLoad load = new ReadLoad(ServiceLauncher.HOST, service.port(), o.connections);
        HoldTraffic holds = churn > 0 ? new HoldTraffic(ServiceLauncher.HOST, service.port(), SHOW, seatIds, tokens, churn) : null;
        try {
            load.paced(source, MIX_WARM, rate); // every fan gets a map (and its ETag) first
            Duration length = phase.compareTo(Duration.ofSeconds(6)) < 0 ? Duration.ofSeconds(6) : phase;
            CpuMeter meter = meter(service);
            CpuMeter.Sample before = meter.sample();
            long holdsBefore = holds == null ? 0 : holds.holds();
            ReadLoad.Result result = load.paced(source, length, rate);
            double serverSeconds = CpuMeter.between(before, meter.sample()).getOrDefault("server", 0.0);
            long made = holds == null ? 0 : holds.holds() - holdsBefore;
            ReadLoad.KindResult polls = result.kinds().get(OnSaleMix.POLL);
            log(String.format(Locale.ROOT, "%s: %,.0f req/s, p99 %.2f ms, %.1f%% of polls 304", name,
                    result.total().perSecond(), result.total().latency().p99(),
                    polls == null ? 0 : 100 * polls.notModifiedShare()));
            return new ReadReport.Mix(name, rate, churn, made, source.fansPerConnection(), result,
                    1e6 * serverSeconds / Math.max(1, result.total().requests()));
        } finally {
            if (holds != null) {
                holds.close();
                if (holds.failures() > 0) {
                    report.note(name + ": " + holds.failures() + " holds were refused or failed");
                }
            }
        }
    }

    private void profile(String name, Server server, ReadLoad.Source source) throws Exception {
        Path jcmd = o.java.toAbsolutePath().resolveSibling("jcmd");
        ReadLoad load = new ReadLoad(ServiceLauncher.HOST, server.port(), o.connections);
        JfrProfile.start(Files.isExecutable(jcmd) ? jcmd : Path.of("jcmd"), server.pid());
        load.closed(source, phase);
        Path file = out.resolve("service-" + name.replaceAll("[^a-z0-9]+", "-") + ".jfr");
        JfrProfile.dumpAndStop(Files.isExecutable(jcmd) ? jcmd : Path.of("jcmd"), server.pid(), file);
        report.profile(name, JfrProfile.summarize(file));
        log("profiled " + name + " -> " + file.getFileName());
    }

    /** The machine's 1, 5 and 15-minute load averages (other work on the same cores shows here). */
    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2] + " (" + Runtime.getRuntime().availableProcessors() + " cores)";
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static CpuMeter meter(Server server) {
        Map<String, java.util.function.Supplier<List<ProcessHandle>>> groups = new LinkedHashMap<>();
        groups.put("load generator", () -> List.of(ProcessHandle.current()));
        groups.put("server", () -> ProcessHandle.of(server.pid()).stream().toList());
        return new CpuMeter(groups);
    }

    private Server startBaseline(Database db) throws Exception {
        int port = ChildProcess.freePort();
        List<String> command = new ArrayList<>();
        command.add(o.java.toString());
        command.addAll(jvmOptions());
        command.addAll(List.of("-cp", Path.of(ReadBench.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString(),
                BaselineServer.class.getName(), "--port", Integer.toString(port), "--db-url", db.url(),
                "--db-user", db.user(), "--db-password", db.password(), "--pool", "2",
                "--secret", RunEnvironment.randomHex(32)));
        log("starting the baseline server (its /health is the empty handler) on port " + port);
        ChildProcess server = ChildProcess.start("baseline", command, Map.of(), out.resolve("baseline.log"));
        resources.push(server);
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (true) {
            try (HttpConnection c = new HttpConnection(ServiceLauncher.HOST, port)) {
                if (c.get("/health", null).status() == 200) {
                    return new Server("baseline", port, server.pid());
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (!server.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("the baseline server did not come up:\n" + server.tail(30));
            }
            Thread.sleep(200);
        }
    }

    /** The service as the flash-sale bench starts it: its own cluster, dev tokens, the demo catalog. */
    private Server startService(Database db, Path work) throws Exception {
        ServiceLauncher.Started started = ServiceLauncher.start(o, db, work.resolve("service"), ServiceLauncher.aotCache(o),
                out.resolve("service.log"));
        resources.push(started.process());
        return new Server("service", started.port(), started.process().pid());
    }

    private List<String> jvmOptions() {
        return ServiceLauncher.jvmOptions(o);
    }

    /** The commit the jars were built from, marked when the working tree differed. */
    private static String codeVersion() {
        try {
            Process git = new ProcessBuilder("git", "describe", "--always", "--dirty").redirectErrorStream(true).start();
            String out = new String(git.getInputStream().readAllBytes()).trim();
            return git.waitFor() == 0 ? out : "unknown";
        } catch (IOException e) {
            return "unknown (no git)";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    private static void log(String message) {
        System.out.println("bench: " + message);
    }
}
