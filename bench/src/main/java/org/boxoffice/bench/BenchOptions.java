package org.boxoffice.bench;

import org.boxoffice.bench.load.Sweep;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The bench's command line. Every option has a default suited to a 2-core machine that also runs
 * the service and PostgreSQL, so {@code ./boxoffice bench} alone is a complete run of about two
 * minutes.
 */
public final class BenchOptions {

    /** A command line the bench cannot run with; the message says why. Exit code 2. */
    public static final class UsageException extends Exception {
        public UsageException(String message) {
            super(message);
        }
    }

    Path java = Path.of(ProcessHandle.current().info().command().orElse("java"));
    Path appJar = Path.of("app/target/boxoffice.jar");
    String url;
    String dbUrl;
    String dbUser = "postgres";
    String dbPassword = "";
    int seats = 20_000;
    boolean stadium;
    Integer buyers;
    int connections = 64;
    Duration duration = Duration.ofSeconds(30);
    Duration warmup = Duration.ofSeconds(10);
    /** Warm up until the server's JIT compiler has settled (at most {@link #WARMUP_AUTO_MAX}). */
    boolean warmupAuto;
    static final Duration WARMUP_AUTO_MAX = Duration.ofSeconds(120);
    int retries = 3;
    double bestAvailable = 0.2;
    double abandon = 0.05;
    double pay;
    int readEvery = 5;
    int baselinePool = 16;
    Integer servicePool;
    Integer blockGroups;
    String event = "midnight-echoes";
    Double waitingRoom;
    /** Share of the crowd that are scripted clients ({@code --bots}); 0: none. */
    double bots;
    boolean baselines = true;
    boolean expiry = true;
    boolean memory = true;
    boolean profile;
    /** The read benchmark ({@link ReadBench}) instead of the flash sale. */
    boolean reads;
    /** The SMS outage scenario ({@link SmsOutageBench}) instead of the flash sale. */
    boolean smsOutage;
    /** --sms-outage: seconds into the failing phase's sale at which the stub recovers; null: once the sale is over. */
    Integer smsRecoverAt;
    String serviceOpts = "-Xmx2g";
    long seed = 42;
    Path out;
    boolean help;
    boolean latestFigures;
    /** Open-loop stampede (see {@link #STAMPEDE_HELP}). */
    boolean stampede;
    /** --general-admission: the capacity of the one standing area sold by count; null: a seated sale. */
    Integer generalAdmission;
    /** Offered hold attempts/s of the stampede's measured run; null: the sweep's best, else {@link #STAMPEDE_RATE}. */
    Double rate;
    boolean sweep;
    Duration sweepStep = Duration.ofSeconds(6);
    /** Start the service from its AOT cache when the launcher built one. */
    Path aotCache;
    /** The AOT training run: write the service's cache here and stop. */
    Path aotTrain;
    /** Measure a fresh member's first minute with and without {@link #aotCache}. */
    boolean warmStart;
    /** --members: the members start with their start-up rehearsal, as shipped. */
    boolean rehearsal;
    /** Several members behind one Service address ({@link ClusterBench}); null: the one-member bench. */
    Integer members;
    /** Seconds into the elastic stampede at which a member joins / one leaves; null: none. */
    Integer scaleUpAt;
    Integer scaleDownAt;
    /** Seconds into the elastic stampede at which every member is restarted in turn / one is killed; null: none. */
    Integer rollingRestartAt;
    Integer killAt;
    /** --members: each member in a CPU quota of this many cores (cgroup v1 cpu or v2 cpu.max); null: no quota. */
    Double cpuQuota;
    /** --cpu-quota: the CFS period the quota is counted over, in milliseconds. */
    int cpuPeriodMillis = org.boxoffice.bench.cluster.CpuQuota.DEFAULT_PERIOD_MILLIS;
    /** The options given on the command line, by name: the stampede's defaults apply to the others. */
    final java.util.Set<String> given = new java.util.HashSet<>();
    /** The arguments as given, for the results file. */
    final List<String> arguments = new ArrayList<>();

