package org.boxoffice.bench.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The live objects of a JVM by class, from {@code jcmd <pid> GC.class_histogram} (which runs a full
 * collection first, so only reachable objects count). Differences between two histograms measure
 * what something added to the heap.
 *
 * @param totalBytes     live heap in bytes
 * @param bytesByClass   shallow bytes per class name ({@code [B} is byte[], {@code [I} int[], {@code [J} long[])
 * @param countByClass   instances per class name
 */
public record ClassHistogram(long totalBytes, long totalInstances, Map<String, Long> bytesByClass,
                             Map<String, Long> countByClass) {

    private static final Pattern ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+).*$");
    private static final Pattern TOTAL = Pattern.compile("^Total\\s+(\\d+)\\s+(\\d+).*$");

    /** Runs jcmd against {@code pid}. */
    public static ClassHistogram of(Path jcmd, long pid) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.class_histogram")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("jcmd GC.class_histogram failed: " + out.lines().limit(5).toList());
        }
        return parse(out);
    }

    public static ClassHistogram parse(String output) {
        Map<String, Long> bytes = new HashMap<>();
        Map<String, Long> counts = new HashMap<>();
        long total = -1;
        long instances = 0;
        for (String line : output.lines().toList()) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                counts.merge(m.group(3), Long.parseLong(m.group(1)), Long::sum);
                bytes.merge(m.group(3), Long.parseLong(m.group(2)), Long::sum);
                continue;
            }
            Matcher t = TOTAL.matcher(line);
            if (t.matches()) {
                instances = Long.parseLong(t.group(1));
                total = Long.parseLong(t.group(2));
            }
        }
        if (total < 0) {
            throw new IllegalArgumentException("not a class histogram: " + output.lines().limit(3).toList());
        }
        return new ClassHistogram(total, instances, bytes, counts);
    }

    public long bytes(String className) {
        return bytesByClass.getOrDefault(className, 0L);
    }

    public long count(String className) {
        return countByClass.getOrDefault(className, 0L);
    }
}
