package org.boxoffice.bench.reads;

import org.boxoffice.bench.probe.JfrProfile;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The read bench's figures and their rendering: each endpoint beside the empty handler (req/s,
 * latency, CPU per request), each at half the empty handler's rate, the on-sale mixes, the targets
 * and, with {@code --profile}, where each endpoint's server samples fall.
 */
public final class ReadReport {

    /** Target: every read endpoint serves at least this share of the empty handler's req/s. */
    public static final double RATE_SHARE = 0.5;
    /** Target: p99 under this many milliseconds at half the empty handler's rate. */
    public static final double P99_MILLIS = 20;
    /** Target: at least this share of 2-second seat-map polls answered 304. */
    public static final double NOT_MODIFIED_SHARE = 0.8;
    /** Target: probes cost under this many times the empty handler (server CPU per request). */
    public static final double PROBE_COST = 2;

    /**
     * One endpoint: closed-loop figures, server and load-generator CPU per request (µs), and the
     * paced run at half the empty handler's rate (null for the empty handler itself).
     */
    public record Endpoint(String name, String path, boolean probe, ReadLoad.KindResult closed, double serverMicros,
                           double clientMicros, ReadLoad.KindResult paced) {
    }

    /** One on-sale mix: its rate, the seat-map churn beside it, and each kind's figures. */
    public record Mix(String name, double perSecond, double holdsPerSecond, long holds, int fans,
                      ReadLoad.Result result, double serverMicros) {
    }

    private final Map<String, Object> setup = new LinkedHashMap<>();
    private final List<Endpoint> endpoints = new ArrayList<>();
    private final List<Mix> mixes = new ArrayList<>();
    private final Map<String, JfrProfile.Summary> profiles = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();
    private double emptyPerSecond;
    private double emptyMicros;

    public void setup(String key, Object value) {
        setup.put(key, value);
    }

    public void endpoint(Endpoint e) {
        endpoints.add(e);
    }

    public void mix(Mix m) {
        mixes.add(m);
    }

    public void profile(String endpoint, JfrProfile.Summary summary) {
        profiles.put(endpoint, summary);
    }

    public void note(String note) {
        notes.add(note);
    }

