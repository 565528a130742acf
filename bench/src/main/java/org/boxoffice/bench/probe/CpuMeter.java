package org.boxoffice.bench.probe;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * CPU time spent by groups of processes between two samples (load generator, server, PostgreSQL),
 * from the operating system's per-process accounting. On a machine where all three share two cores
 * this says who got the cores. A process that exits between the samples loses its share (pooled
 * PostgreSQL backends live through a run).
 */
public final class CpuMeter {

    /** The thread kind of the JIT compiler threads. */
    public static final String JIT = "JIT compiler";
    /** The thread kind of the garbage collector's threads. */
    public static final String GC = "GC";

    /** The group name of the whole machine's busy time. */
    public static final String MACHINE = "whole machine";
    /** Linux reports /proc/stat in clock ticks of 1/100 s on every common platform. */
    private static final long USER_HZ = 100;

    private final Map<String, Supplier<List<ProcessHandle>>> groups;

    /** A snapshot: per group, CPU nanoseconds per pid. */
    public record Sample(long atNanos, Map<String, Map<Long, Long>> cpuNanos) {
    }

    public CpuMeter(Map<String, Supplier<List<ProcessHandle>>> groups) {
        this.groups = new LinkedHashMap<>(groups);
    }

    public Sample sample() {
        Map<String, Map<Long, Long>> out = new LinkedHashMap<>();
        long machine = machineBusyNanos();
        if (machine >= 0) {
            out.put(MACHINE, Map.of(0L, machine));
        }
        groups.forEach((name, processes) -> {
            Map<Long, Long> perPid = new HashMap<>();
            for (ProcessHandle p : processes.get()) {
                p.info().totalCpuDuration().ifPresent(d -> perPid.put(p.pid(), d.toNanos()));
            }
            out.put(name, perPid);
        });
        return new Sample(System.nanoTime(), out);
    }

    /** CPU seconds per group between two samples, plus {@code wall} seconds. */
    public static Map<String, Double> between(Sample start, Sample end) {
        Map<String, Double> out = new LinkedHashMap<>();
        end.cpuNanos().forEach((group, perPid) -> {
            Map<Long, Long> before = start.cpuNanos().getOrDefault(group, Map.of());
            long nanos = 0;
            for (Map.Entry<Long, Long> e : perPid.entrySet()) {
                nanos += e.getValue() - before.getOrDefault(e.getKey(), 0L);
            }
            out.put(group, Duration.ofNanos(nanos).toMillis() / 1000.0);
        });
        out.put("wall", (end.atNanos() - start.atNanos()) / 1e9);
        return out;
    }

    /**
     * Busy CPU time of the whole machine since boot (all cores, everything but idle and iowait),
     * from /proc/stat; -1 elsewhere. Beside the measured groups it shows what else ran meanwhile.
     */
    public static long machineBusyNanos() {
        try {
            String[] f = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            // user nice system idle iowait irq softirq steal
            for (int i : new int[]{1, 2, 3, 6, 7, 8}) {
                busy += Long.parseLong(f[i]);
            }
            return busy * (1_000_000_000L / USER_HZ);
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * CPU nanoseconds per thread kind of one process, from /proc/PID/task/TID/{comm,stat}: garbage
     * collection and JIT compilation show up here, which a Java profiler's samples never contain.
     * Thread names are the kernel's (15 characters). Empty where there is no /proc.
     */
    public static Map<String, Long> threadKinds(long pid) {
        Map<String, Long> out = new java.util.TreeMap<>();
        java.nio.file.Path tasks = java.nio.file.Path.of("/proc", Long.toString(pid), "task");
        try (java.util.stream.Stream<java.nio.file.Path> list = java.nio.file.Files.list(tasks)) {
            for (java.nio.file.Path task : list.toList()) {
                try {
                    String comm = java.nio.file.Files.readString(task.resolve("comm")).trim();
                    String stat = java.nio.file.Files.readString(task.resolve("stat"));
                    // fields after the parenthesised name: state is field 3, utime 14, stime 15
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
                    out.merge(threadKind(comm), ticks * (1_000_000_000L / USER_HZ), Long::sum);
                } catch (java.io.IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (java.io.IOException e) {
            return Map.of();
        }
        return out;
    }

    /** Groups kernel thread names into the kinds worth telling apart. */
    static String threadKind(String comm) {
        if (comm.startsWith("GC Thread") || comm.startsWith("G1 ") || comm.startsWith("VM Periodic")
                || comm.startsWith("G1") || comm.startsWith("ZGC") || comm.startsWith("ZWorker")) {
            return GC;
        }
        if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler")) {
            return JIT;
        }
        if (comm.startsWith("ForkJoinPool-") || comm.startsWith("VirtualThread-")) {
            return "virtual-thread carriers (request handlers)";
        }
        if (comm.startsWith("hz.")) {
            // the kernel keeps 15 characters: the member's name, not which pool
            return "hazelcast (partition, map-store offload, ...)";
        }
        if (comm.startsWith("[0x") || comm.contains("WebServer") || comm.startsWith("server-")) {
            return "web server acceptors/sockets";
        }
        if (comm.equals("VM Thread")) {
            return "VM thread (safepoints)";
        }
        return "other (" + comm.replaceAll("\\d+", "#") + ")";
    }

    /** A process and everything it started (PostgreSQL's postmaster and its backends). */
    public static List<ProcessHandle> withDescendants(long pid) {
        return ProcessHandle.of(pid)
                .map(p -> java.util.stream.Stream.concat(java.util.stream.Stream.of(p), p.descendants()).toList())
                .orElse(List.of());
    }
}
