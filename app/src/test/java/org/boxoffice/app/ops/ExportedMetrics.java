package org.boxoffice.app.ops;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One scrape of {@code /observe/metrics} (Prometheus text format), read for assertions: sample values
 * by name and labels, and the families its {@code # TYPE} lines declare. Test code.
 */
public final class ExportedMetrics {

    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)(\\s+-?[0-9]+)?");
    private static final Pattern LABEL = Pattern.compile("\\s*([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"\\s*,?");

    private record Sample(String name, Map<String, String> labels, double value, String line) {
    }

    private final List<Sample> samples;
    private final Map<String, String> families;

    private ExportedMetrics(List<Sample> samples, Map<String, String> families) {
        this.samples = samples;
        this.families = families;
    }

    public static ExportedMetrics parse(String text) {
        List<Sample> samples = new ArrayList<>();
        Map<String, String> families = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String[] parts = line.split(" ");
                families.put(parts[2], parts[3]);
                continue;
            }
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches()) {
                throw new AssertionError("not a sample: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2).replace("\\\"", "\"").replace("\\n", "\n").replace("\\\\", "\\"));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4)), line));
        }
        return new ExportedMetrics(samples, families);
    }

    /** The sum of the samples named {@code name} whose labels include {@code labelPairs} (name, value, ...); 0 if none. */
    public double value(String name, String... labelPairs) {
        return matching(name, labelPairs).stream().mapToDouble(Sample::value).sum();
    }

    /** {@link #value} here minus the same in {@code before}. */
    public double delta(ExportedMetrics before, String name, String... labelPairs) {
        return value(name, labelPairs) - before.value(name, labelPairs);
    }

    /** Whether any sample is named {@code name}. */
    public boolean has(String name) {
        return samples.stream().anyMatch(s -> s.name().equals(name));
    }

    /** The families declared by {@code # TYPE} lines, with their types. */
    public Map<String, String> families() {
        return families;
    }

    /** The values label {@code label} takes in samples named {@code name}. */
    public Set<String> labelValues(String name, String label) {
        Set<String> out = new TreeSet<>();
        samples.stream().filter(s -> s.name().equals(name) && s.labels().containsKey(label))
                .forEach(s -> out.add(s.labels().get(label)));
        return out;
    }

    /** The sample lines named {@code name}, for failure messages. */
    public List<String> lines(String name) {
        return samples.stream().filter(s -> s.name().equals(name)).map(Sample::line).toList();
    }

    private List<Sample> matching(String name, String... labelPairs) {
        List<Sample> out = new ArrayList<>();
        for (Sample s : samples) {
            if (!s.name().equals(name)) {
                continue;
            }
            boolean all = true;
            for (int i = 0; i + 1 < labelPairs.length && all; i += 2) {
                all = labelPairs[i + 1].equals(s.labels().get(labelPairs[i]));
            }
            if (all) {
                out.add(s);
            }
        }
        return out;
    }
}
