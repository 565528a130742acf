package org.boxoffice.bench;

import org.boxoffice.bench.http.BoxofficeApi;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts the service the way every bench run does: on a free port on loopback, a grid cluster of
 * its own, the bench's PostgreSQL as its referee, dev tokens on, the demo catalog seeded. The flash
 * sale, the AOT training run and the warm-start measurement all start it here.
 */
final class ServiceLauncher {

    /** Loopback, where every child process of the bench listens: the service, its members, the baseline server. */
    static final String HOST = "127.0.0.1";

    /** A started, ready service; close the process to stop it (null: the service at {@code --url}, not the bench's). */
    record Started(ChildProcess process, BoxofficeApi api, int port) {
    }

    private ServiceLauncher() {
    }

    /**
     * The service a sale is sold on: the one at {@code --url}, else one started here with the
     * launcher's AOT cache and closed with the run's resources.
     */
    static Started startOrUse(RunEnvironment env, Database db, Path work) throws Exception {
        BenchOptions o = env.options();
        if (o.url != null) {
            URI uri = URI.create(o.url);
            int port = uri.getPort() > 0 ? uri.getPort() : 80;
            BoxofficeApi api = new BoxofficeApi(uri.getHost(), port);
            FlashSaleBench.log("using the service at " + o.url);
            api.awaitReady(Duration.ofMinutes(1), () -> true);
            return new Started(null, api, port);
        }
        Started started = start(o, db, work.resolve("service"), aotCache(o), env.out().resolve("service.log"));
        env.resources().push(started.process());
        return started;
    }

    /**
     * @param extraJvmOptions options after {@code --service-opts} (an AOT cache, a training run's output)
     * @param log             where its output goes
     */
    static Started start(BenchOptions o, Database db, Path dataDir, List<String> extraJvmOptions, Path log) throws Exception {
        return start(o, db, dataDir, extraJvmOptions, log, Map.of());
    }

    /** Like {@link #start(BenchOptions, Database, Path, List, Path)}, with {@code environment} set after the defaults. */
    static Started start(BenchOptions o, Database db, Path dataDir, List<String> extraJvmOptions, Path log,
                         Map<String, String> environment) throws Exception {
        Started started = launch(o, db, dataDir, extraJvmOptions, log, environment);
        ChildProcess service = started.process();
        try {
            started.api().awaitReady(Duration.ofMinutes(3), service::isAlive);
        } catch (IllegalStateException e) {
            service.close();
            throw new IllegalStateException(e.getMessage() + "\n--- " + service.log() + " ---\n" + service.tail(30), e);
        }
        return started;
    }

    /**
     * Starts the service without waiting for it to be ready.
     *
     * @param environment set after the defaults: a grid member's port, member list, cluster and quorum
     */
    static Started launch(BenchOptions o, Database db, Path dataDir, List<String> extraJvmOptions, Path log,
                          Map<String, String> environment) throws Exception {
        return launch(o, db, dataDir, extraJvmOptions, log, environment, c -> c);
    }

    /**
     * Starts the service without waiting for it to be ready, its command wrapped (for example to
     * run it in a CPU quota of its own).
     */
    static Started launch(BenchOptions o, Database db, Path dataDir, List<String> extraJvmOptions, Path log,
                          Map<String, String> environment, Wrapper wrapper) throws Exception {
        int port = ChildProcess.freePort();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SERVER_PORT", Integer.toString(port));
        env.put("SERVER_HOST", HOST);
        env.put("BOXOFFICE_DATA_DIR", dataDir.toString());
        env.put("BOXOFFICE_DB_URL", db.url());
        env.put("BOXOFFICE_DB_USER", db.user());
        env.put("BOXOFFICE_DB_PASSWORD", db.password());
        if (o.servicePool != null) {
            env.put("BOXOFFICE_DB_POOL", Integer.toString(o.servicePool));
        }
        env.put("BOXOFFICE_GRID_PORT", Integer.toString(ChildProcess.freePort()));
        // a cluster name of its own: never join another member running on this machine
        env.put("BOXOFFICE_GRID_CLUSTER", "bench-" + RunEnvironment.randomHex(4));
        env.put("BOXOFFICE_AUTH_DEVTOKENS", "true");
        // the bench creates its shows through the admin API, with a dev token that carries the admin role
        env.put("BOXOFFICE_AUTH_DEVROLES", "true");
        // the load generator is one client address standing in for thousands of fans' addresses;
        // the per-account limit stays on, as every simulated fan is an account of its own
        env.put("BOXOFFICE_LIMITS_ADDRESS", "0");
        // ... but the door's limits per address are part of what --bots measures: the bench names each
        // fan's address (and each bot controller's) in X-Forwarded-For, as a load balancer would
        env.put("BOXOFFICE_LIMITS_TRUSTFORWARDED", "true");
        // a cheap proof of work: the load generator solves one for every fan it seats in a room
        env.put("BOXOFFICE_CHALLENGE_COST", Integer.toString(FlashSaleBench.DOOR_COST));
        // ... and a door that issues 600 challenges a second (the shipped 200 would take 80 s to seat
        // the 16,000 fans of a waiting-room run before the sale)
        env.put("BOXOFFICE_CHALLENGE_ISSUEPERSECOND", "600");
        env.put("BOXOFFICE_DEMO_SEED", "true");
        // no rehearsal before ready: every system gets the same warm-up from the bench; --warm-start
        // measures a member with its rehearsal on
        env.put("BOXOFFICE_REHEARSAL_SECONDS", "0");
        env.putAll(environment);
        List<String> command = new ArrayList<>();
        command.add(o.java.toString());
        command.addAll(jvmOptions(o));
        command.addAll(extraJvmOptions);
        command.add("-Dhazelcast.phone.home.enabled=false");
        command.add("-jar");
        // the absolute path, as the AOT training run recorded it: a cache only serves the class path it was made for
        command.add(o.appJar.toAbsolutePath().toString());
        FlashSaleBench.log("starting the service (" + o.appJar + ") on port " + port
                + (extraJvmOptions.isEmpty() ? "" : " with " + String.join(" ", extraJvmOptions)));
        ChildProcess service = ChildProcess.start("service", wrapper.wrap(command), env, log);
        return new Started(service, new BoxofficeApi(HOST, port), port);
    }

    /** Turns the service's command into the one that is run. */
    interface Wrapper {
        List<String> wrap(List<String> command) throws java.io.IOException;
    }

    /** The service's AOT cache option, when the launcher passed one; a JDK without AOT support never gets one. */
    static List<String> aotCache(BenchOptions o) {
        // errors only: a cache the JDK cannot use is skipped, and the run goes on without it
        return o.aotCache == null ? List.of() : List.of("-XX:AOTCache=" + o.aotCache.toAbsolutePath(), "-Xlog:aot*=error");
    }

    static List<String> jvmOptions(BenchOptions o) {
        return Arrays.stream(o.serviceOpts.trim().split("\\s+")).filter(s -> !s.isEmpty()).toList();
    }
}
