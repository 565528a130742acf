package org.boxoffice.bench.report;

import org.boxoffice.bench.load.RunResult;
import org.boxoffice.bench.probe.ExpiryCheck;
import org.boxoffice.bench.probe.HeapFootprint;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Issue 7's targets, checked against one bench run. Reported, never enforced: the exit code only reflects invariants. */
public final class Targets {

    static final double ATTEMPTS_PER_SECOND = 20_000;
    static final double BASELINE_FACTOR = 5;
    static final double HOLD_P99_MS = 50;
    static final double READ_P99_MS = 20;
    static final long EXPIRY_LAG_MS = 2_000;
    static final long INVENTORY_BYTES = 2L * 1024 * 1024;

    private Targets() {
    }

    public static List<TargetCheck> evaluate(List<SystemOutcome> systems, ExpiryCheck.Result expiry, HeapFootprint.Result memory) {
        List<TargetCheck> out = new ArrayList<>();
        SystemOutcome box = systems.stream().filter(s -> s.run().system().equals("boxoffice")).findFirst().orElse(null);
        SystemOutcome best = systems.stream().filter(s -> s.run().system().startsWith("pg-"))
                .max(java.util.Comparator.comparingDouble(s -> s.run().attemptsPerSecond())).orElse(null);
        SystemOutcome bestHolds = systems.stream().filter(s -> s.run().system().startsWith("pg-"))
                .max(java.util.Comparator.comparingDouble(s -> s.run().holdsPerSecond())).orElse(null);
        if (box != null) {
            RunResult r = box.run();
            out.add(new TargetCheck("hold attempts/s on one hot show over HTTP", ">= 20,000/s",
                    fmt("%,.0f/s (peak 1 s: %,.0f/s)", r.attemptsPerSecond(), r.peakAttemptsPerSecond()),
                    r.attemptsPerSecond() >= ATTEMPTS_PER_SECOND));
            if (best != null) {
                double ratio = r.attemptsPerSecond() / best.run().attemptsPerSecond();
                out.add(new TargetCheck("hold attempts/s vs best PostgreSQL-only baseline", ">= 5x",
                        fmt("%.1fx (%s: %,.0f/s)", ratio, best.run().system(), best.run().attemptsPerSecond()),
                        ratio >= BASELINE_FACTOR));
            }
            if (bestHolds != null) {
                double ratio = r.holdsPerSecond() / bestHolds.run().holdsPerSecond();
                out.add(new TargetCheck("successful durable holds/s vs best baseline", ">= 1x",
                        fmt("%.2fx (%,.0f/s vs %s %,.0f/s)", ratio, r.holdsPerSecond(), bestHolds.run().system(),
                                bestHolds.run().holdsPerSecond()), ratio >= 1));
            }
            out.add(new TargetCheck("hold latency p99", "< 50 ms", fmt("%.1f ms", r.holdLatency().p99()),
                    r.holdLatency().p99() < HOLD_P99_MS));
            out.add(new TargetCheck("seat-map read latency p99", "< 20 ms", fmt("%.1f ms", r.readLatency().p99()),
                    r.readLatency().count() == 0 ? null : r.readLatency().p99() < READ_P99_MS));
        }
        if (expiry != null) {
            out.add(new TargetCheck("expired holds back on sale", "< 2 s after expiresAt + grace",
                    expiry.allReturned() ? fmt("%,d ms (worst of %d holds)", expiry.maxLagMillis(), expiry.lagsMillis().size())
                            : "not all returned within 30 s",
                    expiry.allReturned() && expiry.maxLagMillis() < EXPIRY_LAG_MS));
        }
        long violations = systems.stream().filter(s -> s.invariants() != null).mapToLong(s -> s.invariants().violations()).sum();
        boolean checked = systems.stream().anyMatch(s -> s.invariants() != null);
        out.add(new TargetCheck("invariant violations (all systems)", "0",
                checked ? Long.toString(violations) : "not checked (no database)", checked ? violations == 0 : null));
        if (memory != null) {
            out.add(new TargetCheck("inventory of a 60,000-seat show, per replica", "< 2 MB",
                    fmt("%.2f MB (heap growth for the show, all structures: %.2f MB)", mb(memory.inventoryBytes()),
                            mb(memory.heapGrowthBytes())), memory.inventoryBytes() < INVENTORY_BYTES));
        }
        return out;
    }

    static double mb(long bytes) {
        return bytes / (1024.0 * 1024.0);
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
