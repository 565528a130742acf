package org.boxoffice.bench.report;

import org.boxoffice.bench.load.Sweep;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The stampede's ratios between Boxoffice, each PostgreSQL-only baseline and the machine's floor,
 * all from one run: on a shared 2-core machine the absolute figures move with the neighbours, the
 * ratios within one run much less. One place computes them for the summary and results.json.
 */
public final class StampedeRatios {

    private StampedeRatios() {
    }

    /** Name to value; empty without Boxoffice. NaN where a figure is missing. */
    public static Map<String, Double> of(BenchReport report) {
        Map<String, Double> m = new LinkedHashMap<>();
        SystemOutcome box = report.system("boxoffice");
        if (box == null) {
            return m;
        }
        Double boxBest = best(box);
        for (SystemOutcome s : report.systems()) {
            String name = s.run().system();
            if (!name.startsWith("pg-")) {
                continue;
            }
            m.put("cpuPerAttempt boxoffice/" + name, box.microsPerAttemptSum() / s.microsPerAttemptSum());
            m.put("serverCpuPerAttempt boxoffice/" + name, box.microsPerAttempt("server") / s.microsPerAttempt("server"));
            m.put("postgresCpuPerAttempt boxoffice/" + name, box.microsPerAttempt("postgresql") / s.microsPerAttempt("postgresql"));
            m.put("holdsPerSecondUntilSoldOut boxoffice/" + name, box.run().holdsPerSecondWhileSelling() / s.run().holdsPerSecondWhileSelling());
            Double base = best(s);
            if (boxBest != null && base != null) {
                m.put("sustainedAttemptsPerSecond boxoffice/" + name, boxBest / base);
            }
        }
        if (report.httpCeiling() != null) {
            double ceiling = report.httpCeiling().requestsPerSecond();
            double floor = report.httpCeiling().serverMicrosPerRequest();
            for (SystemOutcome s : report.systems()) {
                String name = s.run().system();
                Double best = best(s);
                if (best != null) {
                    m.put("sustainedAttemptsPerSecond " + name + "/httpCeiling", best / ceiling);
                }
                m.put("serverCpuPerAttempt " + name + "/emptyHandler", s.microsPerAttempt("server") / floor);
                if (s.refusals() != null) {
                    m.put("serverCpuPerRefusalAfterSellOut " + name + "/emptyHandler",
                            s.refusals().microsPerAttempt().getOrDefault("server", Double.NaN) / floor);
                }
                if (s.refusalCeiling() != null && s.refusalCeiling().requests() > 0) {
                    m.put("serverCpuPerRefusalAtCeiling " + name + "/emptyHandlerAtCeiling",
                            s.refusalCeiling().serverMicrosPerRequest() / floor);
                    m.put("refusalCeiling " + name + "/httpCeiling", s.refusalCeiling().requestsPerSecond() / ceiling);
                }
            }
        }
        return m;
    }

    static Double best(SystemOutcome s) {
        Sweep.Result sweep = s.sweep();
        return sweep == null ? null : sweep.bestRate();
    }
}
