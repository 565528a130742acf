package org.boxoffice.bench.report;

import org.boxoffice.bench.check.BookingChecker;
import org.boxoffice.bench.check.RunChecker;
import org.boxoffice.bench.load.Latency;
import org.boxoffice.bench.load.RunResult;
import org.boxoffice.bench.load.Sweep;
import org.boxoffice.bench.probe.JfrProfile;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/** The readable summary printed at the end of a run: one column per system, then ratios and targets. */
public final class SummaryTable {

    private SummaryTable() {
    }

    public static String render(BenchReport report) {
        StringBuilder sb = new StringBuilder();
        List<SystemOutcome> systems = report.systems();
        appendHeading(sb, report);
        List<String[]> rows = new ArrayList<>();
        rows.add(header(systems));
        addRunRows(rows, systems);
        if (systems.stream().anyMatch(s -> s.run().openLoop() != null)) {
            addStampedeRows(rows, systems);
        }
        if (systems.stream().anyMatch(s -> s.run().openLoop() != null && s.run().openLoop().fairness() != null)) {
            addFairnessRows(rows, systems);
        }
        if (systems.stream().anyMatch(s -> s.run().room() != null)) {
            addRoomRows(rows, systems);
        }
        if (systems.stream().anyMatch(s -> s.run().checkouts() != null)) {
            addCheckoutRows(rows, systems);
        }
        addOutcomeRows(rows, systems);
        sb.append(table(rows));
        appendComparisons(sb, report, systems);
        appendViolations(sb, systems);
        appendProbes(sb, report, systems);
        appendTargets(sb, report, systems);
        return sb.toString();
    }

    /** When and where the run was, and what it ran. */
    private static void appendHeading(StringBuilder sb, BenchReport report) {
        sb.append('\n').append("Boxoffice flash-sale bench, ").append(report.startedAt()).append('\n');
        sb.append("machine: ").append(report.machine().get("summary")).append('\n');
        sb.append("command: ").append(report.command()).append('\n');
        sb.append("scenario: ").append(report.settings().get("summary")).append("\n\n");
    }

    /** What every run measures: throughput, sell-out, outcomes and latencies. */
    private static void addRunRows(List<String[]> rows, List<SystemOutcome> systems) {
        rows.add(row("seats / buyers / connections", systems, r -> fmt("%,d / %,d / %d", r.seatCount(), r.buyers(), r.connections())));
        rows.add(row("hold attempts/s (mean)", systems, r -> fmt("%,.0f", r.attemptsPerSecond())));
        rows.add(row("hold attempts/s (best 1 s)", systems, r -> fmt("%,.0f", r.peakAttemptsPerSecond())));
        rows.add(row("successful holds/s (mean)", systems, r -> fmt("%,.0f", r.holdsPerSecond())));
        rows.add(row("successful holds/s (best 1 s)", systems, r -> fmt("%,.0f", r.peakHoldsPerSecond())));
        rows.add(row("time to sell out", systems, r -> r.sellOutSeconds() != null ? fmt("%.1f s", r.sellOutSeconds())
                : fmt("not sold out (%.0f s%s)", r.elapsedSeconds(), r.buyersExhausted() ? ", no buyers left"
                : r.room() != null && r.room().stoppedAdmitting() ? ", room stopped admitting" : "")));
        rows.add(row("attempts / holds / seats held", systems, r -> fmt("%,d / %,d / %,d", r.attempts(), r.successes(), r.seatsHeld())));
        rows.add(row("409 share", systems, r -> fmt("%.1f %%", 100 * r.conflictShare())));
        rows.add(row("errors", systems, r -> r.errorCount() == 0 ? "0" : r.errorCount() + " " + r.errors()));
        rows.add(row("released (abandoned) holds", systems, r -> fmt("%,d", r.releases())));
        rows.add(row("hold p50/p95/p99/p99.9 ms", systems, r -> latency(r.holdLatency())));
        rows.add(row("  successful holds only", systems, r -> latency(r.successfulHoldLatency())));
        rows.add(row("seat-map reads (304 share)", systems, r -> fmt("%,d (%.0f %%)", r.reads(),
                r.reads() == 0 ? 0 : 100.0 * r.notModified() / r.reads())));
        rows.add(row("seat-map p50/p95/p99/p99.9 ms", systems, r -> latency(r.readLatency())));
    }