    /** The empty handler's figures every ratio is taken against (the mean of its passes). */
    public void empty(double perSecond, double serverMicros) {
        this.emptyPerSecond = perSecond;
        this.emptyMicros = serverMicros;
    }

    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("setup", setup);
        m.put("emptyHandler", Map.of("requestsPerSecond", emptyPerSecond, "serverMicrosPerRequest", emptyMicros));
        m.put("endpoints", endpoints);
        m.put("mixes", mixes);
        Map<String, Object> p = new LinkedHashMap<>();
        profiles.forEach((k, v) -> p.put(k, Map.of("samples", v.samples(), "self", v.self(), "byComponent", v.byComponent(),
                "file", v.file().toString())));
        m.put("profiles", p);
        m.put("notes", notes);
        return m;
    }

    public String render() {
        StringBuilder sb = new StringBuilder();
        setup.forEach((k, v) -> sb.append(k).append(": ").append(v).append('\n'));
        sb.append(String.format(Locale.ROOT, "%nempty handler (mean of its passes): %,.0f req/s, %.0f µs server CPU per request%n%n",
                emptyPerSecond, emptyMicros));
        sb.append(String.format(Locale.ROOT, "%-24s %7s %9s %8s %7s %7s %9s %9s %9s %s%n", "endpoint", "body", "req/s",
                "vs empty", "p50 ms", "p99 ms", "server µs", "client µs", "p99 ms @", "statuses"));
        sb.append(String.format(Locale.ROOT, "%-24s %7s %9s %8s %7s %7s %9s %9s %9s%n", "", "bytes", "", "", "", "", "/req", "/req",
                "quarter"));
        for (Endpoint e : endpoints) {
            ReadLoad.KindResult c = e.closed();
            sb.append(String.format(Locale.ROOT, "%-24s %7d %,9.0f %7.0f%% %7.2f %7.2f %9.0f %9.0f %9s %s%n", e.name(),
                    c.meanBodyBytes(), c.perSecond(), 100 * c.perSecond() / emptyPerSecond, c.latency().p50(),
                    c.latency().p99(), e.serverMicros(), e.clientMicros(),
                    e.paced() == null ? "-" : String.format(Locale.ROOT, "%.2f", e.paced().latency().p99()), c.statuses()));
        }
        for (Mix m : mixes) {
            sb.append(String.format(Locale.ROOT, "%n%s: paced at %,.0f req/s, %d fans per connection polling every 2 s,"
                            + " seat-map churn %.1f holds/s (%d holds + releases made); %.0f µs server CPU per request%n",
                    m.name(), m.perSecond(), m.fans(), m.holdsPerSecond(), m.holds(), m.serverMicros()));
            for (ReadLoad.KindResult k : m.result().kinds().values()) {
                sb.append(String.format(Locale.ROOT, "  %-22s %,9.0f req/s  p50 %6.2f ms  p99 %6.2f ms  %7d bytes  304s %5.1f%%  %s%n",
                        k.kind(), k.perSecond(), k.latency().p50(), k.latency().p99(), k.meanBodyBytes(),
                        100 * k.notModifiedShare(), k.statuses()));
            }
        }
        sb.append("\ntargets:\n");
        for (String line : targets()) {
            sb.append("  ").append(line).append('\n');
        }
        profiles.forEach((name, p) -> {
            sb.append(String.format(Locale.ROOT, "%nprofile of %s (%d samples): components", name, p.samples()));
            p.byComponent().stream().limit(6).forEach(h -> sb.append(String.format(Locale.ROOT, "  %s %.0f%%", h.name(), 100 * h.share())));
            sb.append("\n  hottest methods (self):");
            p.self().stream().limit(8).forEach(h -> sb.append(String.format(Locale.ROOT, "%n    %5.1f%%  %s", 100 * h.share(), h.name())));
            sb.append('\n');
        });
        if (!notes.isEmpty()) {
            sb.append("\nnotes:\n");
            notes.forEach(n -> sb.append("  - ").append(n).append('\n'));
        }
        return sb.toString();
    }

    /** Each target with its verdict, in words. */
    public List<String> targets() {
        List<String> out = new ArrayList<>();
        for (Endpoint e : endpoints) {
            if (e.paced() == null || e.name().startsWith("empty handler")) {
                continue;
            }
            double share = e.closed().perSecond() / emptyPerSecond;
            out.add(String.format(Locale.ROOT, "%-4s %s: %.0f%% of the empty handler's req/s (target >= %.0f%%)",
                    share >= RATE_SHARE ? "met" : "MISS", e.name(), 100 * share, 100 * RATE_SHARE));
            double p99 = e.paced().latency().p99();
            out.add(String.format(Locale.ROOT, "%-4s %s: p99 %.2f ms at %,.0f req/s (target < %.0f ms)",
                    p99 < P99_MILLIS ? "met" : "MISS", e.name(), p99, e.paced().perSecond(), P99_MILLIS));
            if (e.probe()) {
                double cost = e.serverMicros() / emptyMicros;
                out.add(String.format(Locale.ROOT, "%-4s %s: %.2fx the empty handler's server CPU per request (target < %.0fx)",
                        cost < PROBE_COST ? "met" : "MISS", e.name(), cost, PROBE_COST));
            }
        }
        for (Mix m : mixes) {
            ReadLoad.KindResult polls = m.result().kinds().get(OnSaleMix.POLL);
            if (polls != null) {
                out.add(String.format(Locale.ROOT, "%-4s %s: %.1f%% of 2-second seat-map polls answered 304 (target >= %.0f%%)",
                        polls.notModifiedShare() >= NOT_MODIFIED_SHARE ? "met" : "MISS", m.name(),
                        100 * polls.notModifiedShare(), 100 * NOT_MODIFIED_SHARE));
            }
            ReadLoad.KindResult all = m.result().total();
            out.add(String.format(Locale.ROOT, "%-4s %s: p99 %.2f ms over all its requests at %,.0f req/s (target < %.0f ms)",
                    all.latency().p99() < P99_MILLIS ? "met" : "MISS", m.name(), all.latency().p99(), all.perSecond(), P99_MILLIS));
        }
        return out;
    }
}
