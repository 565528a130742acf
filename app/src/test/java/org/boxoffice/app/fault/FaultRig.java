package org.boxoffice.app.fault;

import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.mapstore.EmbeddedDatabase;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The world of one fault test: a directory under {@code target/fault/<name>}, one PostgreSQL
 * started by this JVM (stoppable and restartable on the same directory and port), and up to N
 * Boxoffice members as separate JVMs on loopback, all listed in each other's TCP-IP member list.
 *
 * <p>Ports are picked below Linux's ephemeral range (32768+), so an outgoing connection can never
 * take a port that a member or the stopped database is about to listen on again.
 */
final class FaultRig implements AutoCloseable {

    static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    final String name;
    final Path dir;
    final Path jar;
    final String cluster;
    final int quorum;
    final int dbPort;
    final List<Integer> httpPorts = new ArrayList<>();
    final List<Integer> gridPorts = new ArrayList<>();
    final Http http = new Http();
    private final List<Member> started = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final long t0 = System.nanoTime();
    private volatile EmbeddedDatabase db;
    private String adminToken;
    /** Changes a test makes to every member it starts after the rig's defaults (none unless set). */
    private volatile MemberSetup memberSetup = (index, env, jvm) -> { };
    /** Closed after the members and the database are gone (what the members needed until their end). */
    private final List<AutoCloseable> closeLast = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Stops the members and the database if this JVM is told to exit mid-test (a fork timeout). */
    private final Thread cleanup = new Thread(this::destroyAll, "fault-rig-cleanup");

    /**
     * @param name       the test's name (directory, cluster name)
     * @param maxMembers how many members may ever run (all are in every member's list)
     * @param quorum     {@code boxoffice.grid.quorum}
     */
    FaultRig(String name, int maxMembers, int quorum) {
        this.name = name;
        this.quorum = quorum;
        this.cluster = "fault-" + name + "-" + Long.toString(System.currentTimeMillis(), 36);
        Path target = Path.of(System.getProperty("fault.target", "target")).toAbsolutePath();
        this.jar = target.resolve("boxoffice.jar");
        if (!Files.isRegularFile(jar) || !Files.isDirectory(target.resolve("libs"))) {
            throw new IllegalStateException(jar + " or its libs/ is missing: the fault tests run after 'package' "
                    + "(mvn -Pfault verify)");
        }
        this.dir = target.resolve("fault").resolve(name);
        deleteRecursively(dir);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Set<Integer> taken = new HashSet<>();
        this.dbPort = freePort(taken);
        for (int i = 0; i < maxMembers; i++) {
            httpPorts.add(freePort(taken));
            gridPorts.add(freePort(taken));
        }
        writeLogging();
        Runtime.getRuntime().addShutdownHook(cleanup);
        log("rig " + name + " in " + dir + ": cluster " + cluster + ", PostgreSQL on " + dbPort + ", http " + httpPorts
                + ", grid " + gridPorts + ", quorum " + quorum);
    }

    /** A test body that gets a fresh rig. */
    @FunctionalInterface
    interface Body {
        void run(FaultRig rig);
    }

    /**
     * Runs {@code body} on a fresh rig and always tears it down; a failure carries the tails of
     * every member's log and PostgreSQL's.
     */
    static void run(String name, int maxMembers, int quorum, Body body) {
        try (FaultRig rig = new FaultRig(name, maxMembers, quorum)) {
            try {
                body.run(rig);
            } catch (AssertionError | RuntimeException e) {
                rig.log("FAILED: " + e.getMessage());
                if (e.getMessage() == null || !e.getMessage().contains("--- diagnostics")) {
                    throw new AssertionError(e.getMessage() + rig.diagnostics(), e);
                }
                throw e;
            }
        }
    }

    // ---------------------------------------------------------------- PostgreSQL

    void startDatabase() {
        long t = System.nanoTime();
        db = EmbeddedDatabase.start(dir.resolve("pg"), dbPort);
        log("PostgreSQL up on " + db.port() + " in " + millis(t) + " ms");
    }

    /** Stops PostgreSQL (fast shutdown: sessions are cut off); returns when the server has exited. */
    void stopDatabase() {
        long t = System.nanoTime();
        db.close();
        log("PostgreSQL stopped in " + millis(t) + " ms");
    }