    /** The open-loop stampede: offered against answered load, the sweep, CPU per attempt and per refusal. */
    private static void addStampedeRows(List<String[]> rows, List<SystemOutcome> systems) {
        rows.add(row("holds/s until sold out", systems, r -> fmt("%,.0f", r.holdsPerSecondWhileSelling())));
        rows.add(row("offered / answered attempts/s", systems, r -> r.openLoop() == null ? "-"
                : fmt("%,.0f / %,.0f", r.openLoop().offeredPerSecond(), r.openLoop().achievedPerSecond())));
        rows.add(row("  arrivals with nobody to send", systems, r -> r.openLoop() == null ? "-" : fmt("%,d", r.openLoop().idleArrivals())));
        rows.add(row("  send lag p99 ms / max backlog", systems, r -> r.openLoop() == null ? "-"
                : fmt("%.1f / %,d", r.openLoop().sendLag().p99(), r.openLoop().maxBacklog())));
        rows.add(outcomeRow("sweep: highest rate, p99 < " + (int) Sweep.BUDGET_MS + " ms", systems, s -> s.sweep() == null ? "-"
                : s.sweep().bestRate() == null ? "none" : fmt("%,.0f/s", s.sweep().bestRate())));
        rows.add(outcomeRow("CPU us/attempt: gen+server+pg", systems, s -> fmt("%.0f + %.0f + %.0f = %.0f",
                s.microsPerAttempt("load generator"), s.microsPerAttempt("server"), s.microsPerAttempt("postgresql"),
                s.microsPerAttemptSum())));
        rows.add(outcomeRow("after sell-out: CPU us/refusal g+s+pg", systems, s -> s.refusals() == null ? "-"
                : fmt("%.0f + %.0f + %.0f (%,.0f in %.0f s)", s.refusals().microsPerAttempt().getOrDefault("load generator", Double.NaN),
                s.refusals().microsPerAttempt().getOrDefault("server", Double.NaN),
                s.refusals().microsPerAttempt().getOrDefault("postgresql", Double.NaN), s.refusals().attempts(),
                s.refusals().toSeconds() - s.refusals().fromSeconds())));
        rows.add(outcomeRow("refusal ceiling/s: server+pg us each", systems, s -> s.refusalCeiling() == null ? "-"
                : fmt("%,.0f: %.1f + %.1f", s.refusalCeiling().requestsPerSecond(), s.refusalCeiling().serverMicrosPerRequest(),
                s.refusalCeiling().micros("postgresql"))));
        rows.add(outcomeRow("  whole machine (neighbours too)", systems, s -> fmt("%.0f", s.microsPerAttempt(
                org.boxoffice.bench.probe.CpuMeter.MACHINE))));
        rows.add(outcomeRow("PostgreSQL CPU us per durable hold", systems, s -> fmt("%.0f", s.postgresMicrosPerHold())));
        rows.add(outcomeRow("generator CPU us/request (thread)", systems, s -> s.run().openLoop() == null ? "-"
                : fmt("%.1f (%.1f)", s.generatorMicrosPerRequest(), s.run().openLoop().generatorMicrosPerRequest())));
    }

    /** The waiting room's fairness in the stampede. */
    private static void addFairnessRows(List<String[]> rows, List<SystemOutcome> systems) {
        rows.add(row("room: inversions / holds w/o pass", systems, r -> r.openLoop() == null || r.openLoop().fairness() == null
                ? "-" : fmt("%,d / %,d (of %,d tries)", r.openLoop().fairness().inversions(),
                r.openLoop().fairness().withoutPassHolds(), r.openLoop().fairness().withoutPassAttempts())));
        rows.add(row("  passes / wait answers", systems, r -> r.openLoop() == null || r.openLoop().fairness() == null
                ? "-" : fmt("%,d / %,d", r.openLoop().fairness().passes(), r.openLoop().fairness().waitAnswers())));
    }

    /** The waiting room of a closed-loop sale. */
    private static void addRoomRows(List<String[]> rows, List<SystemOutcome> systems) {
        rows.add(row("waiting room: admitted / passes", systems, r -> r.room() == null ? "-"
                : fmt("%,d / %,d", r.room().admittedUpTo(), r.room().passes())));
    }

