package org.boxoffice.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The table of latest figures in {@code docs/benchmark.md}, written by the bench from a run's
 * {@code results.json} ({@code --latest-figures}): one row per target the run measured, keyed by
 * its scenario and target. A row of the same key is replaced, a new one is added after the rows
 * of its scenario, and every other row stays as it was, so each scenario keeps its own latest run.
 */
public final class LatestFigures {

    /** The table sits between these two lines; the bench refuses to write a document without them. */
    public static final String BEGIN = "<!-- latest figures: rows rewritten by ./boxoffice bench --latest-figures -->";
    public static final String END = "<!-- end of latest figures -->";
    static final String HEADER = "| scenario | target | goal | latest | verdict | run |";
    static final String RULE = "|---|---|---|---|---|---|";

    /** One row: what was measured against what, and which run measured it. */
    public record Row(String scenario, String target, String goal, String measured, String verdict, String run) {

        String key() {
            return scenario + "\u0000" + target;
        }

        String line() {
            return "| " + String.join(" | ", cell(scenario), cell(target), cell(goal), cell(measured), cell(verdict), cell(run)) + " |";
        }

        static Row parse(String line) {
            String inner = line.strip();
            inner = inner.substring(1, inner.length() - 1);
            String[] cells = inner.split("(?<!\\\\)\\|", -1);
            if (cells.length != 6) {
                throw new IllegalArgumentException("a row of the latest figures needs 6 cells: " + line);
            }
            return new Row(cells[0].strip(), cells[1].strip(), cells[2].strip(), cells[3].strip(), cells[4].strip(), cells[5].strip());
        }

        /** The same row with escaped pipes turned back into pipes. */
        Row withUnescaped() {
            return new Row(un(scenario), un(target), un(goal), un(measured), un(verdict), un(run));
        }

        private static String un(String s) {
            return s.replace("\\|", "|");
        }

        private static String cell(String s) {
            return s.replace("|", "\\|").replace('\n', ' ').strip();
        }
    }

    private LatestFigures() {
    }

    /** Rewrites {@code doc}'s table with the targets of the run in {@code resultsJson}; returns how many rows it wrote. */
    public static int update(Path doc, Path resultsJson, LocalDate date) throws IOException {
        JsonNode results = new ObjectMapper().readTree(resultsJson.toFile());
        List<Row> rows = rows(results, date);
        Files.writeString(doc, rewrite(Files.readString(doc), rows));
        return rows.size();
    }

    /** The scenario a run's command line names. */
    static String scenario(String command) {
        if (command.contains("--members")) {
            return command.contains("--sweep") && command.contains("--cpu-quota") ? "scaling curve" : "several members";
        }
        if (command.contains("--warm-start")) {
            return "warm start";
        }
        if (command.contains("--reads")) {
            return "reads";
        }
        if (command.contains("--sms-outage")) {
            return "sms outage";
        }
        if (command.contains("--general-admission")) {
            return "general admission";
        }
        if (command.contains("--stampede")) {
            return command.contains("--bots") ? "bots" : command.contains("--waiting-room") ? "waiting room" : "stampede";
        }
        return "closed loop";
    }

    /** The rows of one run's {@code results.json}: its {@code targets}, each with its verdict. */
    static List<Row> rows(JsonNode results, LocalDate date) {
        String command = results.path("command").asText("");
        String scenario = scenario(command);
        String run = "`" + command.replace("./boxoffice bench ", "") + "`, " + date;
        List<Row> rows = new ArrayList<>();
        for (JsonNode t : results.path("targets")) {
            JsonNode met = t.path("met");
            String verdict = met.isBoolean() ? (met.asBoolean() ? "met" : "**missed**") : "not measured";
            rows.add(new Row(scenario, t.path("target").asText(), t.path("goal").asText(), t.path("measured").asText(), verdict, run));
        }
        return rows;
    }

    /** {@code doc} with its table's rows replaced or added by {@code rows}. */
    static String rewrite(String doc, List<Row> rows) {
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("no table of latest figures (the lines '" + BEGIN + "' and '" + END + "')");
        }
        Map<String, Row> table = new LinkedHashMap<>();
        for (String line : doc.substring(begin + BEGIN.length(), end).split("\n")) {
            String l = line.strip();
            if (l.startsWith("|") && !l.equals(HEADER) && !l.equals(RULE)) {
                Row r = Row.parse(l);
                table.put(r.key(), r);
            }
        }
        for (Row r : rows) {
            if (table.containsKey(r.key())) {
                table.put(r.key(), r);
            } else {
                // after the last row of its scenario, or at the end
                Map<String, Row> next = new LinkedHashMap<>();
                String lastOfScenario = null;
                for (Row existing : table.values()) {
                    if (existing.scenario().equals(r.scenario())) {
                        lastOfScenario = existing.key();
                    }
                }
                for (Map.Entry<String, Row> e : table.entrySet()) {
                    next.put(e.getKey(), e.getValue());
                    if (e.getKey().equals(lastOfScenario)) {
                        next.put(r.key(), r);
                    }
                }
                next.putIfAbsent(r.key(), r);
                table = next;
            }
        }
        StringBuilder b = new StringBuilder(doc.substring(0, begin + BEGIN.length())).append('\n');
        b.append(HEADER).append('\n').append(RULE).append('\n');
        for (Row r : table.values()) {
            b.append(r.line()).append('\n');
        }
        return b.append(doc.substring(end)).toString();
    }
}
