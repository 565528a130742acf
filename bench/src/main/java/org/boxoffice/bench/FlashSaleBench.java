package org.boxoffice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.bench.baseline.BaselineSchema;
import org.boxoffice.bench.baseline.BaselineServer;
import org.boxoffice.bench.baseline.ClaimStrategy;
import org.boxoffice.bench.baseline.Hs256;
import org.boxoffice.bench.check.BookingChecker;
import org.boxoffice.bench.check.BookingState;
import org.boxoffice.bench.check.RunChecker;
import org.boxoffice.bench.check.ReferenceState;
import org.boxoffice.bench.http.BoxofficeApi;
import org.boxoffice.bench.http.HttpConnection;
import org.boxoffice.bench.http.HttpResponse;
import org.boxoffice.bench.load.BotSwarm;
import org.boxoffice.bench.load.Buyer;
import org.boxoffice.bench.load.LoadRun;
import org.boxoffice.bench.load.OpenLoopRun;
import org.boxoffice.bench.load.Sweep;
import org.boxoffice.bench.load.RunResult;
import org.boxoffice.bench.load.SeatMap;
import org.boxoffice.bench.load.ShowPlan;
import org.boxoffice.bench.load.Target;
import org.boxoffice.bench.probe.CpuMeter;
import org.boxoffice.bench.probe.ExpiryCheck;
import org.boxoffice.bench.probe.HeapFootprint;
import org.boxoffice.bench.probe.HttpCeiling;
import org.boxoffice.bench.probe.JfrProfile;
import org.boxoffice.bench.probe.PhaseCost;
import org.boxoffice.bench.probe.RefereeStats;
import org.boxoffice.bench.report.BenchReport;
import org.boxoffice.bench.report.Chart;
import org.boxoffice.bench.report.HalfRate;
import org.boxoffice.bench.report.ResultsJson;
import org.boxoffice.bench.report.SummaryTable;
import org.boxoffice.bench.report.SystemOutcome;
import org.boxoffice.bench.report.Targets;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * One complete bench run: PostgreSQL, then Boxoffice (start, warm up, sell the hot show, check
 * the invariants, the expiry and the heap), then each PostgreSQL-only baseline behind its own HTTP
 * server on the same database with the same crowd, then the report. Systems run one after the
 * other, never side by side, and each server is stopped before the next starts, so every system
 * has the machine to itself (apart from the load generator, which every system shares alike).
 */
final class FlashSaleBench {

    private static final String HOST = "127.0.0.1";
    private static final int HOLD_SECONDS = 420;
    /** The service's default grace; the invariant check counts a hold as live this long past expiresAt. */
    private static final long BOXOFFICE_GRACE_MS = 5_000;
    private static final int WARMUP_SEATS = 5_000;
    private static final int MEMORY_SHOWS = 5;
    /** How often the warm-up scrapes Boxoffice's metrics endpoint (Prometheus's usual 15 s, shortened to fit a 30 s warm-up). */
    static final Duration METRICS_SCRAPE_EVERY = Duration.ofSeconds(5);
    /** --warmup auto: warm until the JIT compiler uses less than this share of a core over a step. */
    private static final double WARM_JIT_SHARE = 0.10;
    private static final Duration WARM_STEP = Duration.ofSeconds(5);
    /** Offered attempts/s of the stampede part of the warm-up when {@code --rate} is not given (the sweep's rates are not known yet). */
    static final double STAMPEDE_WARMUP_RATE = 2_000;
    /**
     * The stampede part of the warm-up sells out one fresh warm-up show per this much time, so the
     * winners' path runs as often as in a few sales (a 5,000-seat show sells out in 1–2 s at 2,000–4,000 attempts/s).
     */
    private static final Duration WARMUP_SALE = Duration.ofMillis(2_500);
    /** Distinct hold attempts the refusal ceiling cycles through. */
    private static final int REFUSAL_REQUESTS = 4_096;
    /** How long the booking check waits for the last settlements and refunds to finish. */
    private static final Duration SETTLE_WAIT = Duration.ofSeconds(30);

    /**
     * The waiting room door's proof of work in the bench: PBKDF2 rounds per key derivation and
     * derivations per challenge on average. Far below a browser's default (docs/web.md), so that one
     * load-generator thread can solve a challenge for each of tens of thousands of fans; the
     * service's work per challenge (one derivation to issue, two HMACs to check) is the same shape.
     */
    static final int DOOR_COST = 100;
    static final int DOOR_DIFFICULTY = 2;
    /** The bots-only phases after the sale that price a bot request and a plain one. */
    private static final Duration BOT_PRICE_PHASE = Duration.ofSeconds(5);

    private final BenchOptions o;
    private final Path out;
    /** With {@code --bots}: the swarm, its accounts, and what it did during the measured run. */
    private BotSwarm swarm;
    private int botAccounts;
    private BotSwarm.Report botsDuringSale;
    /** With {@code --sweep} and no {@code --rate}: Boxoffice's second sale, at half its best rate. */
    private HalfRate halfRate;
    private final List<String> notes = new ArrayList<>();
    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private HttpCeiling.Result ceiling;
    private HttpCeiling.Result pacedFloor;

