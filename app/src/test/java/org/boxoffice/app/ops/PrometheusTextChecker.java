package org.boxoffice.app.ops;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text exposition format (0.0.4) that reports what
 * {@code promtool check metrics} reports: what its parser refuses (a sample of a histogram that is
 * not {@code _bucket} with {@code le}, {@code _sum} or {@code _count}, so no {@code quantile}; a
 * summary sample that is neither; a family declared twice or split; a malformed line or value) and
 * what its linter ({@code promlint}) flags (no HELP, names and labels not snake_case, a counter not
 * ending {@code _total}, {@code _total}/{@code _count}/{@code _sum}/{@code _bucket} on a family that
 * may not carry it, a type or an abbreviated or non-base unit in the name, a histogram without
 * {@code +Inf}). Test code.
 */
public final class PrometheusTextChecker {

    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern SAMPLE = Pattern.compile(
            "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)(\\s+-?[0-9]+)?");
    private static final Pattern LABEL = Pattern.compile("\\s*([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"\\s*,?");
    private static final Pattern SNAKE = Pattern.compile("[a-z_:][a-z0-9_:]*");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");
    /** Units promlint wants spelt out as base units (it flags these words in a name). */
    private static final Set<String> NON_BASE_UNITS = Set.of("milliseconds", "microseconds", "nanoseconds", "minutes",
            "hours", "days", "weeks", "kilobytes", "megabytes", "gigabytes", "millis", "percent");
    private static final Set<String> ABBREVIATIONS = Set.of("ms", "us", "ns", "sec", "secs", "min", "mins", "kb", "mb",
            "gb", "pct");

    private PrometheusTextChecker() {
    }

    /** Every problem in {@code text}, one line each; empty when promtool would pass it. */
    public static List<String> problems(String text) {
        List<String> problems = new ArrayList<>();
        Map<String, String> types = new LinkedHashMap<>();
        Map<String, Boolean> helped = new HashMap<>();
        Map<String, Boolean> sawInf = new HashMap<>();
        List<String> closed = new ArrayList<>();
        String current = null;
        int lineNo = 0;
        for (String line : text.split("\n", -1)) {
            lineNo++;
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("#")) {
                String[] parts = line.split(" ", 4);
                if (parts.length >= 3 && (parts[1].equals("HELP") || parts[1].equals("TYPE"))) {
                    String name = parts[2];
                    if (!NAME.matcher(name).matches()) {
                        problems.add(lineNo + ": invalid metric name " + name);
                    }
                    if (!name.equals(current)) {
                        if (closed.contains(name)) {
                            problems.add(lineNo + ": " + name + " is declared again after other families");
                        }
                        if (current != null) {
                            closed.add(current);
                        }
                        current = name;
                    }
                    if (parts[1].equals("HELP")) {
                        if (helped.put(name, parts.length == 4 && !parts[3].isBlank()) != null) {
                            problems.add(lineNo + ": second HELP for " + name);
                        }
                    } else {
                        String type = parts.length == 4 ? parts[3].trim() : "";
                        if (!TYPES.contains(type)) {
                            problems.add(lineNo + ": unknown type '" + type + "' for " + name);
                        }
                        if (types.put(name, type) != null) {
                            problems.add(lineNo + ": second TYPE for " + name);
                        }
                    }
                }
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches()) {
                problems.add(lineNo + ": not a sample line: " + line);
                continue;
            }
            String sample = m.group(1);
            Map<String, String> labels = labels(m.group(3), lineNo, problems);
            value(m.group(4), lineNo, problems);
            String family = family(sample, types);
            if (family == null) {
                family = sample;    // untyped: the sample is its own family
            }
            if (!family.equals(current)) {
                if (closed.contains(family)) {
                    problems.add(lineNo + ": samples of " + family + " are not together");
                }
                if (current != null) {
                    closed.add(current);
                }
                current = family;
            }
            String type = types.getOrDefault(family, "untyped");
            String suffix = sample.substring(family.length());
            switch (type) {
                case "histogram" -> {
                    if (labels.containsKey("quantile")) {
                        problems.add(lineNo + ": histogram " + family + " has a quantile sample");
                    } else if (suffix.equals("_bucket")) {
                        if (!labels.containsKey("le")) {
                            problems.add(lineNo + ": bucket of " + family + " without le");
                        } else if (labels.get("le").equals("+Inf")) {
                            sawInf.put(family, true);
                        }
                    } else if (!suffix.equals("_sum") && !suffix.equals("_count")) {
                        problems.add(lineNo + ": histogram " + family + " has sample " + sample
                                + " (only _bucket, _sum, _count)");
                    }
                }
                case "summary" -> {
                    if (suffix.isEmpty() ? !labels.containsKey("quantile")
                            : !suffix.equals("_sum") && !suffix.equals("_count")) {
                        problems.add(lineNo + ": summary " + family + " has sample " + sample);
                    }
                }
                default -> {
                    if (!suffix.isEmpty()) {
                        problems.add(lineNo + ": " + type + " " + family + " has sample " + sample);
                    }
                    if (labels.containsKey("le") || labels.containsKey("quantile")) {
                        problems.add(lineNo + ": " + type + " " + family + " uses a reserved label (le or quantile)");
                    }
                }
            }
        }
        types.forEach((name, type) -> {
            if (!Boolean.TRUE.equals(helped.get(name))) {
                problems.add(name + ": no help text");
            }
            if (!SNAKE.matcher(name).matches()) {
                problems.add(name + ": metric names should be written in snake_case, not camelCase");
            }
            if (type.equals("counter") && !name.endsWith("_total")) {
                problems.add(name + ": counter metrics should have \"_total\" suffix");
            }
            if (!type.equals("counter") && name.endsWith("_total")) {
                problems.add(name + ": non-counter metrics should not have \"_total\" suffix");
            }
            if (!type.equals("histogram") && !type.equals("summary")
                    && (name.endsWith("_count") || name.endsWith("_sum") || name.endsWith("_bucket"))) {
                problems.add(name + ": non-histogram and non-summary metrics should not have \"_count\", \"_sum\" or "
                        + "\"_bucket\" suffixes");
            }
            for (String word : name.split("_")) {
                if (NON_BASE_UNITS.contains(word)) {
                    problems.add(name + ": use base unit instead of '" + word + "'");
                }
                if (ABBREVIATIONS.contains(word)) {
                    problems.add(name + ": metric names should not contain abbreviated units ('" + word + "')");
                }
            }
            if (name.contains("_" + type + "_") || name.endsWith("_" + type)) {
                problems.add(name + ": metric name should not include type '" + type + "'");
            }
            if (type.equals("histogram") && !Boolean.TRUE.equals(sawInf.get(name))) {
                problems.add(name + ": histogram without a +Inf bucket");
            }
        });
        return problems;
    }