    static final String STAMPEDE_HELP = "an on-sale stampede, open loop: buyers = 4x the seats wanting 1-4 seats each"
            + " (10x the seats in demand), each trying up to 3 times, hold attempts arriving at --rate a second (Poisson)"
            + " whether or not the system keeps up, latency from each request's intended send time; defaults"
            + " --seats 10000 --connections 256 --duration 20 --retries 2 --warmup 30";
    static final double STAMPEDE_RATE = 1_000;
    static final int GENERAL_ADMISSION_CAPACITY = 20_000;
    /** The option whose value may be left out (then {@link #GENERAL_ADMISSION_CAPACITY}). */
    private static final String GENERAL_ADMISSION = "--general-admission";
    static final double SWEEP_START = 250;
    static final double SWEEP_MAX = 64_000;

    private static final Map<String, Option> OPTIONS = new LinkedHashMap<>();

    private record Option(String argument, String help, BiConsumer<BenchOptions, String> apply) {
    }

    private static void option(String name, String argument, String help, BiConsumer<BenchOptions, String> apply) {
        OPTIONS.put(name, new Option(argument, help, apply));
    }

    static {
        option("--url", "URL", "drive a running service instead of starting one (baselines and invariants then need --db-url)",
                (o, v) -> o.url = v.endsWith("/") ? v.substring(0, v.length() - 1) : v);
        option("--db-url", "JDBC", "PostgreSQL for the baselines and the invariant check (default: an embedded one the service also uses)",
                (o, v) -> o.dbUrl = v);
        option("--db-user", "NAME", "user for --db-url (default postgres)", (o, v) -> o.dbUser = v);
        option("--db-password", "SECRET", "password for --db-url (default empty)", (o, v) -> o.dbPassword = v);
        option("--seats", "N", "seats of the hot show (default 20000; sections of 50 x 50)", (o, v) -> o.seats = intIn(v, "--seats", 50, 200_000));
        option("--stadium", null, "a 60,000-seat show (same as --seats 60000)", (o, v) -> o.stadium = true);
        option("--buyers", "N", "simulated fans, one account each (default seats / 2)", (o, v) -> o.buyers = intIn(v, "--buyers", 1, 1_000_000));
        option("--connections", "N", "concurrent keep-alive connections (default 64)", (o, v) -> o.connections = intIn(v, "--connections", 1, 4096));
        option("--duration", "SECONDS", "time limit per system if the show does not sell out (default 30)",
                (o, v) -> o.duration = Duration.ofSeconds(intIn(v, "--duration", 1, 3600)));
        option("--warmup", "SECONDS|auto", "warm-up per system on a show of its own, not measured (default 10, 30 with"
                        + " --stampede, whose last third sells out a fresh warm-up show every 2.5 s, open loop; 0 skips;"
                        + " auto: until the server's JIT compiler uses under 10% of a core, at most 120 s)",
                (o, v) -> {
                    if (v.equals("auto")) {
                        o.warmupAuto = true;
                        o.warmup = WARMUP_AUTO_MAX;
                    } else {
                        o.warmup = Duration.ofSeconds(intIn(v, "--warmup", 0, 600));
                    }
                });
        option("--retries", "N", "attempts with an offered alternative after a 409, per turn (default 3)", (o, v) -> o.retries = intIn(v, "--retries", 0, 20));
        option("--best-available", "SHARE", "share of buyers who ask for best available (default 0.2)", (o, v) -> o.bestAvailable = share(v, "--best-available"));
        option("--abandon", "SHARE", "share of successful buyers who release their hold at once (default 0.05)", (o, v) -> o.abandon = share(v, "--abandon"));
        option("--pay", "SHARE", "share of buyers keeping their hold who pay for it at once through checkout (default 0;"
                        + " the baselines never pay)", (o, v) -> o.pay = share(v, "--pay"));
        option("--read-every", "N", "one seat-map read per N hold attempts per connection (default 5)", (o, v) -> o.readEvery = intIn(v, "--read-every", 1, 1000));
        option("--baseline-pool", "N", "connections of the baselines' HikariCP pool (default 16)", (o, v) -> o.baselinePool = intIn(v, "--baseline-pool", 1, 190));
        option("--db-pool", "N", "the service's pool (BOXOFFICE_DB_POOL; default: the service's own)", (o, v) -> o.servicePool = intIn(v, "--db-pool", 1, 190));
        option("--block-groups", "N", "partitions the hot show's blocks spread over (default: the service's own)",
                (o, v) -> o.blockGroups = intIn(v, "--block-groups", 1, 271));
        option("--event", "ID", "event the bench's shows belong to (default midnight-echoes, from the demo catalog)", (o, v) -> o.event = v);
        option("--waiting-room", "RATE", "sell Boxoffice's hot show through its waiting room, admitting RATE buyers/s (baselines have none)",
                (o, v) -> o.waitingRoom = positive(v, "--waiting-room"));
        option("--bots", "SHARE", "--stampede --waiting-room: that share of the crowd are scripted clients (many accounts per"
                        + " controller, no think time, skipping the room, replaying and sharing passes and challenges);"
                        + " reports seats per account, their refusals by reason and what they cost the service",
                (o, v) -> o.bots = share(v, "--bots"));
        option("--no-baselines", null, "skip the PostgreSQL-only baselines (with --members: the one-member run)",
                (o, v) -> o.baselines = false);
        option("--no-expiry", null, "skip the expiry check", (o, v) -> o.expiry = false);
        option("--no-memory", null, "skip the heap measurement", (o, v) -> o.memory = false);
        option("--reads", null, "the read benchmark instead: every read endpoint and the on-sale's read mix beside an empty"
                        + " handler (--duration: seconds per pass, default 5; --profile: one profile per endpoint)",
                (o, v) -> o.reads = true);
        option("--sms-outage", null, "instead of the flash sale: does a booking wait for the SMS channel? The service sends"
                        + " tickets by SMS through its HTTP provider adapter to a stub on loopback, every buyer has a phone number;"
                        + " four closed-loop sales with checkouts (--pay, default 1), same crowd and warm-up: the stub answering"
                        + " at once, then after 5 s, then failing (503) until it recovers, then at once again; hold and checkout"
                        + " p50/p99 of each against the first, and every SMS counted at the stub (delivered once, none lost, how long after"
                        + " the recovery)", (o, v) -> o.smsOutage = true);
        option("--sms-recover-at", "SECONDS", "--sms-outage: the failing stub answers at once again this many seconds into"
                        + " its sale (default: once that sale and its checks are over)",
                (o, v) -> o.smsRecoverAt = intIn(v, "--sms-recover-at", 0, 3600));
        option("--profile", null, "record a Flight Recorder profile of the service during its run and summarize it", (o, v) -> o.profile = true);
        option("--service-opts", "OPTS", "JVM options of the service and the baseline server (default -Xmx2g)", (o, v) -> o.serviceOpts = v);
        option("--seed", "N", "seed of the crowd's wishes and choices (default 42)", (o, v) -> o.seed = longValue(v, "--seed"));
        option("--out", "DIR", "results folder (default bench/results/<timestamp>)", (o, v) -> o.out = Path.of(v));
        option("--java", "PATH", "java for the child processes (the launcher passes its JDK)", (o, v) -> o.java = Path.of(v));
        option("--app-jar", "PATH", "the service's jar (the launcher passes app/target/boxoffice.jar)", (o, v) -> o.appJar = Path.of(v));
        option("--stampede", null, STAMPEDE_HELP, (o, v) -> o.stampede = true);
        option(GENERAL_ADMISSION, "[CAPACITY]", "the stampede on one general-admission area (a standing floor sold by"
                        + " count, default capacity " + GENERAL_ADMISSION_CAPACITY + ") instead of seats: buyers = 4x the capacity"
                        + " asking for 1-4 admissions each, against a one-row and a striped PostgreSQL counter; reports the"
                        + " sold-out answers given while admissions remained (implies --stampede)",
                (o, v) -> o.generalAdmission = intIn(v, GENERAL_ADMISSION, 50, 200_000));
        option("--rate", "N", "--stampede: offered hold attempts/s of the measured run (default: the sweep's best, else "
                + (int) STAMPEDE_RATE + ")", (o, v) -> o.rate = positive(v, "--rate"));
        option("--sweep", null, "--stampede: per system, find the highest offered rate with hold p99 under "
                + (int) Sweep.BUDGET_MS + " ms (doubling from " + (int) SWEEP_START + "/s, then bisecting), then measure at it",
                (o, v) -> o.sweep = true);
        option("--sweep-step", "SECONDS", "--sweep: length of each rate's trial, on a fresh show (default 6)",
                (o, v) -> o.sweepStep = Duration.ofSeconds(intIn(v, "--sweep-step", 1, 120)));
        option("--aot-cache", "FILE", "start the service with -XX:AOTCache=FILE (the launcher passes the one it built, if any)",
                (o, v) -> o.aotCache = Path.of(v));
        option("--warm-start", null, "instead of a sale: a fresh member's first minute under load without --aot-cache, with it, and"
                + " with it and the member's start-up rehearsal (seconds to ready and to 80 % of its steady rate, JIT CPU before"
                + " ready and over the first 30 s); every other run turns the rehearsal off", (o, v) -> o.warmStart = true);
        option("--aot-train", "FILE", "instead of a sale: the AOT training run (the launcher's build step on JDK 25+)",
                (o, v) -> o.aotTrain = Path.of(v));
        option("--members", "N", "instead of the one-member sale: the stampede against 1 and then N members (backups 1,"
                        + " quorum a majority, TCP-IP join on loopback) behind a Service stand-in; CPU per hold attempt of each",
                (o, v) -> o.members = intIn(v, "--members", 1, 9));
        option("--scale-up-at", "SECONDS", "--members: then a stampede on the N members in which member N+1 joins at SECONDS",
                (o, v) -> o.scaleUpAt = intIn(v, "--scale-up-at", 1, 3600));
        option("--scale-down-at", "SECONDS", "--members: in that stampede, one member leaves gracefully at SECONDS",
                (o, v) -> o.scaleDownAt = intIn(v, "--scale-down-at", 1, 3600));
        option("--rolling-restart-at", "SECONDS", "--members: in that stampede, every member is restarted in turn from SECONDS,"
                        + " highest first, as a StatefulSet rolls: out of the Service, the preStop sleep, SIGTERM, started again, ready,"
                        + " then the next once the cluster is safe",
                (o, v) -> o.rollingRestartAt = intIn(v, "--rolling-restart-at", 1, 3600));
        option("--kill-at", "SECONDS", "--members: in that stampede, the oldest member is killed with SIGKILL at SECONDS and started"
                        + " again at once, as a kubelet restarts a killed container",
                (o, v) -> o.killAt = intIn(v, "--kill-at", 1, 3600));
        option("--cpu-quota", "CORES", "--members: every member in a CPU quota of its own (a cgroup; needs root), the load"
                        + " generator and PostgreSQL outside; with --sweep, the highest sustained rate of 1, 2, ... N members",
                (o, v) -> o.cpuQuota = doubleIn(v, "--cpu-quota", 0.05, 64));
        option("--cpu-period", "MS", "--cpu-quota: the period the quota is counted over (default 100 ms, the kernel's and"
                        + " Kubernetes' default): a member that spent its quota waits for the next period, so in 0.4 cores with"
                        + " 100 ms it can stand still 60 ms at a time",
                (o, v) -> o.cpuPeriodMillis = intIn(v, "--cpu-period", 1, 1000));
        option("--rehearsal", null, "--members: every member starts with its start-up rehearsal as shipped (20 s before it"
                + " reports ready; off in every other run), so a member that joins mid-sale rehearses beside the serving ones",
                (o, v) -> o.rehearsal = true);
        option("--latest-figures", null, "after the run, write its targets into docs/benchmark.md's table of latest figures"
                + " (the rows of the run's scenario; the others stay)", (o, v) -> o.latestFigures = true);
        option("--help", null, "this text", (o, v) -> o.help = true);
    }

