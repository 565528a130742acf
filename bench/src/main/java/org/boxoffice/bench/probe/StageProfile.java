package org.boxoffice.bench.probe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The service's profile samples by the stage of a hold they work for: HTTP and parsing, the token,
 * the velocity bucket, the allowance, the claim processor, the store's preparation, the statement,
 * the commit, the reply, Hazelcast's own, and what is not on the hold path. Each sample goes to
 * exactly one stage, the one of the <b>innermost frame that names a stage</b>:
 *
 * <ul>
 *   <li>Our own frames name the stage ({@code org.boxoffice}, by class and method; see
 *       {@link #frameStage}). The domain's frames name none: a {@code SeatBlock.hold} works for the
 *       claim processor that called it, a {@code SeatPicker} for the rule that asked.</li>
 *   <li>Library frames (the JDK, Helidon, Hazelcast, Jackson, JDBC, HikariCP) name none while one of
 *       our frames is beneath them: Hazelcast invoking an entry processor for
 *       {@code VelocityLimits} is the velocity bucket's cost, Helidon writing a reply for
 *       {@code Json.send} is the reply's. Only a sample with no stage-naming frame of ours falls to
 *       Helidon (HTTP and parsing) or Hazelcast (its own: operations, serialization, networking,
 *       backups), else to the JDK's scheduling of (virtual) threads and its I/O poller, else to
 *       other. Our compact serializers count as Hazelcast's own.</li>
 *   <li>Under the referee's write (the group commit, the inventory map store), JDBC frames split
 *       the store: a {@code commit} or {@code rollback} on the stack is the commit, a statement's
 *       execution or its result read is the statement, the rest (the pool, arrays, binding) is the
 *       store's preparation. A statement without a transaction of its own (autocommit) commits
 *       inside the statement's round trip, so its commit counts as the statement.</li>
 * </ul>
 *
 * The audit row has no stage: {@code apply_seat_transitions} writes it inside PostgreSQL, so the
 * service pays for it only in the statement's arguments, and PostgreSQL in its own CPU.
 *
 * <p>The samples are Flight Recorder's CPU-time samples where the recording has them (one per
 * fixed slice of a Java thread's CPU), else its execution samples (running Java threads every few
 * milliseconds); either way their count tracks the CPU of the service's Java threads. The garbage
 * collector's and the JIT compiler's threads are not sampled: scaled by the service's measured
 * CPU, their time is a row of its own where the run measured it (CPU by thread kind), else it is
 * spread over the stages in proportion.
 */
public final class StageProfile {

    /** A stage of a hold, in the order a winner passes through them, then what is not on the path. */
    public enum Stage {
        HTTP("HTTP and parsing"),
        TOKEN("token"),
        RULES("hold rules, fast gate"),
        VELOCITY("velocity bucket"),
        ALLOWANCE("allowance"),
        HOLD_PATH("hold path, the rest"),
        CLAIM("claim processor"),
        STORE("store preparation"),
        STATEMENT("the statement"),
        COMMIT("the commit"),
        REPLY("the reply"),
        SEAT_MAP("seat map (reads, snapshots)"),
        HAZELCAST("Hazelcast's own"),
        BACKGROUND("background (sweepers, metrics)"),
        SCHEDULING("thread scheduling, I/O polling"),
        OTHER("other");

        private final String label;

        Stage(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** One stage's share of a window's samples, and what it costs scaled by the service's CPU over that window. */
    public record Row(String stage, long samples, double share, double microsPerAttempt, double microsPerHold) {
    }

    /**
     * The breakdown of one window of the run.
     *
     * @param serverCpuSeconds the service's CPU in the window that the samples are scaled to
     * @param serverMicrosPerAttempt that CPU per hold attempt in the window, all stages together
     * @param serverMicrosPerHold    that CPU per durable hold, all stages together
     */
    public record Breakdown(String window, String source, long samples, double serverCpuSeconds, double attempts, long holds,
                            double serverMicrosPerAttempt, double serverMicrosPerHold, List<Row> rows) {
    }

    private static final Set<String> JDBC_EXECUTION = Set.of("execute", "executeQuery", "executeUpdate", "executeBatch",
            "executeWithFlags", "executeInternal", "sendQuery", "processResults", "getArray");

    private final String source;
    private final long[] times;
    private final byte[] stages;
    private final int size;

    private StageProfile(String source, long[] times, byte[] stages, int size) {
        this.source = source;
        this.times = times;
        this.stages = stages;
        this.size = size;
    }

    /** Collects samples in the order they come; {@link #build} makes the profile. */
    public static final class Builder {
        private final String source;
        private long[] times = new long[1024];
        private byte[] stages = new byte[1024];
        private int size;

        /** @param source the kind of samples, as the report names them ("CPU-time samples") */
        public Builder(String source) {
            this.source = source;
        }

        public int size() {
            return size;
        }

        /** A sample at {@code epochMillis} with its stack, innermost frame first, as {@code type.method}. */
        public Builder add(long epochMillis, List<String> frames) {
            if (size == times.length) {
                times = Arrays.copyOf(times, size * 2);
                stages = Arrays.copyOf(stages, size * 2);
            }
            times[size] = epochMillis;
            stages[size] = (byte) of(frames).ordinal();
            size++;
            return this;
        }

        public StageProfile build() {
            return new StageProfile(source, times, stages, size);
        }
    }

    /** The kind of samples ("CPU-time samples", "execution samples"). */
    public String source() {
        return source;
    }

    /** Samples in the profile. */
    public long samples() {
        return size;
    }

    /** Samples per stage taken in [fromMillis, toMillis], in {@link Stage} order. */
    public long[] counts(long fromMillis, long toMillis) {
        long[] counts = new long[Stage.values().length];
        for (int i = 0; i < size; i++) {
            if (times[i] >= fromMillis && times[i] <= toMillis) {
                counts[stages[i]]++;
            }
        }
        return counts;
    }

    /** Samples per stage over the whole profile. */
    public long[] counts() {
        return counts(Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /**
     * The window's samples as shares of the service's CPU by stage, each also per attempt and per
     * durable hold; stages without a sample are left out.
     *
     * @param sampledCpuSeconds the CPU of the threads the samples come from (the Java threads)
     * @param unsampled         CPU seconds of threads that are never sampled (the JIT compiler, the
     *                          garbage collector), each a row of its own after the stages
     */
    public static Breakdown breakdown(String window, String source, long[] counts, double sampledCpuSeconds,
                                      java.util.Map<String, Double> unsampled, double attempts, long holds) {
        long total = Arrays.stream(counts).sum();
        double server = sampledCpuSeconds + unsampled.values().stream().mapToDouble(Double::doubleValue).sum();
        List<Row> rows = new ArrayList<>();
        for (Stage s : Stage.values()) {
            long n = counts[s.ordinal()];
            if (n > 0) {
                rows.add(row(s.label(), n, sampledCpuSeconds * n / total, server, attempts, holds));
            }
        }
        unsampled.forEach((name, cpu) -> rows.add(row(name + " (not sampled)", 0, cpu, server, attempts, holds)));
        return new Breakdown(window, source, total, server, attempts, holds,
                attempts > 0 ? server * 1e6 / attempts : Double.NaN, holds > 0 ? server * 1e6 / holds : Double.NaN,
                List.copyOf(rows));
    }

    private static Row row(String stage, long samples, double cpuSeconds, double server, double attempts, long holds) {
        return new Row(stage, samples, cpuSeconds / server, attempts > 0 ? cpuSeconds * 1e6 / attempts : Double.NaN,
                holds > 0 ? cpuSeconds * 1e6 / holds : Double.NaN);
    }

    /** The stage of a sample whose stack is {@code frames}, innermost first, each {@code type.method}. */
    public static Stage of(List<String> frames) {
        for (int i = 0; i < frames.size(); i++) {
            String frame = frames.get(i);
            int dot = frame.lastIndexOf('.');
            String type = frame.substring(0, dot);
            String method = frame.substring(dot + 1);
            Stage stage = frameStage(type, method);
            if (stage == null) {
                continue;
            }
            return stage == Stage.STORE && refereeWrite(type) ? storeStep(frames.subList(0, i)) : stage;
        }
        for (String frame : frames) {
            if (frame.startsWith("io.helidon.")) {
                return Stage.HTTP;
            }
            if (frame.startsWith("com.hazelcast.")) {
                return Stage.HAZELCAST;
            }
        }
        for (String frame : frames) {
            if (frame.startsWith("java.lang.VirtualThread.") || frame.startsWith("java.util.concurrent.ForkJoin")
                    || frame.startsWith("sun.nio.ch.Poller") || frame.startsWith("jdk.internal.vm.Continuation.run")) {
                return Stage.SCHEDULING;
            }
        }
        return Stage.OTHER;
    }

    /** The referee's write splits into preparation, statement and commit by the JDBC frames above it. */
    private static Stage storeStep(List<String> above) {
        boolean statement = false;
        for (String frame : above) {
            if (!isJdbc(frame)) {
                continue;
            }
            String method = frame.substring(frame.lastIndexOf('.') + 1);
            if (method.equals("commit") || method.equals("rollback")) {
                return Stage.COMMIT;
            }
            statement |= JDBC_EXECUTION.contains(method) || frame.contains("QueryExecutor") || frame.contains("PGStream");
        }
        return statement ? Stage.STATEMENT : Stage.STORE;
    }

    private static boolean isJdbc(String frame) {
        return frame.startsWith("org.postgresql.") || frame.startsWith("com.zaxxer.hikari.") || frame.startsWith("java.sql.");
    }

    private static boolean refereeWrite(String type) {
        return type.startsWith("org.boxoffice.mapstore.") || type.startsWith("org.boxoffice.app.ops.MeteredInventoryRepository");
    }

    /** The stage one of our frames names, or null for a frame that names none (libraries, the domain). */
    static Stage frameStage(String type, String method) {
        if (!type.startsWith("org.boxoffice.") || type.startsWith("org.boxoffice.domain.") || type.contains("$$Lambda")) {
            return null;
        }
        String name = type.substring(type.lastIndexOf('.') + 1);
        if (type.startsWith("org.boxoffice.app.")) {
            return appStage(type, name, method);
        }
        if (type.startsWith("org.boxoffice.grid.")) {
            return gridStage(type, name, method);
        }
        if (type.startsWith("org.boxoffice.mapstore.")) {
            if (name.startsWith("GroupLoad") || method.startsWith("allowances")) {
                return Stage.ALLOWANCE;
            }
            if (name.startsWith("Transactions")) {
                // shared by every repository: the caller beneath says whose transaction it is
                return null;
            }
            return name.startsWith("GroupCommit") || name.startsWith("PostgresInventoryRepository")
                    || name.startsWith("InventoryMapStore") ? Stage.STORE : Stage.OTHER;
        }
        return Stage.OTHER;
    }

    private static Stage appStage(String type, String name, String method) {
        if (type.startsWith("org.boxoffice.app.auth.")) {
            return Stage.TOKEN;
        }
        if (type.startsWith("org.boxoffice.app.http.")) {
            boolean reply = (name.equals("Json") || name.startsWith("HttpConventions") || name.startsWith("HttpCaching"))
                    && method.startsWith("send") || name.startsWith("JsonBytes");
            return reply ? Stage.REPLY : Stage.HTTP;
        }
        if (type.startsWith("org.boxoffice.app.holds.")) {
            if (name.startsWith("HoldView") || method.equals("reply")) {
                return Stage.REPLY;
            }
            if (name.startsWith("HoldRequest") || method.equals("parse")) {
                return Stage.HTTP;
            }
            if (name.endsWith("Rule") || name.startsWith("HoldRules") || method.equals("check")) {
                return Stage.RULES;
            }
            return method.equals("claim") ? Stage.CLAIM : Stage.HOLD_PATH;
        }
        if (type.startsWith("org.boxoffice.app.admission.")) {
            return method.startsWith("holdPermit") || method.startsWith("limitHolds") || name.startsWith("RateLimiter") || name.startsWith("AdmissionGate$")
                    ? Stage.VELOCITY : Stage.HOLD_PATH;
        }
        if (type.startsWith("org.boxoffice.app.catalog.")) {
            return Stage.SEAT_MAP;
        }
        if (type.startsWith("org.boxoffice.app.ops.")) {
            if (name.startsWith("HttpRequestMeter")) {
                return Stage.HTTP;
            }
            return name.startsWith("MeteredInventoryRepository") ? Stage.STORE : Stage.BACKGROUND;
        }
        return Stage.OTHER;
    }

    private static Stage gridStage(String type, String name, String method) {
        if (type.startsWith("org.boxoffice.grid.limits.")) {
            return Stage.VELOCITY;
        }
        if (type.startsWith("org.boxoffice.grid.serialization.")) {
            return Stage.HAZELCAST;
        }
        if (type.startsWith("org.boxoffice.grid.room.") || type.startsWith("org.boxoffice.grid.waitlist.")
                || type.startsWith("org.boxoffice.grid.catalog.") || type.startsWith("org.boxoffice.grid.member.")) {
            return Stage.BACKGROUND;
        }
        if (name.startsWith("Allowance")) {
            return Stage.ALLOWANCE;
        }
        if (name.startsWith("Inventory$BlockChanges") || name.startsWith("ShowSnapshots") && method.equals("heard")) {
            return Stage.SEAT_MAP;
        }
        if (name.startsWith("ShowSnapshot")) {
            // a snapshot read works for whoever reads it: the fast gate, a seat map
            return null;
        }
        if (name.startsWith("Block") || name.startsWith("Inventory") || name.startsWith("Seats")) {
            return Stage.CLAIM;
        }
        if (name.startsWith("HoldSweeper") || name.startsWith("Admissions") || name.startsWith("Daemons")
                || name.startsWith("LapsedHolds")) {
            return Stage.BACKGROUND;
        }
        return null;
    }
}
