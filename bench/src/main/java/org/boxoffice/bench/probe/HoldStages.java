package org.boxoffice.bench.probe;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the service's holds past the seat map spent their time, stage by stage, as its
 * {@code boxoffice_hold_stage_seconds} histograms say (idempotency, allowance, token, claim,
 * reply): counts, sums and bucket counts, per stage, added up over members. Read before and after
 * a measured run; the difference is the run's own. The same reading serves any family of timers
 * told apart by one tag: the referee's stores by the size of their batch ({@link #storesByBatch}).
 *
 * @param stages per stage: its count, its sum in seconds, and its cumulative bucket counts by upper bound
 */
public record HoldStages(Map<String, Stage> stages) {

    /** One stage: how many holds passed it, their time in all, and the cumulative count per bucket bound (seconds). */
    public record Stage(double count, double seconds, TreeMap<Double, Double> buckets) {
        Stage minus(Stage before) {
            TreeMap<Double, Double> b = new TreeMap<>();
            buckets.forEach((le, n) -> b.put(le, n - (before == null ? 0 : before.buckets.getOrDefault(le, 0.0))));
            return before == null ? this : new Stage(count - before.count, seconds - before.seconds, b);
        }

        Stage plus(Stage other) {
            TreeMap<Double, Double> b = new TreeMap<>(buckets);
            other.buckets.forEach((le, n) -> b.merge(le, n, Double::sum));
            return new Stage(count + other.count, seconds + other.seconds, b);
        }

        /** The smallest bucket bound (seconds) at or under which {@code share} of the stage's times fall; infinite if above the last. */
        double quantileBound(double share) {
            for (Map.Entry<Double, Double> e : buckets.entrySet()) {
                if (e.getValue() >= share * count) {
                    return e.getKey();
                }
            }
            return Double.POSITIVE_INFINITY;
        }
    }

    /** No stage heard of: a service that does not time them. */
    public static final HoldStages NONE = new HoldStages(Map.of());

    /** The stages in the order a hold passes them. */
    static final List<String> ORDER = List.of("idempotency", "allowance", "token", "claim", "reply");
    private static final String NAME = "boxoffice_hold_stage_seconds";
    private static final Pattern STAGE = Pattern.compile("stage=\"([^\"]+)\"");
    /** The referee's stores, from arrival to commit, by the size of the batch they went in (the service's classes). */
    static final List<String> BATCH_ORDER = List.of("1", "2-4", "5-16", "17+");
    private static final String STORES = "boxoffice_referee_store_seconds";
    private static final Pattern BATCH = Pattern.compile("batch=\"([^\"]+)\"");
    private static final Pattern LE = Pattern.compile("le=\"([^\"]+)\"");

    /** The stage histograms of a Prometheus text exposition (empty if it has none). */
    static HoldStages parse(String exposition) {
        return parse(exposition, NAME, STAGE);
    }

    /** The referee's store histograms by batch size ({@code batch}) of a Prometheus text exposition (empty if it has none). */
    static HoldStages storesByBatch(String exposition) {
        return parse(exposition, STORES, BATCH);
    }

    /** The histograms named {@code name} of an exposition, one per value of the tag {@code tag} finds. */
    private static HoldStages parse(String exposition, String name, Pattern tag) {
        Map<String, double[]> totals = new TreeMap<>();
        Map<String, TreeMap<Double, Double>> buckets = new TreeMap<>();
        for (String line : exposition.split("\n")) {
            if (!line.startsWith(name)) {
                continue;
            }
            Matcher stage = tag.matcher(line);
            int space = line.lastIndexOf(' ');
            if (!stage.find() || space < 0) {
                continue;
            }
            double value;
            try {
                value = Double.parseDouble(line.substring(space + 1));
            } catch (NumberFormatException e) {
                continue;
            }
            String suffix = line.substring(name.length(), line.indexOf('{') < 0 ? space : line.indexOf('{'));
            double[] t = totals.computeIfAbsent(stage.group(1), s -> new double[2]);
            switch (suffix) {
                case "_count" -> t[0] += value;
                case "_sum" -> t[1] += value;
                case "_bucket" -> {
                    Matcher le = LE.matcher(line);
                    if (le.find()) {
                        double bound = le.group(1).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le.group(1));
                        buckets.computeIfAbsent(stage.group(1), s -> new TreeMap<>()).merge(bound, value, Double::sum);
                    }
                }
                default -> {
                }
            }
        }
        Map<String, Stage> stages = new TreeMap<>();
        totals.forEach((s, t) -> stages.put(s, new Stage(t[0], t[1], buckets.getOrDefault(s, new TreeMap<>()))));
        return new HoldStages(stages);
    }

    /** This reading and {@code other}'s added up: the histograms of several members. */
    public HoldStages plus(HoldStages other) {
        Map<String, Stage> sum = new TreeMap<>(stages);
        other.stages.forEach((s, st) -> sum.merge(s, st, Stage::plus));
        return new HoldStages(sum);
    }

    /**
     * What happened between {@code before} and this reading, in words: per stage, the holds that
     * passed it, their mean time and the bucket bound under which 99 % fell; empty if none passed.
     */
    public String since(HoldStages before) {
        String parts = parts(before, ORDER, "");
        return parts.isEmpty() ? "" : "holds past the seat map, by stage: " + parts;
    }

    /**
     * As {@link #since}, for the referee's stores by batch size: per size, the stores, their mean time
     * from arrival to commit and the bucket bound under which 99 % fell; empty if none.
     */
    public String storesSince(HoldStages before) {
        String parts = parts(before, BATCH_ORDER, "of ");
        return parts.isEmpty() ? "" : "stores from arrival to commit, by the transitions in their batch: " + parts;
    }

    private String parts(HoldStages before, List<String> order, String prefix) {
        List<String> parts = new ArrayList<>();
        for (String name : order) {
            Stage now = stages.get(name);
            if (now == null) {
                continue;
            }
            Stage run = now.minus(before.stages.get(name));
            if (run.count() < 1) {
                continue;
            }
            double p99 = run.quantileBound(0.99);
            parts.add(String.format(Locale.ROOT, "%s%s %,.0f x %.1f ms mean, 99 %% within %s", prefix, name, run.count(),
                    1000 * run.seconds() / run.count(),
                    Double.isInfinite(p99) ? "more than the last bucket" : String.format(Locale.ROOT, "%.0f ms", 1000 * p99)));
        }
        return String.join("; ", parts);
    }
}