    /** Buyers who go on to pay. */
    private static void addCheckoutRows(List<String[]> rows, List<SystemOutcome> systems) {
        rows.add(row("checkout: paying buyers / requests", systems, r -> r.checkouts() == null ? "-"
                : fmt("%,d / %,d", r.checkouts().buyers(), r.checkouts().requests())));
        rows.add(row("  booked (after 202) / pending", systems, r -> r.checkouts() == null ? "-"
                : fmt("%,d (%,d) / %,d", r.checkouts().allBooked(), r.checkouts().bookedAfterPending(), r.checkouts().pending())));
        rows.add(row("  declined: 402s / retried / final", systems, r -> r.checkouts() == null ? "-"
                : fmt("%,d / %,d / %,d", r.checkouts().declines(), r.checkouts().retried(), r.checkouts().declined())));
        rows.add(row("  failed (errors)", systems, r -> r.checkouts() == null ? "-"
                : r.checkouts().errors().isEmpty() ? Long.toString(r.checkouts().failed())
                : r.checkouts().failed() + " " + r.checkouts().errors()));
        rows.add(row("  checkout p50/p95/p99/p99.9 ms", systems, r -> r.checkouts() == null ? "-" : latency(r.checkouts().latency())));
        rows.add(row("  booked seats/s (mean)", systems, r -> r.checkouts() == null ? "-" : fmt("%,.0f", r.bookedSeatsPerSecond())));
    }

    /** What each system ended with: CPU, seats left, invariants and money. */
    private static void addOutcomeRows(List<String[]> rows, List<SystemOutcome> systems) {
        rows.add(outcomeRow("CPU s: load gen/server/postgres", systems, s -> cpu(s.cpuSeconds())));
        rows.add(outcomeRow("CPU s: whole machine", systems, s -> s.cpuSeconds() == null ? "?"
                : one(s.cpuSeconds().get(org.boxoffice.bench.probe.CpuMeter.MACHINE))));
        rows.add(outcomeRow("seats left on the map after", systems, s -> s.seatsLeft() == null ? "?" : fmt("%,d", s.seatsLeft())));
        if (systems.stream().anyMatch(s -> s.area() != null)) {
            rows.add(outcomeRow("admissions taken / capacity", systems, s -> s.area() == null ? "-"
                    : fmt("%,d / %,d", s.area().taken(), s.area().capacity())));
            rows.add(outcomeRow("sold-out answers", systems, s -> s.area() == null ? "-" : fmt("%,d", s.area().soldOutAnswers())));
            rows.add(outcomeRow("  while the asked number remained", systems, s -> s.area() == null ? "-"
                    : fmt("%,d", s.area().soldOutWhileLeft())));
        }
        rows.add(outcomeRow("invariant violations", systems, s -> !s.checked() ? "not checked"
                : s.violations() == 0 ? "0" : "!!! " + s.violations() + " !!!"));
        if (systems.stream().anyMatch(s -> s.bookings() != null)) {
            rows.add(outcomeRow("  money: captured-refunded / booked", systems, s -> s.bookings() == null ? "-"
                    : fmt("%s / %s", euros(s.bookings().money().capturedCents() - s.bookings().money().refundedCents()),
                    euros(s.bookings().money().confirmedCents()))));
        }
        rows.add(outcomeRow("  unacknowledged held seats", systems, s -> s.invariants() != null
                ? Long.toString(s.invariants().unacknowledgedHeldSeats())
                : s.area() != null ? Long.toString(s.area().unacknowledgedAdmissions()) : "-"));
    }

    /** Boxoffice against each PostgreSQL-only design, the stampede ratios and each sweep step. */
    private static void appendComparisons(StringBuilder sb, BenchReport report, List<SystemOutcome> systems) {
        SystemOutcome box = report.system("boxoffice");
        if (box != null) {
            for (SystemOutcome base : systems) {
                if (base.run().system().startsWith("pg-")) {
                    sb.append(fmt("\nboxoffice / %-15s attempts/s %.1fx, successful holds/s %.2fx", base.run().system(),
                            box.run().attemptsPerSecond() / base.run().attemptsPerSecond(),
                            box.run().holdsPerSecond() / base.run().holdsPerSecond()));
                }
            }
            sb.append('\n');
        }
        StampedeRatios.of(report).forEach((name, value) -> {
            if (!Double.isNaN(value)) {
                sb.append(fmt("ratio %-55s %.2f%n", name, value));
            }
        });
        for (SystemOutcome s : systems) {
            if (s.sweep() != null) {
                sb.append(fmt("sweep %s:", s.run().system()));
                s.sweep().steps().forEach(st -> sb.append(fmt(" %,.0f/s->p99 %.0f ms%s", st.offeredPerSecond(), st.holdP99Ms(),
                        st.sustained() ? "" : " (x)")));
                sb.append('\n');
            }
        }
    }

