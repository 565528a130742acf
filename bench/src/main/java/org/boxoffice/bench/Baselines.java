package org.boxoffice.bench;

import org.boxoffice.bench.baseline.BaselineSchema;
import org.boxoffice.bench.baseline.BaselineServer;
import org.boxoffice.bench.baseline.ClaimStrategy;
import org.boxoffice.bench.baseline.CountStrategy;
import org.boxoffice.bench.baseline.Hs256;
import org.boxoffice.bench.check.AreaState;
import org.boxoffice.bench.check.ReferenceState;
import org.boxoffice.bench.http.HttpConnection;
import org.boxoffice.bench.load.Buyer;
import org.boxoffice.bench.load.Sweep;
import org.boxoffice.bench.load.ShowPlan;
import org.boxoffice.bench.load.Target;
import org.boxoffice.bench.probe.CpuMeter;
import org.boxoffice.bench.probe.HttpCeiling;
import org.boxoffice.bench.report.SystemOutcome;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The PostgreSQL-only baselines: one HTTP server of their own on the same database, its empty
 * handler's ceiling, then each claim strategy (seats, or with {@code --general-admission} counts)
 * with the same crowd, warm-up, sweep and measured run as Boxoffice.
 */
final class Baselines {

    private final BenchOptions o;
    private final Path out;
    private final List<String> notes;
    private final Deque<AutoCloseable> resources;
    private final SystemRun system;
    private HttpCeiling.Result ceiling;
    private HttpCeiling.Result pacedFloor;

    Baselines(RunEnvironment env, SystemRun system) {
        this.o = env.options();
        this.out = env.out();
        this.notes = env.notes();
        this.resources = env.resources();
        this.system = system;
    }

    /** The empty handler at its ceiling; null until {@link #run} measured it. */
    HttpCeiling.Result ceiling() {
        return ceiling;
    }

    /** The empty handler paced at Boxoffice's offered rate (stampede only); null otherwise. */
    HttpCeiling.Result pacedFloor() {
        return pacedFloor;
    }

    /** The baseline server as started: its process, port and the crowd's token keys. */
    private record Server(ChildProcess process, int port, Hs256 jwt, long expires) {

        List<Buyer> crowd(int buyers, long seed, ShowPlan plan) {
            List<String> tokens = Buyer.accountIds(buyers).stream().map(id -> jwt.mint(id, expires)).toList();
            return Buyer.crowd(buyers, seed, plan, tokens);
        }
    }

    /** The seated designs ({@link ClaimStrategy}); an empty list without baselines or a database. */
    List<SystemOutcome> run(Database db, SystemOutcome box) throws Exception {
        Server server = start(db, box);
        if (server == null) {
            return List.of();
        }
        ShowPlan plan = ShowPlan.of(ShowPlan.regularSections(o.seats));
        ShowPlan warmPlan = ShowPlan.of(ShowPlan.regularSections(Math.min(o.seats, SystemRun.WARMUP_SEATS)));
        List<Buyer> crowd = server.crowd(o.buyers(), o.seed, plan);
        int port = server.port();
        List<SystemOutcome> outcomes = new ArrayList<>();
        for (ClaimStrategy strategy : List.of(ClaimStrategy.CONDITIONAL, ClaimStrategy.FOR_UPDATE)) {
            String showId = "bl-" + strategy.name().toLowerCase(Locale.ROOT).replace('_', '-');
            try (Connection c = db.connect()) {
                BaselineSchema.createShow(c, showId, strategy, ShowPlan.HOLD_SECONDS * 1000L, plan);
            }
            int[] warmShows = {0};
            system.warmUp(strategy.systemName(), crowd, server.process().pid(), () -> {
                String warmId = showId + "-warmup-" + ++warmShows[0];
                try (Connection c = db.connect()) {
                    BaselineSchema.createShow(c, warmId, strategy, ShowPlan.HOLD_SECONDS * 1000L, warmPlan);
                }
                return new Target(strategy.systemName() + "-warmup", ServiceLauncher.HOST, port, warmId, warmPlan);
            });
            int[] trials = {0};
            Sweep.Result sweep = system.sweep(strategy.systemName(), crowd, () -> {
                String trialId = showId + "-trial-" + ++trials[0];
                try (Connection c = db.connect()) {
                    BaselineSchema.createShow(c, trialId, strategy, ShowPlan.HOLD_SECONDS * 1000L, plan);
                }
                return new Target(strategy.systemName(), ServiceLauncher.HOST, port, trialId, plan);
            });
            db.checkpoint();
            Target target = new Target(strategy.systemName(), ServiceLauncher.HOST, port, showId, plan);
            outcomes.add(system.measure(target, crowd, null, sweep, db, server.process().pid(), 0, () -> {
                try (Connection c = db.connect()) {
                    return ReferenceState.baseline(c, showId);
                }
            }, () -> null, 0, () -> null));
        }
        stop(server);
        return outcomes;
    }