    /** The declared family a sample belongs to: itself, or itself less a histogram/summary suffix. */
    private static String family(String sample, Map<String, String> types) {
        if (types.containsKey(sample)) {
            return sample;
        }
        for (String suffix : new String[] {"_bucket", "_sum", "_count"}) {
            if (sample.endsWith(suffix)) {
                String base = sample.substring(0, sample.length() - suffix.length());
                String type = types.get(base);
                if ("histogram".equals(type) || "summary".equals(type)) {
                    return base;
                }
            }
        }
        return null;
    }

    private static Map<String, String> labels(String text, int lineNo, List<String> problems) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return labels;
        }
        Matcher m = LABEL.matcher(text);
        int at = 0;
        while (at < text.length() && m.find(at) && m.start() == at) {
            String name = m.group(1);
            if (labels.put(name, m.group(2)) != null) {
                problems.add(lineNo + ": label " + name + " twice");
            }
            if (!SNAKE.matcher(name).matches()) {
                problems.add(lineNo + ": label names should be written in snake_case, not camelCase: " + name);
            }
            at = m.end();
        }
        if (at != text.length()) {
            problems.add(lineNo + ": malformed labels: {" + text + "}");
        }
        return labels;
    }

    private static void value(String v, int lineNo, List<String> problems) {
        if (v.equals("+Inf") || v.equals("-Inf") || v.equals("NaN")) {
            return;
        }
        try {
            Double.parseDouble(v);
        } catch (NumberFormatException e) {
            problems.add(lineNo + ": not a number: " + v);
        }
    }
}