    /** Any double booking or broken invariant, spelled out below the table. */
    private static void appendViolations(StringBuilder sb, List<SystemOutcome> systems) {
        for (SystemOutcome s : systems) {
            if (s.bookings() != null && s.bookings().violations() > 0) {
                BookingChecker.Report r = s.bookings();
                sb.append("\n!!! BOOKING VIOLATIONS in ").append(s.run().system()).append(": seat in two bookings ")
                        .append(r.seatInTwoBookings()).append(", booked but no CONFIRMED booking ").append(r.missingBookings())
                        .append(", wrong seats ").append(r.wrongSeats()).append(", seats not sold ").append(r.seatsNotSold())
                        .append(", money ").append(r.moneyNotConserved()).append('\n');
            }
            if (s.area() != null && s.area().violations() > 0) {
                sb.append("\n!!! INVARIANT VIOLATIONS in ").append(s.run().system()).append(": over capacity ")
                        .append(s.area().overCapacity()).append(", not backed by a hold ").append(s.area().notBacked())
                        .append(", counter apart from the holds ").append(s.area().counterApart()).append('\n');
            }
            if (s.invariants() != null && s.invariants().violations() > 0) {
                RunChecker.Report r = s.invariants();
                sb.append("\n!!! INVARIANT VIOLATIONS in ").append(s.run().system()).append(": held twice ")
                        .append(r.heldTwice()).append(", missing from PostgreSQL ").append(r.missingFromReferee())
                        .append(", lost ").append(r.lostHolds()).append(", released but held ").append(r.releasedStillHeld())
                        .append(", overlapping ACTIVE rows ").append(r.activeRowsOverlap()).append('\n');
            }
        }
    }

    /** The probes' findings: CPU by thread kind, the HTTP ceiling, expiry, memory and profiles. */
    private static void appendProbes(StringBuilder sb, BenchReport report, List<SystemOutcome> systems) {
        for (SystemOutcome s : systems) {
            if (s.serverThreadCpu() != null && !s.serverThreadCpu().isEmpty()) {
                sb.append(fmt("%nserver CPU s of %s by thread kind: %s", s.run().system(), s.serverThreadCpu()));
            }
        }
        sb.append('\n');
        if (report.httpCeiling() != null) {
            sb.append(fmt("\nHTTP ceiling: an empty handler on the same web server, same client and connections: %,.0f requests/s"
                    + " (p99 %.1f ms); CPU per request: server %.1f us, load generator %.1f us, whole machine %.1f us%n",
                    report.httpCeiling().requestsPerSecond(), report.httpCeiling().latency().p99(),
                    report.httpCeiling().serverMicrosPerRequest(), report.httpCeiling().generatorMicrosPerRequest(),
                    report.httpCeiling().machineMicrosPerRequest()));
        }
        if (report.expiry() != null) {
            sb.append(fmt("\nexpiry: holds of %d s + %d s grace back on sale %s after expiresAt + grace (per hold: %s ms)%n",
                    report.expiry().holdSeconds(), report.expiry().graceSeconds(),
                    report.expiry().allReturned() ? fmt("at most %,d ms", report.expiry().maxLagMillis()) : "NOT ALL",
                    report.expiry().lagsMillis()));
        }
        if (report.memory() != null) {
            var m = report.memory();
            sb.append(fmt("memory: %,d-seat show inventory %.2f MB (%d blocks, %d SeatBlock values added); heap growth for it %.2f MB;"
                            + " heap per 100 shows of %,d seats %.0f MB (measured over %d)%n",
                    m.stadiumSeats(), Targets.mb(m.inventoryBytes()), m.stadiumBlocks(), m.seatBlocksAdded(),
                    Targets.mb(m.heapGrowthBytes()), m.seatsPerShow(), Targets.mb(m.perHundredShowsBytes()), m.showsMeasured()));
        }
        for (SystemOutcome s : systems) {
            if (s.profile() != null) {
                sb.append(profile(s.run().system(), s.profile()));
                List<org.boxoffice.bench.probe.StageProfile.Breakdown> stages = StageCosts.of(s);
                stages.forEach(b -> sb.append(StageCosts.render(s.run().system(), b)));
                if (!stages.isEmpty() && !Double.isNaN(s.postgresMicrosPerHold())) {
                    sb.append("  PostgreSQL's side is its CPU per durable hold in the table: statement, audit row and commit together"
                            + " (the referee's commit timer is wall time over applying and committing a batch: it cannot split them)\n");
                }
            }
        }
    }

