package org.boxoffice.bench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.boxoffice.bench.load.RunResult;
import org.boxoffice.bench.probe.JfrProfile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Writes {@code results.json}: the whole report, minus the per-hold acknowledgements. */
public final class ResultsJson {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ResultsJson() {
    }

    public static void write(BenchReport report, Path file) throws IOException {
        JSON.writeValue(file.toFile(), toMap(report));
    }

    static Map<String, Object> toMap(BenchReport report) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("startedAt", report.startedAt().toString());
        m.put("command", report.command());
        m.put("machine", report.machine());
        m.put("settings", report.settings());
        m.put("systems", report.systems().stream().map(ResultsJson::system).toList());
        SystemOutcome box = report.system("boxoffice");
        SystemOutcome best = report.bestBaseline();
        if (box != null && best != null) {
            Map<String, Object> ratios = new LinkedHashMap<>();
            ratios.put("bestBaseline", best.run().system());
            ratios.put("attemptsPerSecond", box.run().attemptsPerSecond() / best.run().attemptsPerSecond());
            ratios.put("holdsPerSecond", box.run().holdsPerSecond() / best.run().holdsPerSecond());
            for (SystemOutcome s : report.systems()) {
                if (s.run().system().startsWith("pg-")) {
                    ratios.put("attemptsPerSecondVs_" + s.run().system(), box.run().attemptsPerSecond() / s.run().attemptsPerSecond());
                    ratios.put("holdsPerSecondVs_" + s.run().system(), box.run().holdsPerSecond() / s.run().holdsPerSecond());
                }
            }
            ratios.putAll(StampedeRatios.of(report));
            m.put("ratios", ratios);
        }
        if (report.httpCeiling() != null) {
            Map<String, Object> ceiling = new LinkedHashMap<>();
            ceiling.put("figures", report.httpCeiling());
            ceiling.put("serverMicrosPerRequest", report.httpCeiling().serverMicrosPerRequest());
            ceiling.put("loadGeneratorMicrosPerRequest", report.httpCeiling().generatorMicrosPerRequest());
            ceiling.put("wholeMachineMicrosPerRequest", report.httpCeiling().machineMicrosPerRequest());
            m.put("httpCeiling", ceiling);
        } else {
            m.put("httpCeiling", null);
        }
        m.put("expiry", report.expiry());
        m.put("memory", report.memory());
        m.put("targets", report.targets());
        m.put("invariantViolations", report.violations());
        m.put("notes", report.notes());
        return m;
    }

    private static Map<String, Object> system(SystemOutcome s) {
        RunResult r = s.run();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("system", r.system());
        m.put("showId", r.showId());
        m.put("seats", r.seatCount());
        m.put("connections", r.connections());
        m.put("buyers", r.buyers());
        m.put("elapsedSeconds", r.elapsedSeconds());
        m.put("soldOut", r.soldOut());
        m.put("sellOutSeconds", r.sellOutSeconds());
        m.put("buyersExhausted", r.buyersExhausted());
        m.put("seatsLeft", s.seatsLeft());
        m.put("holdAttempts", r.attempts());
        m.put("holdAttemptsPerSecond", r.attemptsPerSecond());
        m.put("peakHoldAttemptsPerSecond", r.peakAttemptsPerSecond());
        m.put("successfulHolds", r.successes());
        m.put("successfulHoldsPerSecond", r.holdsPerSecond());
        m.put("successfulHoldsPerSecondUntilSoldOut", r.holdsPerSecondWhileSelling());
        m.put("peakSuccessfulHoldsPerSecond", r.peakHoldsPerSecond());
        m.put("seatsHeld", r.seatsHeld());
        m.put("conflicts", r.conflicts());
        m.put("conflictShare", r.conflictShare());
        m.put("bestAvailableAttempts", r.bestAvailableAttempts());
        m.put("errors", r.errors());
        m.put("releases", r.releases());
        m.put("seatsReleased", r.seatsReleased());
        m.put("seatMapReads", r.reads());
        m.put("seatMapNotModified", r.notModified());
        m.put("holdLatencyMs", r.holdLatency());
        m.put("successfulHoldLatencyMs", r.successfulHoldLatency());
        m.put("seatMapReadLatencyMs", r.readLatency());
        m.put("releaseLatencyMs", r.releaseLatency());
        m.put("waitingRoom", r.room());
        if (r.checkouts() != null) {
            Map<String, Object> pay = new LinkedHashMap<>();
            pay.put("summary", r.checkouts());
            pay.put("booked", r.checkouts().allBooked());
            pay.put("bookedSeatsPerSecond", r.bookedSeatsPerSecond());
            m.put("checkouts", pay);
        }
        m.put("cpuSeconds", s.cpuSeconds());
        Map<String, Object> perAttempt = new LinkedHashMap<>();
        perAttempt.put("loadGenerator", s.microsPerAttempt("load generator"));
        perAttempt.put("server", s.microsPerAttempt("server"));
        perAttempt.put("postgresql", s.microsPerAttempt("postgresql"));
        perAttempt.put("sum", s.microsPerAttemptSum());
        perAttempt.put("wholeMachine", s.microsPerAttempt(org.boxoffice.bench.probe.CpuMeter.MACHINE));
        m.put("cpuMicrosPerHoldAttempt", perAttempt);
        m.put("postgresqlCpuMicrosPerDurableHold", s.postgresMicrosPerHold());
        if (r.openLoop() != null) {
            Map<String, Object> open = new LinkedHashMap<>();
            open.put("figures", r.openLoop());
            open.put("generatorThreadMicrosPerRequest", r.openLoop().generatorMicrosPerRequest());
            open.put("generatorProcessMicrosPerRequest", s.generatorMicrosPerRequest());
            m.put("openLoop", open);
        }
        m.put("sweep", s.sweep());
        m.put("afterSellOutCpuPerRefusal", s.refusals());
        if (s.refusalCeiling() != null) {
            Map<String, Object> rc = new LinkedHashMap<>();
            rc.put("figures", s.refusalCeiling());
            rc.put("serverMicrosPerRefusal", s.refusalCeiling().serverMicrosPerRequest());
            rc.put("postgresqlMicrosPerRefusal", s.refusalCeiling().micros("postgresql"));
            rc.put("loadGeneratorMicrosPerRefusal", s.refusalCeiling().generatorMicrosPerRequest());
            m.put("refusalCeiling", rc);
        }
        m.put("serverCpuSecondsByThreadKind", s.serverThreadCpu());
        if (s.checked()) {
            Map<String, Object> inv = new LinkedHashMap<>();
            inv.put("violations", s.violations());
            inv.put("report", s.invariants());
            inv.put("bookings", s.bookings());
            // the general-admission check: capacity, taken, the findings and the sold-out answers while some remained
            inv.put("area", s.area());
            m.put("invariants", inv);
        } else {
            m.put("invariants", null);
        }
        if (s.profile() != null) {
            JfrProfile.Summary p = s.profile();
            Map<String, Object> prof = new LinkedHashMap<>();
            prof.put("file", p.file().getFileName().toString());
            prof.put("samples", p.samples());
            prof.put("byComponent", p.byComponent());
            prof.put("byThread", p.byThread());
            prof.put("selfTop", p.self());
            prof.put("inclusiveTop", p.inclusive());
            prof.put("gcCount", p.gcCount());
            prof.put("gcPauseMillis", p.gcPauseMillis());
            // server CPU by stage of a hold, whole run and until sold out (PostgreSQL's per durable hold is above)
            prof.put("serverCpuByStage", StageCosts.of(s));
            m.put("profile", prof);
        }
        m.put("timeline", r.timeline());
        return m;
    }
}