    FlashSaleBench(BenchOptions options) {
        this.o = options;
        this.out = options.out != null ? options.out
                : Path.of("bench", "results", DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now()));
    }

    private record BoxofficeOutcome(SystemOutcome outcome, ExpiryCheck.Result expiry, HeapFootprint.Result memory) {
    }

    int run() throws Exception {
        Instant started = Instant.now();
        Files.createDirectories(out);
        Path work = Files.createTempDirectory("boxoffice-bench-");
        Thread hook = new Thread(this::closeAll, "bench-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            Database db = openDatabase(work);
            List<SystemOutcome> systems = new ArrayList<>();
            BoxofficeOutcome box = boxoffice(db, work);
            systems.add(box.outcome());
            systems.addAll(baselines(db, box.outcome()));

            BenchReport report = new BenchReport(started, RunDescription.machine(db), o.shownCommand(), new RunDescription(o).settings(), systems, ceiling,
                    box.expiry(), box.memory(), o.stampede ? Targets.stampede(systems, ceiling, pacedFloor, halfRate)
                    : Targets.evaluate(systems, box.expiry(), box.memory()), notes);
            ResultsJson.write(report, out.resolve("results.json"));
            Chart.write(systems.stream().map(SystemOutcome::run).toList(),
                    String.format(Locale.ROOT, "Flash sale: %,d seats, %,d buyers, %d connections (%s)",
                            o.seats, o.buyers(), o.connections, report.machine().get("summary")),
                    out.resolve("chart.png"));
            Map<String, Sweep.Result> sweeps = new LinkedHashMap<>();
            systems.stream().filter(s -> s.sweep() != null).forEach(s -> sweeps.put(s.run().system(), s.sweep()));
            if (!sweeps.isEmpty()) {
                Chart.writeSweep(sweeps, String.format(Locale.ROOT, "Stampede rate sweep: %,d seats, %,d buyers, %d connections,"
                        + " %d s per rate (%s)", o.seats, o.buyers(), o.connections, o.sweepStep.toSeconds(),
                        report.machine().get("summary")), out.resolve("sweep.png"));
            }
            String summary = SummaryTable.render(report);
            Files.writeString(out.resolve("summary.txt"), summary);
            System.out.println(summary);
            System.out.println("results: " + out.toAbsolutePath());
            long violations = report.violations() + (halfRate == null ? 0 : halfRate.violations());
            if (violations > 0) {
                System.out.println("\n!!!!!!!! " + violations + " INVARIANT VIOLATION(S): a seat was held or sold twice,"
                        + " an acknowledged hold or booking is not in PostgreSQL, or money was not conserved."
                        + " See results.json. !!!!!!!!");
                return 1;
            }
            return 0;
        } finally {
            closeAll();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running already
            }
            deleteRecursively(work);
        }
    }

    private Database openDatabase(Path work) {
        Database db;
        if (o.dbUrl != null) {
            db = Database.external(o.dbUrl, o.dbUser, o.dbPassword);
        } else if (o.url == null) {
            log("starting PostgreSQL (embedded) in " + work);
            db = Database.embedded(work.resolve("postgres"));
        } else {
            notes.add("no --db-url with --url: baselines and invariant checks skipped");
            return null;
        }
        resources.push(db);
        return db;
    }

    // ---------------------------------------------------------------- Boxoffice

    private BoxofficeOutcome boxoffice(Database db, Path work) throws Exception {
        ChildProcess service = null;
        BoxofficeApi api;
        if (o.url != null) {
            URI uri = URI.create(o.url);
            api = new BoxofficeApi(uri.getHost(), uri.getPort() > 0 ? uri.getPort() : 80);
            log("using the service at " + o.url);
            api.awaitReady(Duration.ofMinutes(1), () -> true);
        } else {
            ServiceLauncher.Started started = ServiceLauncher.start(o, db, work.resolve("service"), ServiceLauncher.aotCache(o),
                    out.resolve("service.log"));
            service = started.process();
            resources.push(service);
            api = started.api();
        }
        String admin = api.adminToken();
        long t0 = System.nanoTime();
        List<String> tokens = api.tokens(Buyer.accountIds(o.buyers()), o.connections);
        log(String.format(Locale.ROOT, "%,d buyer tokens in %.1f s", tokens.size(), (System.nanoTime() - t0) / 1e9));

        JsonNode created = api.createShow(admin, ShowPlan.createRequest(o.event, ShowPlan.regularSections(o.seats),
                HOLD_SECONDS, null, o.blockGroups));
        String showId = created.path("showId").asText();
        ShowPlan plan = ShowPlan.fromShow(api.show(showId));
        log(String.format(Locale.ROOT, "show %s: %,d seats in %d blocks over %d block groups", showId,
                created.path("seatCount").asInt(), created.path("blocks").asInt(), created.path("blockGroups").asInt()));
        Target target = new Target("boxoffice", api.host(), api.port(), showId, plan);
        List<Buyer> crowd = Buyer.crowd(o.buyers(), o.seed, plan, tokens);

        // the warm-up scrapes the metrics endpoint as a monitoring system would (see RefereeStats.scrapeEvery)
        try (AutoCloseable scraper = RefereeStats.scrapeEvery(api.host(), api.port(), METRICS_SCRAPE_EVERY)) {
            warmUp("boxoffice", crowd, service != null ? service.pid() : -1, () -> {
                JsonNode warm = api.createShow(admin, ShowPlan.createRequest(o.event,
                        ShowPlan.regularSections(Math.min(o.seats, WARMUP_SEATS)), HOLD_SECONDS, null, o.blockGroups));
                String warmId = warm.path("showId").asText();
                return new Target("boxoffice-warmup", api.host(), api.port(), warmId, ShowPlan.fromShow(api.show(warmId)));
            });
        }
        Sweep.Result sweep = sweep("boxoffice", crowd, () -> {
            JsonNode trial = api.createShow(admin, ShowPlan.createRequest(o.event, ShowPlan.regularSections(o.seats),
                    HOLD_SECONDS, null, o.blockGroups));
            String trialId = trial.path("showId").asText();
            return new Target("boxoffice", api.host(), api.port(), trialId, ShowPlan.fromShow(api.show(trialId)));
        });
        LoadRun.Room room = null;
        if (o.waitingRoom != null) {
            api.openWaitingRoom(admin, showId, o.waitingRoom, DOOR_DIFFICULTY);
            long joined = System.nanoTime();
            if (o.bots > 0) {
                crowd = withBots(api, target, crowd);
            }
            room = LoadRun.joinQueue(api, showId, crowd, o.connections);
            if (swarm != null) {
                swarm = swarm.withLeadTickets(room);
            }
            log(String.format(Locale.ROOT, "%,d buyers joined the waiting room in %.1f s; admitting %.0f a second",
                    room.tickets().size(), (System.nanoTime() - joined) / 1e9, o.waitingRoom));
            notes.add("boxoffice sold through its waiting room at " + o.waitingRoom + " admissions/s; the baselines have no waiting room");
        }
        if (db != null) {
            db.checkpoint();
        }
        long pid = service != null ? service.pid() : -1;
        RefereeStats refereeBefore = RefereeStats.read(api.host(), api.port());
        boolean profiling = o.profile && service != null;
        if (profiling) {
            JfrProfile.start(jcmd(), pid);
            if (o.stampede) {
                notes.add("profiled (--profile): starting the recording as the stampede starts deoptimizes and recompiles"
                        + " hundreds of methods during the sell-out burst; this run's latency and CPU figures are not comparable"
                        + " with unprofiled runs");
            }
        }
        SystemOutcome outcome = measure(target, crowd, room, sweep, db, pid, o.pay, () -> {
            if (db == null) {
                return null;
            }
            try (Connection c = db.connect()) {
                return ReferenceState.boxoffice(c, showId);
            }
        }, () -> {
            if (db == null) {
                return null;
            }
            try (Connection c = db.connect()) {
                return BookingState.load(c, showId);
            }
        }, BOXOFFICE_GRACE_MS, () -> {
            if (!profiling) {
                return null;
            }
            Path file = out.resolve("service.jfr");
            JfrProfile.dumpAndStop(jcmd(), pid, file);
            return JfrProfile.summarize(file);
        });
        if (o.profile && service == null) {
            notes.add("--profile needs a service the bench starts itself; not profiled");
        }
        RefereeStats refereeAfter = RefereeStats.read(api.host(), api.port());
        if (refereeBefore != null && refereeAfter != null) {
            notes.add(refereeAfter.since(refereeBefore));
        }
        if (o.stampede && o.rate == null && room == null && sweep != null && sweep.bestRate() != null && db != null) {
            halfRate = halfRate(api, admin, crowd, sweep.bestRate() / 2, db);
        }

        ExpiryCheck.Result expiry = null;
        if (o.expiry) {
            log("expiry check");
            expiry = ExpiryCheck.run(api, admin, o.event);
        }
        HeapFootprint.Result memory = null;
        if (o.memory && service != null) {
            log("heap footprint: a 60,000-seat show, then " + MEMORY_SHOWS + " shows of " + o.seats + " seats");
            memory = HeapFootprint.measure(jcmd(), pid, api, admin, o.event, MEMORY_SHOWS, o.seats);
        } else if (o.memory) {
            notes.add("heap footprint needs a service the bench starts itself; not measured");
        }
        if (swarm != null) {
            // a show of the demo catalog nobody queues for: where a signed-in plain request is asked
            botFigures(outcome, crowd, db, pid, "comedy-2");
        }
        if (service != null) {
            resources.remove(service);
            service.close();
        }
        return new BoxofficeOutcome(outcome, expiry, memory);
    }

    /**
     * Issue 17's latency target: a second Boxoffice sale, open loop at {@code rate} (half the sweep's
     * best), on a fresh show of the measured show's size, right after the measured run (so that run
     * is measured as before), with the same crowd, then the same invariant check.
     */
    private HalfRate halfRate(BoxofficeApi api, String admin, List<Buyer> crowd, double rate, Database db) throws Exception {
        JsonNode created = api.createShow(admin, ShowPlan.createRequest(o.event, ShowPlan.regularSections(o.seats),
                HOLD_SECONDS, null, o.blockGroups));
        String halfId = created.path("showId").asText();
        Target half = new Target("boxoffice", api.host(), api.port(), halfId, ShowPlan.fromShow(api.show(halfId)));
        db.checkpoint();
        log(String.format(Locale.ROOT, "half rate: stampede on boxoffice's %s at %,.0f attempts/s (half its best) for %d s",
                halfId, rate, o.duration.toSeconds()));
        RunResult run = new OpenLoopRun(half, crowd, openLoop(rate, o.duration), null).run();
        RunChecker.Report invariants;
        try (Connection c = db.connect()) {
            ReferenceState state = ReferenceState.boxoffice(c, halfId);
            invariants = RunChecker.check(run.acked(), run.released(), run.paid(), state.seats(), state.holds(),
                    System.currentTimeMillis(), BOXOFFICE_GRACE_MS);
        }
        HalfRate result = new HalfRate(rate, run.holdLatency().p99(), run.successfulHoldLatency().p99(),
                run.readLatency().p99(), invariants.violations());
        log(String.format(Locale.ROOT, "half rate: hold p99 %.1f ms (winners' %.1f ms), seat-map p99 %.1f ms, %s; invariant violations: %d%s",
                result.holdP99Ms(), result.winnersP99Ms(), result.readP99Ms(),
                run.soldOut() ? String.format(Locale.ROOT, "sold out in %.1f s", run.sellOutSeconds()) : "not sold out",
                result.violations(), result.violations() > 0 ? "  <<<<<<<<<<<<<<<< VIOLATION" : ""));
        notes.add(String.format(Locale.ROOT, "half rate: a second sale at %,.0f attempts/s on a fresh show of %,d seats:"
                        + " hold p50/p99 %.1f / %.1f ms, winners' p99 %.1f ms, seat-map p99 %.1f ms, %s, %d invariant violations",
                rate, o.seats, run.holdLatency().p50(), result.holdP99Ms(), result.winnersP99Ms(), result.readP99Ms(),
                run.soldOut() ? String.format(Locale.ROOT, "sold out in %.1f s", run.sellOutSeconds()) : "not sold out",
                result.violations()));
        return result;
    }

    /** Bot requests a second beside the crowd's offered hold attempts: the crowd's share that are bots. */
    private double botRate(double humanRate) {
        return humanRate * o.bots / (1 - o.bots);
    }

    /**
     * Makes the bots of {@code --bots}: as many accounts as make that share of the whole crowd, in
     * controllers of {@link BotSwarm#ACCOUNTS_PER_CONTROLLER}, each from one address. Each controller's
     * lead joins the room with the crowd (solving its challenge honestly) and buys like a fan; the
     * others only cheat. Returns the crowd with the leads.
     */
    private List<Buyer> withBots(BoxofficeApi api, Target target, List<Buyer> humans) throws InterruptedException {
        botAccounts = (int) Math.round(humans.size() * o.bots / (1 - o.bots));
        int controllers = Math.max(1, botAccounts / BotSwarm.ACCOUNTS_PER_CONTROLLER);
        int perController = Math.max(3, botAccounts / controllers);
        botAccounts = controllers * perController;
        List<String> ids = new ArrayList<>();
        for (int c = 0; c < controllers; c++) {
            for (int a = 0; a < perController; a++) {
                ids.add("bot-" + c + "-" + a);
            }
        }
        long t0 = System.nanoTime();
        List<String> tokens = api.tokens(ids, o.connections);
        log(String.format(Locale.ROOT, "%,d bot tokens in %.1f s", tokens.size(), (System.nanoTime() - t0) / 1e9));
        List<BotSwarm.Controller> list = new ArrayList<>();
        List<Buyer> crowd = new ArrayList<>(humans);
        for (int c = 0; c < controllers; c++) {
            int first = c * perController;
            list.add(new BotSwarm.Controller("172.16." + (c >> 8) + "." + (c & 255), ids.subList(first, first + perController),
                    tokens.subList(first, first + perController), null));
        }
        // each lead joins among the crowd (spread through it, as the crowd joins in its order), asking
        // for as many seats as a scalper wants in the best section
        for (int c = controllers - 1; c >= 0; c--) {
            int first = c * perController;
            crowd.add((int) ((long) humans.size() * c / controllers),
                    new Buyer(ids.get(first), tokens.get(first), 4, target.plan().sectionsByRank().get(0).name()));
        }
        swarm = new BotSwarm(target, list, o.seed);
        return crowd;
    }

    /** Seats per account, the bots' refusals by reason, and what a bot request costs the service against a plain one. */
    private void botFigures(SystemOutcome outcome, List<Buyer> crowd, Database db, long pid, String quietShow) throws Exception {
        long humans = crowd.stream().filter(b -> !b.accountId().startsWith("bot-")).count();
        long humanSeats = 0;
        long botSeats = 0;
        long leadSeats = 0;
        for (var a : outcome.run().acked()) {
            if (a.accountId().startsWith("bot-")) {
                leadSeats += a.seatIds().size();
            } else {
                humanSeats += a.seatIds().size();
            }
        }
        long cheatSeats = botsDuringSale == null ? 0 : botsDuringSale.seats();
        botSeats = leadSeats + cheatSeats;
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("humanAccounts", humans);
        figures.put("botAccounts", botAccounts);
        figures.put("controllers", swarm.controllers());
        figures.put("seatsPerHumanAccount", humans == 0 ? 0 : (double) humanSeats / humans);
        figures.put("seatsPerBotAccount", botAccounts == 0 ? 0 : (double) botSeats / botAccounts);
        figures.put("seatsOfBotLeadsJoiningHonestly", leadSeats);
        figures.put("seatsOfBotsSkippingReplayingOrSharing", cheatSeats);
        figures.put("holdP99Millis", outcome.run().holdLatency().p99());
        if (botsDuringSale != null) {
            figures.put("botRequestsDuringSale", botsDuringSale.requests());
            figures.put("botOutcomesDuringSale", botsDuringSale.outcomes());
        }
        if (pid > 0) {
            // after the sale, alone on the service: what each kind of request costs its CPU, at the bots' pace
            double rate = botRate(measuredRate(null));
            CpuMeter meter = cpuMeter(db, pid);
            Map<String, Object> prices = new LinkedHashMap<>();
            for (BotSwarm.Mix mix : BotSwarm.Mix.values()) {
                CpuMeter.Sample s0 = meter.sample();
                BotSwarm.Report r = swarm.price(mix, rate, BOT_PRICE_PHASE, quietShow);
                CpuMeter.Sample s1 = meter.sample();
                long micros = Math.round(CpuMeter.between(s0, s1).getOrDefault("server", 0.0) * 1e6 / Math.max(1, r.requests()));
                Map<String, Object> price = new LinkedHashMap<>();
                price.put("requests", r.requests());
                price.put("serverMicrosPerRequest", micros);
                price.put("outcomes", r.outcomes());
                prices.put(mix.name(), price);
                log(String.format(Locale.ROOT, "bots alone, %s: %,d requests in %.0f s, %d us of server CPU each; %s", mix,
                        r.requests(), r.seconds(), micros, r.outcomes()));
            }
            figures.put("serverCpuAloneAfterTheSale", prices);
        }
        log(String.format(Locale.ROOT, "bots: seats per account: humans %.3f, bots %.3f (leads who joined honestly: %,d seats;"
                        + " skipping, replaying or sharing: %,d seats)", figures.get("seatsPerHumanAccount"),
                figures.get("seatsPerBotAccount"), leadSeats, cheatSeats));
        if (botsDuringSale != null) {
            log("bots: their requests during the sale by outcome: " + botsDuringSale.outcomes());
        }
        notes.add("bots (--bots " + o.bots + "): " + figures);
        Files.writeString(out.resolve("bots.json"), new com.fasterxml.jackson.databind.ObjectMapper()
                .writerWithDefaultPrettyPrinter().writeValueAsString(figures));
    }

    // ---------------------------------------------------------------- baselines

    private List<SystemOutcome> baselines(Database db, SystemOutcome box) throws Exception {
        if (!o.baselines) {
            notes.add("baselines skipped (--no-baselines)");
            return List.of();
        }
        if (db == null) {
            return List.of();
        }
        if (o.pay > 0) {
            notes.add("the baselines have no checkout: their buyers keep their holds and do not pay (--pay applies to boxoffice only)");
        }
        try (Connection c = db.connect()) {
            BaselineSchema.recreate(c);
        }
        String secret = HexFormat.of().formatHex(randomBytes(32));
        Hs256 jwt = new Hs256(secret);
        long expires = Instant.now().plus(Duration.ofHours(12)).getEpochSecond();
        int port = ChildProcess.freePort();
        List<String> command = new ArrayList<>();
        command.add(o.java.toString());
        command.addAll(jvmOptions());
        command.addAll(List.of("-cp", benchJar().toString(), BaselineServer.class.getName(), "--port", Integer.toString(port),
                "--db-url", db.url(), "--db-user", db.user(), "--db-password", db.password(),
                "--pool", Integer.toString(o.baselinePool), "--secret", secret));
        log("starting the baseline server on port " + port + " (pool " + o.baselinePool + ")");
        ChildProcess server = ChildProcess.start("baseline", command, Map.of(), out.resolve("baseline.log"));
        resources.push(server);
        awaitHealth(port, server);
        // a first pass warms the server and the client, the second is the figure
        CpuMeter ceilingMeter = cpuMeter(null, server.pid());
        HttpCeiling.measure(HOST, port, "/health", o.connections, Duration.ofSeconds(1), ceilingMeter);
        ceiling = HttpCeiling.measure(HOST, port, "/health", o.connections, Duration.ofSeconds(3), ceilingMeter);
        if (box.run().openLoop() != null) {
            double rate = box.run().openLoop().offeredPerSecond();
            pacedFloor = HttpCeiling.paced(HOST, port, "/health", o.connections, rate, Duration.ofSeconds(5), ceilingMeter);
            notes.add(String.format(Locale.ROOT, "empty handler paced at boxoffice's offered %,.0f requests/s (open loop, "
                    + "5 s): %.1f us of server CPU a request (%.1f us at its ceiling); a request's cost depends on the rate",
                    rate, pacedFloor.serverMicrosPerRequest(), ceiling.serverMicrosPerRequest()));
        }
        log(String.format(Locale.ROOT, "HTTP ceiling (empty handler, same web server and client): %,.0f requests/s;"
                        + " CPU per request: server %.0f us, load generator %.0f us",
                ceiling.requestsPerSecond(), ceiling.serverMicrosPerRequest(), ceiling.generatorMicrosPerRequest()));

        ShowPlan plan = ShowPlan.of(ShowPlan.regularSections(o.seats));
        ShowPlan warmPlan = ShowPlan.of(ShowPlan.regularSections(Math.min(o.seats, WARMUP_SEATS)));
        List<String> ids = Buyer.accountIds(o.buyers());
        List<String> tokens = ids.stream().map(id -> jwt.mint(id, expires)).toList();
        List<Buyer> crowd = Buyer.crowd(o.buyers(), o.seed, plan, tokens);
        List<SystemOutcome> outcomes = new ArrayList<>();
        for (ClaimStrategy strategy : List.of(ClaimStrategy.CONDITIONAL, ClaimStrategy.FOR_UPDATE)) {
            String showId = "bl-" + strategy.name().toLowerCase(Locale.ROOT).replace('_', '-');
            try (Connection c = db.connect()) {
                BaselineSchema.createShow(c, showId, strategy, HOLD_SECONDS * 1000L, plan);
            }
            int[] warmShows = {0};
            warmUp(strategy.systemName(), crowd, server.pid(), () -> {
                String warmId = showId + "-warmup-" + ++warmShows[0];
                try (Connection c = db.connect()) {
                    BaselineSchema.createShow(c, warmId, strategy, HOLD_SECONDS * 1000L, warmPlan);
                }
                return new Target(strategy.systemName() + "-warmup", HOST, port, warmId, warmPlan);
            });
            int[] trials = {0};
            Sweep.Result sweep = sweep(strategy.systemName(), crowd, () -> {
                String trialId = showId + "-trial-" + ++trials[0];
                try (Connection c = db.connect()) {
                    BaselineSchema.createShow(c, trialId, strategy, HOLD_SECONDS * 1000L, plan);
                }
                return new Target(strategy.systemName(), HOST, port, trialId, plan);
            });
            db.checkpoint();
            Target target = new Target(strategy.systemName(), HOST, port, showId, plan);
            outcomes.add(measure(target, crowd, null, sweep, db, server.pid(), 0, () -> {
                try (Connection c = db.connect()) {
                    return ReferenceState.baseline(c, showId);
                }
            }, () -> null, 0, () -> null));
        }
        resources.remove(server);
        server.close();
        return outcomes;
    }

    // ---------------------------------------------------------------- shared

    private interface Step<T> {
        T get() throws Exception;
    }

    /**
     * The measured run, then the seats left, the invariant and booking checks and the server's profile.
     *
     * @param payShare share of the buyers keeping their hold who pay for it (0 for the baselines: no checkout)
     * @param bookingReferee the show's bookings and money, or null where there is no checkout
     */
    private SystemOutcome measure(Target target, List<Buyer> crowd, LoadRun.Room room, Sweep.Result sweep, Database db, long serverPid,
                                  double payShare, Step<ReferenceState> referee, Step<BookingState> bookingReferee,
                                  long graceMillis, Step<JfrProfile.Summary> profile) throws Exception {
        CpuMeter meter = cpuMeter(db, serverPid);
        log("selling " + target.showId() + " on " + target.name());
        Map<String, Long> threadsBefore = serverPid > 0 ? CpuMeter.threadKinds(serverPid) : Map.of();
        CpuMeter.Sample before = meter.sample();
        double rate = measuredRate(sweep);
        if (o.stampede) {
            log(String.format(Locale.ROOT, "stampede on %s: %,.0f hold attempts/s offered for %d s", target.name(), rate,
                    o.duration.toSeconds()));
        }
        // the stampede's CPU over time, to price the refusals after the sell-out on their own
        List<CpuMeter.Sample> cpuOverTime = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.ScheduledExecutorService sampler = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        if (o.stampede) {
            sampler.scheduleAtFixedRate(() -> {
                // an exception would cancel the schedule silently: a sample that fails is skipped
                try {
                    cpuOverTime.add(meter.sample());
                } catch (RuntimeException e) {
                    System.err.println("bench: CPU sample failed: " + e);
                }
            }, 0, PhaseCost.SAMPLE_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
        }
        RunResult run;
        java.util.concurrent.atomic.AtomicBoolean saleOver = new java.util.concurrent.atomic.AtomicBoolean();
        BotSwarm.Report[] bots = new BotSwarm.Report[1];
        Thread botThread = null;
        if (swarm != null && room != null && target.name().equals("boxoffice")) {
            double botRate = botRate(rate);
            log(String.format(Locale.ROOT, "bots: %,d accounts in %d controllers, %,.0f requests/s beside the crowd",
                    botAccounts, swarm.controllers(), botRate));
            botThread = Thread.ofPlatform().name("bench-bots").start(() ->
                    bots[0] = swarm.run(botRate, o.duration.plusSeconds(15), saleOver::get));
        }
        try {
            run = o.stampede ? new OpenLoopRun(target, crowd, openLoop(rate, o.duration), room).run()
                    : new LoadRun(target, crowd, settings(o.duration, o.abandon, payShare, false), room).run();
        } finally {
            saleOver.set(true);
            if (botThread != null) {
                botThread.join();
            }
            sampler.shutdown();
            sampler.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
        }
        List<org.boxoffice.bench.check.AckedHold> acked = run.acked();
        if (bots[0] != null) {
            botsDuringSale = bots[0];
            acked = new ArrayList<>(run.acked());
            acked.addAll(bots[0].acked());
        }
        CpuMeter.Sample after = meter.sample();
        // the run ends after its last timeline point: this sample closes the series past it
        cpuOverTime.add(after);
        PhaseCost refusals = PhaseCost.afterSellOut(run, List.copyOf(cpuOverTime));
        if (o.stampede && run.openLoop() != null && !cpuOverTime.isEmpty()) {
            log(String.format(Locale.ROOT, "%s: %d CPU samples from %+.2f s to %+.2f s of the run", target.name(), cpuOverTime.size(),
                    (cpuOverTime.get(0).atNanos() - run.openLoop().startNanos()) / 1e9,
                    (cpuOverTime.get(cpuOverTime.size() - 1).atNanos() - run.openLoop().startNanos()) / 1e9));
        }
        Map<String, Double> serverThreads = new LinkedHashMap<>();
        if (serverPid > 0) {
            CpuMeter.threadKinds(serverPid).entrySet().stream()
                    .map(e -> Map.entry(e.getKey(), (e.getValue() - threadsBefore.getOrDefault(e.getKey(), 0L)) / 1e9))
                    .filter(e -> e.getValue() >= 0.05)
                    .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                    .forEach(e -> serverThreads.put(e.getKey(), Math.round(e.getValue() * 10) / 10.0));
        }
        log(String.format(Locale.ROOT, "%s: %,.0f hold attempts/s, %,.0f successful holds/s, %s", target.name(),
                run.attemptsPerSecond(), run.holdsPerSecond(),
                run.soldOut() ? String.format(Locale.ROOT, "sold out in %.1f s", run.sellOutSeconds()) : "not sold out"));
        if (run.checkouts() != null) {
            var p = run.checkouts();
            log(String.format(Locale.ROOT, "%s: %,d buyers paid: %,d booked (%,d after pending), %,d pending, %,d declined,"
                            + " %,d failed; %,.0f booked seats/s", target.name(), p.buyers(), p.allBooked(),
                    p.bookedAfterPending(), p.pending(), p.declined(), p.failed(), run.bookedSeatsPerSecond()));
        }
        JfrProfile.Summary summary = profile.get();
        // let the seat-map snapshot catch up with the last holds before reading it
        Thread.sleep(1_000);
        Integer left = seatsLeft(target);
        BookingState bookingState = run.checkouts() != null ? settled(target.name(), bookingReferee) : null;
        RunChecker.Report invariants = null;
        BookingChecker.Report bookings = null;
        ReferenceState state = referee.get();
        if (state != null) {
            invariants = RunChecker.check(acked, run.released(), run.paid(), state.seats(), state.holds(),
                    System.currentTimeMillis(), graceMillis);
            if (bookingState != null) {
                bookings = BookingChecker.check(run.booked(), state.seats(), bookingState);
            }
            long violations = invariants.violations() + (bookings == null ? 0 : bookings.violations());
            log(target.name() + ": invariant violations: " + violations
                    + (violations > 0 ? "  <<<<<<<<<<<<<<<< VIOLATION" : ""));
        }
        HttpCeiling.Result refusalCeiling = o.stampede && run.soldOut() ? refusalCeiling(target, crowd, meter) : null;
        return new SystemOutcome(run, invariants, bookings, CpuMeter.between(before, after), serverThreads, left, summary,
                sweep, refusals, refusalCeiling);
    }

    /**
     * Refusals at their ceiling, on the sold-out show after its checks: closed loop over the same
     * connections as the empty handler's ceiling, hold attempts of the crowd's buyers for random
     * adjacent seats (every one a 409), a 1 s pass to warm and a 3 s pass measured. Compared with
     * the empty handler at its ceiling, this is a refusal's cost measured like for like.
     */
    private HttpCeiling.Result refusalCeiling(Target target, List<Buyer> crowd, CpuMeter meter) throws IOException {
        java.util.function.Function<org.boxoffice.bench.http.NioHttpClient, List<byte[]>> attempts = client -> {
            java.util.SplittableRandom random = new java.util.SplittableRandom(o.seed);
            List<byte[]> out = new ArrayList<>();
            for (int i = 0; i < REFUSAL_REQUESTS; i++) {
                Buyer buyer = crowd.get(random.nextInt(crowd.size()));
                ShowPlan.Section section = target.plan().sections().get(random.nextInt(target.plan().sections().size()));
                int[] seats = org.boxoffice.bench.load.SeatChooser.anyGroup(section, buyer.quantity(), random);
                out.add(client.request("POST", target.holdsPath(), buyer.token(), null, null, LoadRun.seatsBody(seats, target.plan())));
            }
            return out;
        };
        String label = "POST " + target.holdsPath() + " (sold out)";
        HttpCeiling.closedLoop(target.host(), target.port(), label, attempts, 409, o.connections, Duration.ofSeconds(1), meter);
        HttpCeiling.Result r = HttpCeiling.closedLoop(target.host(), target.port(), label, attempts, 409, o.connections,
                Duration.ofSeconds(3), meter);
        log(String.format(Locale.ROOT, "%s: refusals at their ceiling (closed loop, sold-out show): %,.0f/s, server CPU %.1f us"
                        + " a refusal, PostgreSQL %.1f us%s", target.name(), r.requestsPerSecond(), r.serverMicrosPerRequest(),
                r.micros("postgresql"), r.otherAnswers() > 0 ? String.format(Locale.ROOT, " (%,d answers were not 409)", r.otherAnswers()) : ""));
        return r;
    }

    /**
     * The show's bookings once every captured payment is settled and every refund made (the
     * provider's late captures and webhooks keep arriving for a few seconds after the sale), or as
     * they are after {@link #SETTLE_WAIT}; null without a database.
     */
    private BookingState settled(String system, Step<BookingState> bookingReferee) throws Exception {
        long deadline = System.nanoTime() + SETTLE_WAIT.toNanos();
        long t0 = System.nanoTime();
        BookingState state = bookingReferee.get();
        while (state != null && !(state.money().settled() && state.money().conserved()) && System.nanoTime() < deadline) {
            Thread.sleep(500);
            state = bookingReferee.get();
        }
        if (state != null) {
            log(String.format(Locale.ROOT, "%s: payments settled after %.1f s: %s", system, (System.nanoTime() - t0) / 1e9,
                    state.money()));
        }
        return state;
    }

    /**
     * The same crowd on a show of its own for the warm-up time, every hold released at once so the
     * show never sells out: the server's JIT compiles the paths of the sale (409s with
     * alternatives, best available, holds, releases, seat maps) before the clock starts. One show
     * only, because Boxoffice keeps refreshing the seat map of every show read in the last minutes,
     * and a pile of warm-up shows would tax the measured run. Nothing here is measured.
     *
     * <p>With {@code --stampede} the last third of the time is an open-loop stampede on the same
     * show ({@link #STAMPEDE_WARMUP_RATE}/s, or {@code --rate}): it sells the show out, so the
     * sell-out's burst of winners and the flood of stale-map refusals after it are compiled before
     * the clock starts, not during the measured burst (a closed loop that releases every hold never
     * reaches either). Every system gets the same.
     */
    private void warmUp(String system, List<Buyer> crowd, long serverPid, Step<Target> newShow) throws Exception {
        if (o.warmup.isZero()) {
            return;
        }
        Target show = newShow.get();
        if (!o.warmupAuto || serverPid <= 0) {
            Duration closed = o.stampede ? o.warmup.multipliedBy(2).dividedBy(3) : o.warmup;
            Duration stampedes = o.warmup.minus(closed);
            long sales = stampedes.isZero() ? 0 : Math.max(1, stampedes.toMillis() / WARMUP_SALE.toMillis());
            log("warming up " + system + " for " + o.warmup.toSeconds() + " s"
                    + (sales > 0 ? " (the last " + stampedes.toSeconds() + " s stampedes on " + sales + " fresh warm-up shows)" : ""));
            new LoadRun(show, crowd, settings(closed, 1.0, 0, true)).run();
            // a sell-out runs the winners' path a few thousand times: one is not enough for the JIT
            // compiler's last tier, which then compiles it during the measured sell-out instead
            for (long sale = 0; sale < sales; sale++) {
                new OpenLoopRun(sale == 0 ? show : newShow.get(), crowd, openLoop(o.rate != null ? o.rate : STAMPEDE_WARMUP_RATE,
                        stampedes.dividedBy(sales)), null).run();
            }
            return;
        }
        // until the JIT compiler threads use less than a tenth of a core over a 5 s step
        long start = System.nanoTime();
        double jitShare = 1;
        while (jitShare > WARM_JIT_SHARE && System.nanoTime() - start < o.warmup.toNanos()) {
            long jitBefore = CpuMeter.threadKinds(serverPid).getOrDefault(CpuMeter.JIT, 0L);
            long t0 = System.nanoTime();
            new LoadRun(show, crowd, settings(WARM_STEP, 1.0, 0, true)).run();
            long jit = CpuMeter.threadKinds(serverPid).getOrDefault(CpuMeter.JIT, 0L) - jitBefore;
            jitShare = (double) jit / (System.nanoTime() - t0);
        }
        log(String.format(Locale.ROOT, "warmed up %s for %.0f s (JIT compiler at %.0f%% of a core)", system,
                (System.nanoTime() - start) / 1e9, 100 * jitShare));
    }

    /**
     * --sweep: the highest rate the system sustains, each trial on a fresh show of the same size with
     * the same crowd; null without --sweep. Not measured beyond the trials' own figures.
     */
    private Sweep.Result sweep(String system, List<Buyer> crowd, Step<Target> freshShow) throws Exception {
        if (!o.stampede || !o.sweep) {
            return null;
        }
        Sweep.Result result = Sweep.search(BenchOptions.SWEEP_START, BenchOptions.SWEEP_MAX, 2, BenchOptions.SWEEP_BUDGET_MS,
                rate -> {
                    Target show = freshShow.get();
                    Sweep.Step step = Sweep.Step.of(new OpenLoopRun(show, crowd, openLoop(rate, o.sweepStep), null).run(),
                            BenchOptions.SWEEP_BUDGET_MS);
                    log(String.format(Locale.ROOT, "sweep %s: offered %,.0f/s, answered %,.0f/s, hold p50 %.1f ms p99 %.1f ms%s",
                            system, step.offeredPerSecond(), step.achievedPerSecond(), step.holdP50Ms(), step.holdP99Ms(),
                            step.sustained() ? "" : "  (not sustained)"));
                    return step;
                });
        log(String.format(Locale.ROOT, "sweep %s: highest sustained rate %s", system,
                result.bestRate() == null ? "none" : String.format(Locale.ROOT, "%,.0f/s", result.bestRate())));
        return result;
    }

    /** The stampede's measured rate: --rate, else the system's sweep best, else the default. */
    private double measuredRate(Sweep.Result sweep) {
        if (o.rate != null) {
            return o.rate;
        }
        if (sweep != null) {
            // a system that sustained not even the first rate is measured at it: its figures then show by how much it misses
            return sweep.bestRate() != null ? sweep.bestRate() : BenchOptions.SWEEP_START;
        }
        return BenchOptions.STAMPEDE_RATE;
    }

    private OpenLoopRun.Settings openLoop(double rate, Duration limit) {
        return new OpenLoopRun.Settings(rate, limit, o.connections, o.retries, o.bestAvailable, o.readEvery, o.seed);
    }

    private LoadRun.Settings settings(Duration limit, double abandon, double pay, boolean recycle) {
        return new LoadRun.Settings(o.connections, limit, o.retries, o.bestAvailable, abandon, pay, o.readEvery, o.seed, recycle);
    }

    private CpuMeter cpuMeter(Database db, long serverPid) {
        Map<String, Supplier<List<ProcessHandle>>> groups = new LinkedHashMap<>();
        groups.put("load generator", () -> List.of(ProcessHandle.current()));
        if (serverPid > 0) {
            groups.put("server", () -> ProcessHandle.of(serverPid).stream().toList());
        }
        if (db != null && db.postmasterPid().isPresent()) {
            long pg = db.postmasterPid().getAsLong();
            groups.put("postgresql", () -> CpuMeter.withDescendants(pg));
        }
        return new CpuMeter(groups);
    }

    /** Free seats on the system's seat map now; null if it cannot be read. */
    private static Integer seatsLeft(Target target) {
        try (HttpConnection c = new HttpConnection(target.host(), target.port())) {
            HttpResponse r = c.get(target.availabilityPath(), null);
            if (r.status() != 200) {
                return null;
            }
            SeatMap map = new SeatMap(target.plan().seatCount());
            map.replace(SeatMap.decode(r.json().path("data").asText(), map.size()), r.etag());
            return map.freeCount();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private void awaitHealth(int port, ChildProcess server) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new IllegalStateException("the baseline server exited:\n" + server.tail(30));
            }
            try (HttpConnection c = new HttpConnection(HOST, port)) {
                if (c.get("/health", null).status() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the baseline server did not come up:\n" + server.tail(30));
    }

    private List<String> jvmOptions() {
        return ServiceLauncher.jvmOptions(o);
    }

    private Path jcmd() {
        Path sibling = o.java.toAbsolutePath().resolveSibling("jcmd");
        return Files.isExecutable(sibling) ? sibling : Path.of("jcmd");
    }

    private static Path benchJar() throws Exception {
        return Path.of(FlashSaleBench.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        new SecureRandom().nextBytes(b);
        return b;
    }

    private synchronized void closeAll() {
        while (!resources.isEmpty()) {
            AutoCloseable r = resources.pop();
            try {
                r.close();
            } catch (Exception e) {
                System.err.println("bench: closing " + r + ": " + e);
            }
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("bench: could not delete " + dir + ": " + e);
        }
    }

    static void log(String message) {
        System.out.println("bench: " + message);
    }
}