    /** Each target met or missed, then the notes. */
    private static void appendTargets(StringBuilder sb, BenchReport report, List<SystemOutcome> systems) {
        sb.append(systems.stream().anyMatch(s -> s.run().openLoop() != null) ? "\ntargets of the stampede:\n" : "\ntargets of the flash sale:\n");
        for (TargetCheck t : report.targets()) {
            String mark = t.met() == null ? "[ ?? ]" : t.met() ? "[ ok ]" : "[MISS]";
            sb.append(fmt("  %s %-50s %-30s %s%n", mark, t.target(), t.goal(), t.measured()));
        }
        if (!report.notes().isEmpty()) {
            sb.append("\nnotes:\n");
            report.notes().forEach(n -> sb.append("  - ").append(n).append('\n'));
        }
    }

    static String profile(String system, JfrProfile.Summary p) {
        StringBuilder sb = new StringBuilder(fmt("%nprofile of %s (%,d CPU samples, %d GCs, %.0f ms paused; %s):%n",
                system, p.samples(), p.gcCount(), p.gcPauseMillis(), p.file().getFileName()));
        sb.append("  by component: ");
        p.byComponent().stream().limit(8).forEach(h -> sb.append(fmt("%s %.0f%%  ", h.name(), 100 * h.share())));
        sb.append("\n  by thread:    ");
        p.byThread().stream().limit(6).forEach(h -> sb.append(fmt("%s %.0f%%  ", h.name(), 100 * h.share())));
        sb.append("\n  hottest methods (self):\n");
        p.self().stream().limit(12).forEach(h -> sb.append(fmt("    %5.1f%%  %s%n", 100 * h.share(), h.name())));
        return sb.toString();
    }

    private static String cpu(Map<String, Double> cpu) {
        if (cpu == null) {
            return "?";
        }
        return fmt("%s / %s / %s of %.0f s", one(cpu.get("load generator")), one(cpu.get("server")),
                one(cpu.get("postgresql")), cpu.getOrDefault("wall", 0.0));
    }

    private static String euros(long cents) {
        return fmt("%,.2f", cents / 100.0);
    }

    private static String one(Double v) {
        return v == null ? "?" : fmt("%.1f", v);
    }

    private static String latency(Latency l) {
        return l.count() == 0 ? "-" : fmt("%.1f / %.1f / %.1f / %.1f", l.p50(), l.p95(), l.p99(), l.p999());
    }

    private static String[] header(List<SystemOutcome> systems) {
        String[] row = new String[systems.size() + 1];
        row[0] = "";
        for (int i = 0; i < systems.size(); i++) {
            row[i + 1] = systems.get(i).run().system();
        }
        return row;
    }

    private static String[] row(String label, List<SystemOutcome> systems, Function<RunResult, String> cell) {
        return outcomeRow(label, systems, s -> cell.apply(s.run()));
    }

    private static String[] outcomeRow(String label, List<SystemOutcome> systems, Function<SystemOutcome, String> cell) {
        String[] row = new String[systems.size() + 1];
        row[0] = label;
        for (int i = 0; i < systems.size(); i++) {
            row[i + 1] = cell.apply(systems.get(i));
        }
        return row;
    }

    private static String table(List<String[]> rows) {
        int columns = rows.get(0).length;
        int[] width = new int[columns];
        for (String[] r : rows) {
            for (int i = 0; i < columns; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] r : rows) {
            for (int i = 0; i < columns; i++) {
                sb.append(i == 0 ? r[i] + " ".repeat(width[i] - r[i].length())
                        : "  " + " ".repeat(width[i] - r[i].length()) + r[i]);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
