package org.boxoffice.bench.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Locale;

/**
 * A CPU quota of its own for each member: a group in the cgroup v1 {@code cpu} controller with
 * {@code cpu.cfs_quota_us} set, or in cgroup v2 with {@code cpu.max}, so that several members on one
 * machine each get a slice of a core, as pods with CPU limits do, and a scaling curve means
 * something on a machine with fewer cores than members. The load generator and PostgreSQL stay
 * outside every group.
 *
 * <p>A member enters its group before its JVM starts: the command runs under {@code sh}, which
 * writes its own pid into the group and then {@code exec}s the JVM, so every thread the JVM ever
 * starts is inside. {@link #close()} removes every group it made (a group can only be removed once
 * its processes have left it, so close after the members have stopped).
 */
public final class CpuQuota implements AutoCloseable {

    /** The kernel's and Kubernetes' default CFS period. */
    public static final int DEFAULT_PERIOD_MILLIS = 100;

    private final Path root;
    private final boolean v2;
    private final double cores;
    private final long periodMicros;
    private final String prefix;
    private final List<Path> made = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** A bench stopped early (Ctrl-C) still leaves no group behind: it kills what is left in them and removes them. */
    private final Thread onExit = new Thread(this::abandon, "cpu-quota-cleanup");

    private CpuQuota(Path root, boolean v2, double cores, long periodMicros) {
        this.root = root;
        this.v2 = v2;
        this.cores = cores;
        this.periodMicros = periodMicros;
        byte[] id = new byte[3];
        new SecureRandom().nextBytes(id);
        this.prefix = "boxoffice-bench-" + HexFormat.of().formatHex(id) + "-";
        Runtime.getRuntime().addShutdownHook(onExit);
    }