    /**
     * The general-admission designs ({@link CountStrategy}), each selling one area of
     * {@code --general-admission} admissions with the same crowd, warm-up, sweep and measured run as
     * Boxoffice; an empty list without baselines or a database.
     */
    List<SystemOutcome> runAreas(Database db, SystemOutcome box, String area) throws Exception {
        Server server = start(db, box);
        if (server == null) {
            return List.of();
        }
        int capacity = o.generalAdmission;
        int warmCapacity = Math.min(capacity, SystemRun.WARMUP_SEATS);
        ShowPlan plan = ShowPlan.of(ShowPlan.regularSections(capacity));
        ShowPlan warmPlan = ShowPlan.of(ShowPlan.regularSections(warmCapacity));
        List<Buyer> crowd = server.crowd(o.buyers(), o.seed, plan);
        int port = server.port();
        List<SystemOutcome> outcomes = new ArrayList<>();
        for (CountStrategy strategy : List.of(CountStrategy.ONE_ROW, CountStrategy.STRIPED)) {
            String name = strategy.systemName();
            String showId = "bl-area-" + strategy.name().toLowerCase(Locale.ROOT).replace('_', '-');
            int[] shows = {0};
            SystemRun.Step<String> newArea = () -> {
                String id = showId + "-" + ++shows[0];
                try (Connection c = db.connect()) {
                    BaselineSchema.createArea(c, id, area, strategy, capacity, ShowPlan.HOLD_SECONDS * 1000L);
                }
                return id;
            };
            system.warmUp(name, crowd, server.process().pid(), () -> {
                String id = showId + "-warmup-" + ++shows[0];
                try (Connection c = db.connect()) {
                    BaselineSchema.createArea(c, id, area, strategy, warmCapacity, ShowPlan.HOLD_SECONDS * 1000L);
                }
                return new Target(name + "-warmup", ServiceLauncher.HOST, port, id, warmPlan, area);
            });
            Sweep.Result sweep = system.sweep(name, crowd, () -> new Target(name, ServiceLauncher.HOST, port, newArea.get(), plan, area));
            String measured = newArea.get();
            db.checkpoint();
            Target target = new Target(name, ServiceLauncher.HOST, port, measured, plan, area);
            outcomes.add(system.measureArea(target, crowd, sweep, db, server.process().pid(), () -> {
                try (Connection c = db.connect()) {
                    return AreaState.baseline(c, measured, area);
                }
            }, () -> null));
        }
        stop(server);
        return outcomes;
    }

    /** The baseline server on its own port, with its empty handler's ceiling measured; null without baselines. */
    private Server start(Database db, SystemOutcome box) throws Exception {
        if (!o.baselines) {
            notes.add("baselines skipped (--no-baselines)");
            return null;
        }
        if (db == null) {
            return null;
        }
        if (o.pay > 0) {
            notes.add("the baselines have no checkout: their buyers keep their holds and do not pay (--pay applies to boxoffice only)");
        }
        try (Connection c = db.connect()) {
            BaselineSchema.recreate(c);
        }
        String secret = RunEnvironment.randomHex(32);
        Hs256 jwt = new Hs256(secret);
        long expires = Instant.now().plus(Duration.ofHours(12)).getEpochSecond();
        int port = ChildProcess.freePort();
        List<String> command = new ArrayList<>();
        command.add(o.java.toString());
        command.addAll(jvmOptions());
        command.addAll(List.of("-cp", benchJar().toString(), BaselineServer.class.getName(), "--port", Integer.toString(port),
                "--db-url", db.url(), "--db-user", db.user(), "--db-password", db.password(),
                "--pool", Integer.toString(o.baselinePool), "--secret", secret));
        FlashSaleBench.log("starting the baseline server on port " + port + " (pool " + o.baselinePool + ")");
        ChildProcess server = ChildProcess.start("baseline", command, Map.of(), out.resolve("baseline.log"));
        resources.push(server);
        awaitHealth(port, server);
        // a first pass warms the server and the client, the second is the figure
        CpuMeter ceilingMeter = SystemRun.cpuMeter(null, server.pid());
        HttpCeiling.measure(ServiceLauncher.HOST, port, "/health", o.connections, Duration.ofSeconds(1), ceilingMeter);
        ceiling = HttpCeiling.measure(ServiceLauncher.HOST, port, "/health", o.connections, Duration.ofSeconds(3), ceilingMeter);
        if (box.run().openLoop() != null) {
            double rate = box.run().openLoop().offeredPerSecond();
            pacedFloor = HttpCeiling.paced(ServiceLauncher.HOST, port, "/health", o.connections, rate, Duration.ofSeconds(5), ceilingMeter);
            notes.add(String.format(Locale.ROOT, "empty handler paced at boxoffice's offered %,.0f requests/s (open loop, "
                    + "5 s): %.1f us of server CPU a request (%.1f us at its ceiling); a request's cost depends on the rate",
                    rate, pacedFloor.serverMicrosPerRequest(), ceiling.serverMicrosPerRequest()));
        }
        FlashSaleBench.log(String.format(Locale.ROOT, "HTTP ceiling (empty handler, same web server and client): %,.0f requests/s;"
                        + " CPU per request: server %.0f us, load generator %.0f us",
                ceiling.requestsPerSecond(), ceiling.serverMicrosPerRequest(), ceiling.generatorMicrosPerRequest()));
        return new Server(server, port, jwt, expires);
    }

    private void stop(Server server) {
        resources.remove(server.process());
        server.process().close();
    }

    private void awaitHealth(int port, ChildProcess server) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new IllegalStateException("the baseline server exited:\n" + server.tail(30));
            }
            try (HttpConnection c = new HttpConnection(ServiceLauncher.HOST, port)) {
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

    private static Path benchJar() throws Exception {
        return Path.of(Baselines.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
