package org.boxoffice.bench.probe;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A Flight Recorder profile of a child JVM over one run, started and dumped with jcmd, and boiled
 * down to where the CPU samples fall: hot methods (self and inclusive), the component each sample
 * is working for, and the threads. Read with the JDK's own {@code jdk.jfr.consumer}, so no tool is
 * needed to get the gist; the .jfr file stays in the results folder for JDK Mission Control.
 */
public final class JfrProfile {

    private static final String RECORDING = "boxoffice-bench";
    private static final int TOP = 25;
    private static final String CPU_TIME_THROTTLE = "2ms";

    /** A method and its share of the execution samples. */
    public record Hot(String name, long samples, double share) {
    }

    /**
     * @param byComponent samples by the component the work is for: the first non-JDK frame from the
     *                    top decides (a HashMap.get called by Hazelcast counts as Hazelcast)
     * @param stages      every sample by the stage of a hold it works for, with its time: the CPU-time
     *                    samples where the recording has them, else the execution samples
     */
    public record Summary(Path file, long samples, List<Hot> self, List<Hot> inclusive, List<Hot> byComponent,
                          List<Hot> byThread, long gcCount, double gcPauseMillis, StageProfile stages) {
    }

    private JfrProfile() {
    }

    public static void start(Path jcmd, long pid) throws IOException, InterruptedException {
        jcmd(jcmd, pid, "JFR.start", "name=" + RECORDING, "settings=profile");
    }

    /**
     * {@link #start}, with CPU-time samples as well where the JVM has them (JDK 25 on Linux): one
     * sample per {@value #CPU_TIME_THROTTLE} of a thread's CPU, taken by the kernel's timer, so
     * they weigh the stages by CPU; the execution sampler's few dozen samples a second thin out
     * further when the machine is busy. A JVM without the event starts the plain profile.
     */
    public static void startWithCpuTime(Path jcmd, long pid) throws IOException, InterruptedException {
        try {
            jcmd(jcmd, pid, "JFR.start", "name=" + RECORDING, "settings=profile", "jdk.CPUTimeSample#enabled=true",
                    "jdk.CPUTimeSample#throttle=" + CPU_TIME_THROTTLE);
        } catch (IOException noCpuTimeSampler) {
            start(jcmd, pid);
        }
    }

    public static void dumpAndStop(Path jcmd, long pid, Path file) throws IOException, InterruptedException {
        jcmd(jcmd, pid, "JFR.dump", "name=" + RECORDING, "filename=" + file.toAbsolutePath());
        jcmd(jcmd, pid, "JFR.stop", "name=" + RECORDING);
    }

    private static void jcmd(Path jcmd, long pid, String... command) throws IOException, InterruptedException {
        List<String> args = new java.util.ArrayList<>(List.of(jcmd.toString(), Long.toString(pid)));
        args.addAll(List.of(command));
        Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("jcmd " + String.join(" ", command) + " failed: " + out);
        }
    }

    public static Summary summarize(Path file) throws IOException {
        Map<String, Long> self = new HashMap<>();
        Map<String, Long> inclusive = new HashMap<>();
        Map<String, Long> components = new HashMap<>();
        Map<String, Long> threads = new HashMap<>();
        long samples = 0;
        long gcCount = 0;
        double gcPause = 0;
        StageProfile.Builder stages = new StageProfile.Builder("execution samples");
        StageProfile.Builder cpuTimeStages = new StageProfile.Builder("CPU-time samples");
        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent e = recording.readEvent();
                String type = e.getEventType().getName();
                if (type.equals("jdk.GarbageCollection")) {
                    gcCount++;
                    gcPause += e.getDuration("sumOfPauses").toNanos() / 1e6;
                    continue;
                }
                if (type.equals("jdk.CPUTimeSample")) {
                    RecordedStackTrace stack = e.getStackTrace();
                    if (stack != null && !stack.getFrames().isEmpty()) {
                        cpuTimeStages.add(e.getStartTime().toEpochMilli(), stack.getFrames().stream().map(JfrProfile::name).toList());
                    }
                    continue;
                }
                if (!type.equals("jdk.ExecutionSample")) {
                    continue;
                }
                RecordedStackTrace stack = e.getStackTrace();
                if (stack == null || stack.getFrames().isEmpty()) {
                    continue;
                }
                samples++;
                List<RecordedFrame> frames = stack.getFrames();
                self.merge(name(frames.get(0)), 1L, Long::sum);
                Set<String> seen = new HashSet<>();
                List<String> names = new ArrayList<>(frames.size());
                for (RecordedFrame f : frames) {
                    String n = name(f);
                    names.add(n);
                    if (seen.add(n)) {
                        inclusive.merge(n, 1L, Long::sum);
                    }
                }
                stages.add(e.getStartTime().toEpochMilli(), names);
                components.merge(component(frames), 1L, Long::sum);
                RecordedThread thread = e.getThread("sampledThread");
                threads.merge(threadGroup(thread), 1L, Long::sum);
            }
        }
        return new Summary(file, samples, top(self, samples), top(inclusive, samples), top(components, samples),
                top(threads, samples), gcCount, gcPause, cpuTimeStages.size() > 0 ? cpuTimeStages.build() : stages.build());
    }

    private static String name(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    /** The component a sample works for: the first frame from the top outside the JDK. */
    static String component(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames) {
            String type = f.getMethod().getType().getName();
            if (!isJdk(type)) {
                return componentOf(type);
            }
        }
        return componentOf(frames.get(0).getMethod().getType().getName());
    }

    static boolean isJdk(String type) {
        return type.startsWith("java.") || type.startsWith("jdk.") || type.startsWith("sun.")
                || type.startsWith("javax.") || type.startsWith("com.sun.");
    }

    static String componentOf(String type) {
        Map<String, String> prefixes = new LinkedHashMap<>();
        prefixes.put("org.boxoffice.", "boxoffice");
        prefixes.put("com.hazelcast.", "hazelcast");
        prefixes.put("io.helidon.", "helidon (HTTP)");
        prefixes.put("org.postgresql.", "postgresql JDBC");
        prefixes.put("com.zaxxer.hikari.", "hikaricp");
        prefixes.put("com.fasterxml.jackson.", "jackson (JSON)");
        prefixes.put("com.nimbusds.", "nimbus (JWT)");
        prefixes.put("org.flywaydb.", "flyway");
        for (Map.Entry<String, String> e : prefixes.entrySet()) {
            if (type.startsWith(e.getKey())) {
                return e.getValue();
            }
        }
        return isJdk(type) ? "jdk only" : "other (" + type.substring(0, Math.max(0, type.lastIndexOf('.'))) + ")";
    }

    /** Thread names without their numbers, so a pool counts as one. */
    private static String threadGroup(RecordedThread thread) {
        if (thread == null) {
            return "?";
        }
        String name = thread.getJavaName();
        if (name == null || name.isEmpty()) {
            return thread.isVirtual() ? "virtual (request handlers)" : "?";
        }
        return name.replaceAll("\\d+", "#");
    }

    private static List<Hot> top(Map<String, Long> counts, long total) {
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                .limit(TOP)
                .map(e -> new Hot(e.getKey(), e.getValue(), total == 0 ? 0 : (double) e.getValue() / total))
                .toList();
    }
}