    public static BenchOptions parse(String... args) throws UsageException {
        BenchOptions o = new BenchOptions();
        o.arguments.addAll(Arrays.asList(args));
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                value = arg.substring(eq + 1);
                arg = arg.substring(0, eq);
            }
            Option option = OPTIONS.get(arg.equals("-h") ? "--help" : arg);
            if (option == null) {
                throw new UsageException("unknown option '" + args[i] + "'");
            }
            if (arg.equals(GENERAL_ADMISSION) && value == null
                    && (i + 1 >= args.length || !args[i + 1].trim().matches("[0-9][0-9_]*"))) {
                value = Integer.toString(GENERAL_ADMISSION_CAPACITY);
            }
            if (option.argument() != null && value == null) {
                if (i + 1 >= args.length) {
                    throw new UsageException(arg + " needs a value (" + option.argument() + ")");
                }
                value = args[++i];
            } else if (option.argument() == null && value != null) {
                throw new UsageException(arg + " takes no value");
            }
            o.given.add(arg.equals("-h") ? "--help" : arg);
            try {
                option.apply().accept(o, value);
            } catch (BadValue e) {
                throw new UsageException(e.getMessage());
            }
        }
        if (o.stadium) {
            o.seats = 60_000;
        }
        if (o.given.contains("--cpu-period") && o.cpuQuota == null) {
            throw new UsageException("--cpu-period belongs to --cpu-quota");
        }
        if ((o.scaleUpAt != null || o.scaleDownAt != null || o.rollingRestartAt != null || o.killAt != null
                || o.cpuQuota != null) && o.members == null) {
            throw new UsageException("--scale-up-at, --scale-down-at, --rolling-restart-at, --kill-at and --cpu-quota belong to"
                    + " --members");
        }
        if ((o.rollingRestartAt != null || o.killAt != null) && o.members != null && o.members < 2) {
            throw new UsageException("--rolling-restart-at and --kill-at need --members 2 or more (one member has nobody to serve"
                    + " while it is away)");
        }
        if (o.members != null && o.sweep && o.cpuQuota == null) {
            throw new UsageException("--members with --sweep is the scaling curve: it needs --cpu-quota (each member in a slice"
                    + " of a core)");
        }
        if (o.members != null && o.sweep && (o.scaleUpAt != null || o.scaleDownAt != null || o.rollingRestartAt != null
                || o.killAt != null)) {
            throw new UsageException("the scaling curve (--sweep) changes no member mid-sale: run --scale-up-at, --scale-down-at,"
                    + " --rolling-restart-at and --kill-at without --sweep");
        }
        if (o.members != null && (o.url != null || o.dbUrl != null)) {
            throw new UsageException("--members starts its own members and PostgreSQL: --url and --db-url belong to one system");
        }
        if (o.rehearsal && o.members == null) {
            throw new UsageException("--rehearsal belongs to --members (--warm-start measures the rehearsal on one member)");
        }
        if (o.smsRecoverAt != null && !o.smsOutage) {
            throw new UsageException("--sms-recover-at belongs to --sms-outage");
        }
        if (o.smsOutage) {
            o.smsOutageRules();
        }
        if (o.members != null) {
            // several members are measured under the stampede only
            o.stampede = true;
        }
        if (o.generalAdmission != null) {
            o.generalAdmissionRules();
        }
        if (o.stampede) {
            o.stampedeDefaults();
        } else if (o.rate != null || o.sweep) {
            throw new UsageException("--rate and --sweep belong to --stampede");
        }
        if (o.bots > 0 && (!o.stampede || o.waitingRoom == null || o.members != null)) {
            throw new UsageException("--bots needs --stampede and --waiting-room (one member): bots meet the room's door");
        }
        if (o.bots >= 0.95) {
            throw new UsageException("--bots is a share of the crowd below 0.95");
        }
        if (o.url != null && !o.url.matches("https?://[^/:]+(:\\d+)?")) {
            throw new UsageException("--url must look like http://host:port, not '" + o.url + "'");
        }
        if (o.url != null && o.url.startsWith("https")) {
            throw new UsageException("--url: the bench speaks plain HTTP only");
        }
        if (o.dbUrl != null && !o.dbUrl.startsWith("jdbc:postgresql:")) {
            throw new UsageException("--db-url must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/db)");
        }
        return o;
    }

    public static String usage() {
        StringBuilder sb = new StringBuilder("""
                usage: ./boxoffice bench [options]

                Flash-sale benchmark: starts Boxoffice (embedded grid, PostgreSQL shared with the
                baselines), sells one hot show to a crowd of simulated fans over HTTP, then the same
                scenario against PostgreSQL-only designs, checks the invariants, and writes JSON, a
                chart and a summary to bench/results/<timestamp>/.

                options:
                """);
        OPTIONS.forEach((name, option) -> {
            String left = "  " + name + (option.argument() == null ? "" : " " + option.argument());
            sb.append(left).append(" ".repeat(Math.max(1, 28 - left.length()))).append(option.help()).append('\n');
        });
        return sb.toString();
    }

    /** The stampede's offered hold attempts/s: {@code --rate}, else {@link #STAMPEDE_RATE}. */
    double offeredRate() {
        return rate != null ? rate : STAMPEDE_RATE;
    }

    public int buyers() {
        return buyers != null ? buyers : stampede ? 4 * seats : Math.max(100, seats / 2);
    }


    /**
     * --general-admission: a stampede whose crowd is sized by the area's capacity (as by the seats of
     * a seated one); what only a seated sale or one member has does not go with it.
     */
    private void generalAdmissionRules() throws UsageException {
        for (String seated : List.of("--seats", "--stadium", "--best-available", "--block-groups", "--waiting-room", "--bots",
                "--pay", "--members", "--reads", "--warm-start", "--aot-train")) {
            if (given.contains(seated)) {
                throw new UsageException(seated + " does not go with --general-admission (one area sold by count, one member)");
            }
        }
        if (warmupAuto) {
            throw new UsageException("--warmup auto does not go with --general-admission: its warm-up is stampedes only; give seconds");
        }
        stampede = true;
        seats = generalAdmission;
    }

    /** --sms-outage: closed-loop sales of one member that pay, so every booking has a text message to send. */
    private void smsOutageRules() throws UsageException {
        for (String other : List.of("--stampede", "--members", "--reads", "--general-admission", "--waiting-room", "--url",
                "--warm-start", "--aot-train")) {
            if (given.contains(other)) {
                throw new UsageException(other + " does not go with --sms-outage (closed-loop sales on one member it starts)");
            }
        }
        if (!given.contains("--pay")) {
            pay = 1;
        } else if (pay == 0) {
            throw new UsageException("--sms-outage needs buyers who pay (--pay above 0): a booking is what sends a text message");
        }
    }

    /** The stampede's defaults for what the command line left open. */
    private void stampedeDefaults() {
        if (!given.contains("--seats") && !given.contains("--stadium") && generalAdmission == null) {
            seats = 10_000;
        }
        if (!given.contains("--connections")) {
            connections = 256;
        }
        if (!given.contains("--duration")) {
            duration = Duration.ofSeconds(20);
        }
        if (!given.contains("--retries")) {
            retries = 2;
        }
        if (!given.contains("--warmup")) {
            warmup = Duration.ofSeconds(30);
        }
    }

    private static int intIn(String v, String name, int min, int max) {
        try {
            int n = Integer.parseInt(v.trim().replace("_", ""));
            if (n < min || n > max) {
                throw new IllegalArgumentException();
            }
            return n;
        } catch (IllegalArgumentException e) {
            throw new BadValue(name + " must be a whole number from " + min + " to " + max + ", not '" + v + "'");
        }
    }

    private static double doubleIn(String v, String name, double min, double max) {
        try {
            double d = Double.parseDouble(v.trim());
            if (!(d >= min && d <= max)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new BadValue(name + " must be a number from " + min + " to " + max + ", not '" + v + "'");
        }
    }

    private static long longValue(String v, String name) {
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new BadValue(name + " must be a whole number, not '" + v + "'");
        }
    }

    private static double positive(String v, String name) {
        try {
            double d = Double.parseDouble(v.trim());
            if (!(d > 0 && d <= 100_000)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new BadValue(name + " must be a rate above 0 (buyers per second), not '" + v + "'");
        }
    }

    private static double share(String v, String name) {
        try {
            double d = Double.parseDouble(v.trim());
            if (d < 0 || d > 1 || Double.isNaN(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new BadValue(name + " must be a share from 0 to 1, not '" + v + "'");
        }
    }

    /** Thrown inside option parsers; {@link #parse} turns it into a {@link UsageException}. */
    private static final class BadValue extends IllegalArgumentException {
        BadValue(String message) {
            super(message);
        }
    }

    /**
     * The command line as a reader would type it: without the paths the launcher passes itself
     * ({@code --java}, {@code --app-jar}, {@code --aot-cache}).
     */
    String shownCommand() {
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < arguments.size(); i++) {
            String a = arguments.get(i);
            if (a.equals("--java") || a.equals("--app-jar") || a.equals("--aot-cache")) {
                i++;
            } else if (!a.startsWith("--java=") && !a.startsWith("--app-jar=") && !a.startsWith("--aot-cache=")) {
                shown.add(a);
            }
        }
        return ("./boxoffice bench " + String.join(" ", shown)).trim();
    }
}