    String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + dbPort + "/" + EmbeddedDatabase.DATABASE;
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), db.user(), db.password());
    }

    /** Rows of a query, each mapped by {@code row}. */
    <T> List<T> query(String sql, Function<ResultSet, T> row, Object... params) {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            List<T> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(row.apply(rs));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    long count(String sql, Object... params) {
        return query(sql, rs -> {
            try {
                return rs.getLong(1);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }, params).get(0);
    }

    // ---------------------------------------------------------------- members

    /** Starts member {@code index} (0-based); returns at once. */
    Member startMember(int index) {
        List<String> members = gridPorts.stream().map(p -> "127.0.0.1:" + p).toList();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SERVER_PORT", Integer.toString(httpPorts.get(index)));
        env.put("BOXOFFICE_DB_URL", jdbcUrl());
        env.put("BOXOFFICE_DB_USER", db.user());
        env.put("BOXOFFICE_DB_PASSWORD", db.password());
        env.put("BOXOFFICE_GRID_CLUSTER", cluster);
        env.put("BOXOFFICE_GRID_PORT", Integer.toString(gridPorts.get(index)));
        env.put("BOXOFFICE_GRID_MEMBERS", String.join(",", members));
        env.put("BOXOFFICE_GRID_QUORUM", Integer.toString(quorum));
        env.put("BOXOFFICE_GRID_BACKUPS", "1");
        env.put("BOXOFFICE_DEMO_SEED", "true");
        env.put("BOXOFFICE_AUTH_DEVTOKENS", "true");
        env.put("BOXOFFICE_AUTH_DEVROLES", "true");
        env.put("BOXOFFICE_LIMITS_ACCOUNT", "0");
        env.put("BOXOFFICE_LIMITS_ADDRESS", "0");
        env.put("BOXOFFICE_INVARIANTS_MILLIS", "5000");
        // every member start rehearses, as in production, but for 2 s rather than 20: the faults meet
        // members that rehearse beside members that serve, at a fraction of the time
        env.put("BOXOFFICE_REHEARSAL_SECONDS", "2");
        // a checkout cut short (its member killed, PostgreSQL gone) is finished by reconciliation:
        // seconds here instead of the production minute, so the test can wait for it
        env.put("BOXOFFICE_CHECKOUT_RECONCILE_MILLIS", "2000");
        env.put("BOXOFFICE_CHECKOUT_RECONCILE_GRACESECONDS", "5");
        env.put("BOXOFFICE_CHECKOUT_SETTLELEASESECONDS", "5");
        env.put("BOXOFFICE_DATA_DIR", dir.resolve("data-m" + (index + 1)).toString());
        List<String> jvm = new ArrayList<>(List.of(
                "-Dhazelcast.phone.home.enabled=false",
                "-Djava.util.logging.config.file=" + dir.resolve("logging.properties"),
                // five JVMs share two cores here: a small heap and the C1 compiler only start faster
                "-Xms64m", "-Xmx640m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-XX:+HeapDumpOnOutOfMemoryError", "-XX:HeapDumpPath=" + dir));
        memberSetup.adjust(index, env, jvm);
        Member m = Member.start("m" + (index + 1), jar, dir, httpPorts.get(index), gridPorts.get(index), jvm, env);
        started.add(m);
        log("started " + m);
        return m;
    }

    /** What a test changes in a member's start: entries it puts replace the rig's, options are added. */
    @FunctionalInterface
    interface MemberSetup {
        void adjust(int index, Map<String, String> env, List<String> jvmOptions);
    }

    /** Applies {@code setup} to every member started from now on (a network of its own, shorter timeouts). */
    void memberSetup(MemberSetup setup) {
        this.memberSetup = setup;
    }

    /** Closes {@code resource} when the rig closes, after the members have stopped (they may need it to leave). */
    void closeLast(AutoCloseable resource) {
        closeLast.add(resource);
    }

    /** Starts a member and waits until it is ready and sees {@code clusterSize} members. */
    Member startReady(int index, int clusterSize) {
        Member m = startMember(index);
        Duration took = m.awaitReady(http, clusterSize, READY_TIMEOUT);
        log(m.name + " ready in " + took.toMillis() + " ms (" + clusterSize + " members)");
        return m;
    }

    /**
     * Starts {@code n} members one after the other and waits until all see each other. The first
     * one migrates the database and seeds the demo catalog before it starts its grid member; the
     * others start after that (they find the catalog) and one by one, so that on two shared cores
     * a starving JVM does not miss heartbeats. With a quorum above one the first member cannot be
     * ready alone, so it is only waited for once enough members are there.
     */
    List<Member> startCluster(int n) {
        long t = System.nanoTime();
        List<Member> members = new ArrayList<>();
        Member first = startMember(0);
        members.add(first);
        first.awaitLog("is STARTING", READY_TIMEOUT); // migrations and demo seed are done
        for (int i = 1; i < n; i++) {
            if (i >= quorum) {
                Member previous = members.get(i - 1);
                Duration took = previous.awaitReady(http, i, READY_TIMEOUT);
                log(previous.name + " ready (" + i + " members) after " + took.toMillis() + " ms more");
            }
            members.add(startMember(i));
        }
        for (Member m : members) {
            m.awaitReady(http, n, READY_TIMEOUT);
        }
        log(n + " members ready after " + millis(t) + " ms");
        return members;
    }

    List<Member> started() {
        return List.copyOf(started);
    }

    // ---------------------------------------------------------------- API helpers

    String token(Member via, String accountId, boolean admin) {
        String body = "{\"accountId\":" + Http.quote(accountId) + (admin ? ",\"roles\":[\"admin\"]}" : "}");
        Http.Reply r = http.must(() -> http.post(via.base, "/v1/dev/tokens", null, body, null, Duration.ofSeconds(10)));
        if (r.status() != 201) {
            throw new AssertionError("dev token for " + accountId + ": " + r);
        }
        return r.json().get("token").asText();
    }

    String adminToken(Member via) {
        if (adminToken == null) {
            adminToken = token(via, "fault-ops", true);
        }
        return adminToken;
    }

    /** A sale under way on three members: the members, the show, whom the load balancer lists, the sale. */
    record ThreeMemberSale(List<Member> members, ShowPlan plan, List<Member> targets, Sale sale, boolean checkout) {
    }

    /**
     * PostgreSQL, three members, a show of 12,000 seats, and a sale from 24 buyers on all three (15 %
     * paid when checkout works), running for 10 s before it returns: the start of the tests that
     * take a member away mid-sale. {@code targets} is the load balancer's list, for the test to change.
     */
    ThreeMemberSale threeMemberSale(String showId) {
        startDatabase();
        List<Member> members = startCluster(3);
        ShowPlan plan = createShow(members.get(0), showId, 4, 50, 60, members);
        boolean checkout = checkoutWorks(members.get(1), plan);
        List<Member> targets = new java.util.concurrent.CopyOnWriteArrayList<>(members);
        Sale sale = new Sale(this, plan, () -> targets, new Sale.Options(24, 0.10, checkout ? 0.15 : 0.0, 60, 80)).start();
        sleep(10_000);
        return new ThreeMemberSale(members, plan, targets, sale, checkout);
    }

    /**
     * Creates a dedicated show of the demo event "mahler-5" that is on sale now, holds lasting ten
     * minutes (nothing expires during a test), {@code sections} sections of {@code rows} x
     * {@code perRow} seats, and waits until every given member knows it.
     */
    ShowPlan createShow(Member via, String showId, int sections, int rows, int perRow, List<Member> all) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < sections; i++) {
            s.append(i > 0 ? "," : "").append("{\"name\":\"").append((char) ('A' + i)).append("\",\"price\":\"")
                    .append(40 + 10 * i).append(".00\",\"rows\":").append(rows).append(",\"seatsPerRow\":")
                    .append(perRow).append('}');
        }
        String body = "{\"eventId\":\"mahler-5\",\"showId\":\"" + showId + "\",\"startsAt\":\"2031-06-01T19:00:00Z\","
                + "\"holdSeconds\":600,\"graceSeconds\":0,\"maxSeatsPerHold\":10,\"maxPerAccount\":10,"
                + "\"sections\":[" + s + "]}";
        Http.Reply r = http.must(() -> http.post(via.base, "/v1/admin/shows", adminToken(via), body, null,
                Duration.ofSeconds(60)));
        if (r.status() != 201) {
            throw new AssertionError("create show " + showId + ": " + r);
        }
        for (Member m : all) {
            String[] last = {""};
            awaitTrue(() -> {
                try {
                    Http.Reply a = http.get(m.base, "/v1/shows/" + showId + "/availability", null, Duration.ofSeconds(10));
                    last[0] = a.toString();
                    return a.status() == 200;
                } catch (IOException e) {
                    last[0] = e.toString();
                    return false;
                }
            }, Duration.ofSeconds(40), () -> m.name + " draws no seat map of the new show " + showId + ": " + last[0]);
        }
        List<String> order = query("SELECT seat_id FROM seats WHERE show_id = ? ORDER BY block_id, idx",
                rs -> string(rs, 1), showId);
        log("show " + showId + ": " + order.size() + " seats, " + r.json().path("blocks").asInt() + " blocks over "
                + r.json().path("blockGroups").asInt() + " block groups");
        return new ShowPlan(showId, order);
    }

    /**
     * Whether checkout is there and works on this build: holds the show's last seat and pays for it
     * with the simulator's always-approved card. Being built alongside these tests, it may be absent.
     */
    boolean checkoutWorks(Member via, ShowPlan plan) {
        String token = token(via, "fault-probe", false);
        String seat = plan.seatOrder().get(plan.seatOrder().size() - 1);
        try {
            Http.Reply held = http.post(via.base, "/v1/shows/" + plan.showId() + "/holds", token,
                    "{\"seatIds\":[\"" + seat + "\"]}", null, Duration.ofSeconds(30));
            if (held.status() != 201) {
                throw new AssertionError("probe hold of " + seat + ": " + held);
            }
            String holdId = held.json().get("holdId").asText();
            Http.Reply paid = http.post(via.base, "/v1/holds/" + holdId + "/checkout", token,
                    "{\"paymentMethod\":\"card_ok\"}", "probe-" + holdId, Duration.ofSeconds(30));
            boolean works = paid.status() == 200 && "BOOKED".equals(paid.json().path("status").asText());
            log("checkout probe: " + paid + (works ? " -> checkout is in the sale" : " -> holds only"));
            return works;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A show's seats in layout order (the availability encoding's order) and its rows. */
    record ShowPlan(String showId, List<String> seatOrder) {
        /** Global index ranges [from, to) of the rows: runs of adjacent seats live inside one. */
        List<int[]> rows() {
            List<int[]> out = new ArrayList<>();
            int start = 0;
            for (int i = 1; i <= seatOrder.size(); i++) {
                if (i == seatOrder.size() || !rowOf(seatOrder.get(i)).equals(rowOf(seatOrder.get(start)))) {
                    out.add(new int[]{start, i});
                    start = i;
                }
            }
            return out;
        }

        private static String rowOf(String seatId) {
            return seatId.substring(0, seatId.lastIndexOf('-'));
        }
    }

    /** Decodes {@code GET /v1/shows/{id}/availability}: one status name per seat in layout order. */
    static String[] decodeAvailability(JsonNode availability) {
        int count = availability.get("seatCount").asInt();
        List<String> statuses = new ArrayList<>();
        availability.get("statuses").forEach(n -> statuses.add(n.asText()));
        byte[] packed = java.util.Base64.getDecoder().decode(availability.get("data").asText());
        String[] out = new String[count];
        for (int g = 0; g < count; g++) {
            out[g] = statuses.get((packed[g >> 2] >> ((g & 3) * 2)) & 3);
        }
        return out;
    }

    // ---------------------------------------------------------------- diagnostics

    void log(String message) {
        String line = String.format("[fault %s +%6.1fs] %s", name, (System.nanoTime() - t0) / 1e9, message);
        System.out.println(line);
        try {
            Files.writeString(dir.resolve("test.log"), line + "\n", StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException ignored) {
            // the console line is enough
        }
    }

    /** Log lines that name a known failure, counted per member in {@link #diagnostics}. */
    private static final List<String> SIGNATURES = List.of(
            "is still loading data from external store", // a MapLoader's key load that never completed
            "SplitBrainProtectionException",
            "filter status: REJECTED",                   // an exception that cannot cross members
            "OutOfMemoryError",
            "is suspected to be dead",
            "SEVERE");

    /** The tails of every member's log and the database's, for a failure message. */
    String diagnostics() {
        StringBuilder b = new StringBuilder("\n--- diagnostics of " + name + " (all logs in " + dir + ")\n");
        for (Member m : started) {
            Map<String, Long> hits = new LinkedHashMap<>();
            try {
                List<String> lines = Files.readAllLines(m.log, StandardCharsets.ISO_8859_1);
                for (String signature : SIGNATURES) {
                    // the rig's own "=== m1 started ..." lines carry the JVM options (-XX:+HeapDumpOnOutOfMemoryError)
                    long n = lines.stream().filter(l -> !l.startsWith("=== ") && l.contains(signature)).count();
                    if (n > 0) {
                        hits.put(signature, n);
                    }
                }
            } catch (IOException e) {
                hits.put(e.toString(), 1L);
            }
            b.append("--- ").append(m).append(m.alive() ? " alive" : " exited").append("; log lines with ")
                    .append(hits).append("; last lines of ").append(m.log).append(":\n").append(m.tail(40)).append('\n');
        }
        b.append("--- PostgreSQL log:\n").append(tail(EmbeddedDatabase.logFile(dir.resolve("pg")), 15));
        return b.toString();
    }

    /**
     * The last {@code lines} lines of a log, each cut at 300 characters, runs of lines from the
     * same logger with the same start (Hazelcast's retry warnings) folded into one.
     */
    static String tail(Path file, int lines) {
        List<String> all;
        try {
            all = Files.readAllLines(file, StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            return "(no log: " + e + ")";
        }
        List<String> folded = new ArrayList<>();
        String runKey = null;
        int run = 0;
        for (String line : all) {
            String key = line.length() > 13 ? line.substring(13, Math.min(line.length(), 110)) : line;
            if (key.equals(runKey)) {
                run++;
                continue;
            }
            if (run > 0) {
                folded.add("    (" + run + " more like the line above)");
            }
            runKey = key;
            run = 0;
            folded.add(line.length() > 300 ? line.substring(0, 300) + "..." : line);
        }
        if (run > 0) {
            folded.add("    (" + run + " more like the line above)");
        }
        return String.join("\n", folded.subList(Math.max(0, folded.size() - lines), folded.size()));
    }

    // ---------------------------------------------------------------- small things

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static void awaitTrue(java.util.function.BooleanSupplier condition, Duration timeout,
                          java.util.function.Supplier<String> what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s: " + what.get());
            }
            sleep(200);
        }
    }

    static long millis(long sinceNanos) {
        return (System.nanoTime() - sinceNanos) / 1_000_000;
    }

    static String string(ResultSet rs, int column) {
        try {
            return rs.getString(column);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A port nobody listens on, below the ephemeral range, not handed out before. */
    private static int freePort(Set<Integer> taken) {
        for (int attempt = 0; attempt < 1000; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(20_000, 32_000);
            if (taken.contains(port)) {
                continue;
            }
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(false);
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            } catch (IOException e) {
                continue;
            }
            taken.add(port);
            return port;
        }
        throw new IllegalStateException("no free port");
    }

    /**
     * Hazelcast and Helidon at INFO (membership and migrations are worth reading after a failure), plus
     * the comma-separated lines of {@code -Dfault.log} (for example {@code com.hazelcast.level=FINE}).
     */
    private void writeLogging() {
        String props = """
                handlers=java.util.logging.ConsoleHandler
                java.util.logging.ConsoleHandler.level=ALL
                java.util.logging.SimpleFormatter.format=%1$tH:%1$tM:%1$tS.%1$tL %4$s %3$s: %5$s%6$s%n
                .level=INFO
                com.hazelcast.level=INFO
                com.hazelcast.system.logo.level=OFF
                com.hazelcast.internal.diagnostics.level=WARNING
                com.hazelcast.jet.level=WARNING
                com.zaxxer.hikari.level=WARNING
                org.flywaydb.level=WARNING
                io.zonky.level=WARNING
                """ + String.join("\n", System.getProperty("fault.log", "").split(",")) + "\n";
        try {
            Files.writeString(dir.resolve("logging.properties"), props, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void destroyAll() {
        for (Member m : List.copyOf(started)) {
            m.destroyQuietly();
        }
        EmbeddedDatabase d = db;
        if (d != null) {
            d.close();
        }
        for (AutoCloseable resource : closeLast) {
            try {
                resource.close();
            } catch (Exception e) {
                System.out.println("[fault " + name + "] could not close " + resource + ": " + e);
            }
        }
    }

    @Override
    public void close() {
        destroyAll();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to
        }
        http.close();
        log("rig closed at " + Instant.now());
    }
}