    /** On the way out of a bench stopped early: every process still in a group is killed, then the groups go. */
    private void abandon() {
        for (Path g : made) {
            try {
                for (String pid : Files.readAllLines(g.resolve("cgroup.procs"))) {
                    if (!pid.isBlank()) {
                        ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(ProcessHandle::destroyForcibly);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // gone already
            }
        }
        remove();
    }

    /**
     * The cgroup hierarchy this machine lets the bench write.
     *
     * @param cores        each group's quota, in cores
     * @param periodMillis the CFS period the quota is counted over: a group that spent its quota waits
     *                     for the next period, so a member in 0.4 cores with the default 100 ms period can
     *                     be stopped for 60 ms at a time (Kubernetes sets it with the kubelet's
     *                     {@code cpuCFSQuotaPeriod})
     * @throws IllegalStateException saying why, when neither a writable v1 {@code cpu} controller nor a
     *                               writable v2 hierarchy with the {@code cpu} controller is mounted
     */
    public static CpuQuota open(double cores, int periodMillis) {
        long periodMicros = periodMillis * 1_000L;
        Path v1 = Path.of("/sys/fs/cgroup/cpu");
        if (Files.isRegularFile(v1.resolve("cpu.cfs_quota_us"))) {
            if (!Files.isWritable(v1)) {
                throw new IllegalStateException("--cpu-quota: the cgroup v1 cpu controller at " + v1 + " is not writable by this"
                        + " user (run the bench as root, or without --cpu-quota)");
            }
            return new CpuQuota(v1, false, cores, periodMicros);
        }
        Path v2 = Path.of("/sys/fs/cgroup");
        try {
            if (Files.isRegularFile(v2.resolve("cgroup.controllers"))
                    && Files.readString(v2.resolve("cgroup.controllers")).contains("cpu")) {
                if (!Files.isWritable(v2)) {
                    throw new IllegalStateException("--cpu-quota: the cgroup v2 hierarchy at " + v2 + " is not writable by this"
                            + " user (run the bench as root, or without --cpu-quota)");
                }
                if (!Files.readString(v2.resolve("cgroup.subtree_control")).contains("cpu")) {
                    Files.writeString(v2.resolve("cgroup.subtree_control"), "+cpu");
                }
                return new CpuQuota(v2, true, cores, periodMicros);
            }
        } catch (IOException e) {
            throw new IllegalStateException("--cpu-quota: cannot use the cgroup v2 hierarchy at " + v2 + ": " + e.getMessage());
        }
        throw new IllegalStateException("--cpu-quota: no cgroup cpu controller found (neither /sys/fs/cgroup/cpu nor cgroup v2"
                + " with cpu): this machine cannot give each member a quota of its own");
    }

    public double cores() {
        return cores;
    }

    /** The CFS period the quota is counted over, in milliseconds. */
    public long periodMillis() {
        return periodMicros / 1_000;
    }

    /**
     * A new group with the quota, for one member; the command that starts {@code command} inside it.
     *
     * @throws IOException if the group cannot be made or its quota not set
     */
    public List<String> wrap(String member, List<String> command) throws IOException {
        Path group = root.resolve(prefix + member);
        if (!made.contains(group)) {
            // a member started again (a rolling restart, a kill) goes back into its own group
            Files.createDirectory(group);
            made.add(group);
        }
        long quota = Math.round(cores * periodMicros);
        if (v2) {
            Files.writeString(group.resolve("cpu.max"), quota + " " + periodMicros);
        } else {
            Files.writeString(group.resolve("cpu.cfs_period_us"), Long.toString(periodMicros));
            Files.writeString(group.resolve("cpu.cfs_quota_us"), Long.toString(quota));
        }
        List<String> wrapped = new ArrayList<>(List.of("/bin/sh", "-c", "echo $$ > '" + group.resolve("cgroup.procs")
                + "' && exec \"$@\"", "sh"));
        wrapped.addAll(command);
        return wrapped;
    }

    /**
     * How often the processes of the groups whose name contains {@code part} were held back by the
     * quota, and for how long: each group's {@code cpu.stat} (periods, throttled periods, throttled time).
     */
    public String throttling(String part) {
        StringBuilder b = new StringBuilder();
        for (Path g : made) {
            if (!g.getFileName().toString().contains(part)) {
                continue;
            }
            try {
                String stat = Files.readString(g.resolve("cpu.stat")).replace('\n', ' ').trim();
                b.append(String.format(Locale.ROOT, "%s: %s; ", g.getFileName(), stat));
            } catch (IOException e) {
                // a group already gone
            }
        }
        return b.toString();
    }

    /**
     * Summed over the groups whose name contains {@code part}: the periods in which their
     * processes ran, those in which the quota held them back, and the nanoseconds they were held back.
     */
    public long[] periods(String part) {
        long[] sum = new long[3];
        for (Path g : made) {
            if (!g.getFileName().toString().contains(part)) {
                continue;
            }
            try {
                for (String line : Files.readAllLines(g.resolve("cpu.stat"))) {
                    String[] kv = line.trim().split("\\s+");
                    if (kv.length != 2) {
                        continue;
                    }
                    switch (kv[0]) {
                        case "nr_periods" -> sum[0] += Long.parseLong(kv[1]);
                        case "nr_throttled" -> sum[1] += Long.parseLong(kv[1]);
                        case "throttled_time" -> sum[2] += Long.parseLong(kv[1]);
                        case "throttled_usec" -> sum[2] += Long.parseLong(kv[1]) * 1_000;
                        default -> {
                        }
                    }
                }
            } catch (IOException | NumberFormatException e) {
                // a group already gone
            }
        }
        return sum;
    }

    /**
     * For every group whose name contains {@code part}, by the group's name less this quota's prefix:
     * the periods in which its processes ran and those in which the quota held them back, so far
     * ({@code cpu.stat}). A group already gone is left out.
     */
    public Map<String, long[]> periodsByGroup(String part) {
        Map<String, long[]> byGroup = new java.util.TreeMap<>();
        for (Path g : made) {
            String name = g.getFileName().toString();
            if (!name.contains(part)) {
                continue;
            }
            long[] counts = new long[2];
            try {
                for (String line : Files.readAllLines(g.resolve("cpu.stat"))) {
                    String[] kv = line.trim().split("\\s+");
                    if (kv.length == 2 && kv[0].equals("nr_periods")) {
                        counts[0] = Long.parseLong(kv[1]);
                    } else if (kv.length == 2 && kv[0].equals("nr_throttled")) {
                        counts[1] = Long.parseLong(kv[1]);
                    }
                }
                byGroup.put(name.substring(prefix.length()), counts);
            } catch (IOException | NumberFormatException e) {
                // a group already gone
            }
        }
        return byGroup;
    }

    /** Removes every group this made; their processes must have exited. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(onExit);
        } catch (IllegalStateException e) {
            // shutting down already: the hook does it
        }
        remove();
    }

    private void remove() {
        for (Path g : made.reversed()) {
            for (int i = 0; i < 50; i++) {
                try {
                    Files.deleteIfExists(g);
                    break;
                } catch (IOException e) {
                    // a process still leaving the group: try again shortly
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
            if (Files.exists(g)) {
                System.err.println("bench: could not remove cgroup " + g + " (remove it with rmdir once its processes are gone)");
            }
        }
        made.clear();
    }
}
