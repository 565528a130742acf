package org.boxoffice.bench.cluster;

import org.boxoffice.bench.load.RunResult;
import org.boxoffice.bench.load.RunStats;
import org.boxoffice.bench.load.Sweep;
import org.boxoffice.bench.probe.CpuMeter;
import org.boxoffice.bench.report.TargetCheck;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code ./boxoffice bench --members N} found: CPU per hold attempt for 1 and N members in
 * the same run, per process and per member, the requests each member answered, and, when a
 * member joined or left mid-sale, the answers and readiness second by second through it.
 */
public record ClusterReport(String command, Map<String, Object> settings, List<Steady> steady, Elastic elastic,
                            List<CurvePoint> curve) {

    public static final String GENERATOR = "load generator";
    public static final String MEMBERS = "members";
    public static final String POSTGRESQL = "postgresql";

    /** Target: N members with backups cost at most this many times one member's machine CPU per attempt. */
    public static final double CPU_RATIO_TARGET = 1.5;
    /** Targets of a join or a leave mid-sale. */
    public static final double P99_RATIO_TARGET = 3.0;
    public static final double READY_SECONDS_TARGET = 30;
    /** Target of the scaling curve: the highest sustained rate of 3 quota-bound members over that of 1. */
    public static final double CURVE_TARGET = 2.4;

    /**
     * One point of the scaling curve: {@code members} members, each in a CPU quota of {@code cores},
     * and the highest offered rate they sustained (null: not even the first).
     *
     * @param cpuSeconds CPU over all the sweep's trials, per process group
     */
    public record CurvePoint(int members, double cores, Double bestRate, List<Sweep.Step> steps, Map<String, Double> cpuSeconds) {
    }

    /**
     * One stampede on a cluster that does not change.
     *
     * @param cpuMicrosPerAttempt per process group (whole machine, members, PostgreSQL, load generator without
     *                            the proxy, the Service proxy, each member): CPU microseconds per hold attempt answered
     * @param requests            requests the Service proxy passed to each member
     */
    public record Steady(int members, int quorum, long attempts, double attemptsPerSecond, long durableHolds,
                         long reads, double holdP50Ms, double holdP99Ms, Map<String, Long> errors, long serverErrors,
                         Map<String, Double> cpuSeconds, Map<String, Double> cpuMicrosPerAttempt,
                         Map<String, Double> idleCpuPerSecond, Map<String, Double> loadMicrosPerAttempt,
                         Map<String, Long> requests, long invariantViolations, Map<String, Double> membersByThreadKind,
                         Map<String, Double> idleCoresPerMemberByThreadKind, String gridAndReferee) {

        /**
         * @param idle        the same groups' CPU over a few seconds without load just before: what members
         *                    spend on their own (heartbeats, sweeps, snapshot refreshes), whatever the load
         * @param threads     the members' CPU seconds in the run by thread kind ({@link CpuMeter#threadKinds})
         * @param idleThreads the same without load, over the idle measurement's wall time
         * @param referee     the members' own counters of the run, in words (grid claims, allowance reads, group commits)
         */
        public static Steady of(int members, int quorum, RunResult run, Map<String, Double> cpu, double proxyCpu,
                                Map<String, Long> requests, Map<String, Double> idle, long violations,
                                Map<String, Double> threads, Map<String, Double> idleThreads, String referee) {
            Map<String, Double> seconds = new LinkedHashMap<>(cpu);
            seconds.put(GENERATOR, cpu.getOrDefault(GENERATOR, 0.0) - proxyCpu);
            seconds.put("service proxy", proxyCpu);
            Map<String, Double> perAttempt = new LinkedHashMap<>();
            long attempts = Math.max(1, run.attempts());
            seconds.forEach((k, v) -> {
                if (!k.equals("wall")) {
                    perAttempt.put(k, v * 1e6 / attempts);
                }
            });
            double idleWall = idle.getOrDefault("wall", 1.0);
            double wall = cpu.getOrDefault("wall", 0.0);
            Map<String, Double> idlePerSecond = new LinkedHashMap<>();
            Map<String, Double> load = new LinkedHashMap<>();
            idle.forEach((k, v) -> {
                if (!k.equals("wall") && !k.equals(GENERATOR)) {
                    idlePerSecond.put(k, v / idleWall);
                    load.put(k, (cpu.getOrDefault(k, 0.0) - v / idleWall * wall) * 1e6 / attempts);
                }
            });
            // the members' load's own CPU per attempt by thread kind: where N members spend more than one
            Map<String, Double> byKind = new java.util.TreeMap<>();
            threads.forEach((kind, v) -> byKind.put(kind,
                    (v - idleThreads.getOrDefault(kind, 0.0) / idleWall * wall) * 1e6 / attempts));
            // what a member spends without load, by thread kind: the idle target is per member
            Map<String, Double> idleByKind = new java.util.TreeMap<>();
            idleThreads.forEach((kind, v) -> idleByKind.put(kind, v / idleWall / Math.max(1, members)));
            return new Steady(members, quorum, run.attempts(), run.attemptsPerSecond(), run.successes(), run.reads(),
                    run.holdLatency().p50(), run.holdLatency().p99(), run.errors(), ClusterReport.serverErrors(run), seconds,
                    perAttempt, idlePerSecond, load, requests, violations, byKind, idleByKind, referee);
        }

        public double machineMicrosPerAttempt() {
            return cpuMicrosPerAttempt.getOrDefault(CpuMeter.MACHINE, 0.0);
        }

        /** The load's own CPU per attempt of members and PostgreSQL: without what they spend idle. */
        public double loadMicros() {
            return loadMicrosPerAttempt.getOrDefault(MEMBERS, 0.0) + loadMicrosPerAttempt.getOrDefault(POSTGRESQL, 0.0);
        }

        /**
         * {@link #loadMicros} without the members' JIT compiler threads: what is left of a member's
         * start once the warm-up is over (each of N members compiles the same code from a Nth of the
         * traffic) is a cost that ends, not one per attempt.
         */
        public double loadMicrosWithoutJit() {
            return loadMicros() - membersByThreadKind.getOrDefault(CpuMeter.JIT, 0.0);
        }

        /** Members and PostgreSQL only: the system under test without the bench's own processes. */
        public double systemMicrosPerAttempt() {
            return cpuMicrosPerAttempt.getOrDefault(MEMBERS, 0.0) + cpuMicrosPerAttempt.getOrDefault(POSTGRESQL, 0.0);
        }
    }

    /**
     * A change of the cluster mid-sale; times in seconds. {@code kind}: "join" (member N+1 starts),
     * "leave" (the highest leaves gracefully), "restart" (one member of a rolling restart) or "kill"
     * (SIGKILL, then started again). {@code exitedAfterSigterm}: for a kill, until the process was
     * gone; {@code readyAfter}: for a restart, from SIGTERM, for a kill from the kill;
     * {@code allReadyAfter}: until every member was ready (for a restart and a kill, and the cluster
     * safe), from SIGTERM, the kill or the join.
     */
    public record Event(String kind, String member, double atSecond, Double joinedAfter, Double readyAfter,
                        Double exitedAfterSigterm, Double allReadyAfter, Double preStopSeconds, String failure) {

        public Event(String kind, String member, double atSecond, Double joinedAfter, Double readyAfter,
                     Double exitedAfterSigterm, Double allReadyAfter, Double preStopSeconds) {
            this(kind, member, atSecond, joinedAfter, readyAfter, exitedAfterSigterm, allReadyAfter, preStopSeconds, null);
        }

        public static Event failed(String why) {
            return new Event("failed", null, -1, null, null, null, null, null, why);
        }

        /** When the cluster was safe with every member ready again, in seconds since the run started. */
        public double settledAtSecond() {
            double after = allReadyAfter == null ? 0 : allReadyAfter;
            return atSecond + (preStopSeconds == null ? 0 : preStopSeconds) + after;
        }
    }

    /**
     * One second of the elastic run: answers, errors (all, 5xx, connections lost at the client),
     * hold p99 and how many members were ready (a member counts as ready in a second when every look
     * at it in that second found it ready, or, not looked at in it, when its last look did).
     *
     * @param firstTryHoldP99Ms the hold p99 of the second's answers to a request's first send (no resend after a lost connection)
     * @param heldBack          with members in CPU quotas: per member, in how many of this second's quota periods
     *                          its quota held it back (empty without quotas)
     * @param holds             holds made in the second (the opening's burst of winners: see {@code openingEnd})
     * @param machineBusyCores  the whole machine's busy cores in the second (NaN when not measured)
     * @param jitCores          per member, its JIT compiler's cores in the second (empty when not measured)
     */
    public record Second(int second, double attempts, double errors, double serverErrors, double transportErrors,
                         double holdP99Ms, int membersReady, int membersWatched, double firstTryHoldP99Ms,
                         Map<String, Integer> heldBack, double holds, double machineBusyCores, Map<String, Double> jitCores) {

        /** A member's compiler counts in a second's line from this many cores (a tenth of a member's usual slice and more). */
        static final double COMPILING_CORES = 0.05;

        public Second {
            heldBack = Map.copyOf(heldBack);
            jitCores = Map.copyOf(jitCores);
        }

        /** The members whose JIT compiler took at least {@value #COMPILING_CORES} cores in this second: "member-4 0.31". */
        public String compilingMembers() {
            return String.join(", ", new java.util.TreeMap<>(jitCores).entrySet().stream()
                    .filter(e -> e.getValue() >= COMPILING_CORES)
                    .map(e -> String.format(Locale.ROOT, "%s %.2f", e.getKey(), e.getValue())).toList());
        }

        /** The members held back in this second, by name: "member-1 3, member-3 8" (empty if none was). */
        public String heldBackMembers() {
            return String.join(", ", new java.util.TreeMap<>(heldBack).entrySet().stream()
                    .filter(e -> e.getValue() > 0).map(e -> e.getKey() + " " + e.getValue()).toList());
        }
    }

    public record Elastic(long attempts, double attemptsPerSecond, long durableHolds, Map<String, Long> errors,
                          long serverErrors, double steadyHoldP99Ms, List<EventOutcome> events, List<Second> seconds,
                          double secondsWithNoMemberReady, Map<String, Double> cpuSeconds, Map<String, Long> requests,
                          long invariantViolations) {

        public static Elastic of(RunResult run, Map<String, Double> cpu, Map<String, Long> requests, List<Event> events,
                                 List<MemberHealth.Sample> health, long runStart, long violations) {
            return of(run, cpu, requests, events, health, runStart, violations, Map.of());
        }

        /**
         * @param heldBack with members in CPU quotas: by second of the run (1, 2, ...), for each member the quota
         *                 periods of that second in which its quota held it back
         */
        public static Elastic of(RunResult run, Map<String, Double> cpu, Map<String, Long> requests, List<Event> events,
                                 List<MemberHealth.Sample> health, long runStart, long violations,
                                 Map<Integer, Map<String, Integer>> heldBack) {
            return of(run, cpu, requests, events, health, runStart, violations, heldBack, Map.of(), Map.of());
        }

        /**
         * @param machineBusy by second of the run, the whole machine's busy cores
         * @param jit         by second of the run, each member's JIT compiler in cores
         */
        public static Elastic of(RunResult run, Map<String, Double> cpu, Map<String, Long> requests, List<Event> events,
                                 List<MemberHealth.Sample> health, long runStart, long violations,
                                 Map<Integer, Map<String, Integer>> heldBack, Map<Integer, Double> machineBusy,
                                 Map<Integer, Map<String, Double>> jit) {
            List<Second> seconds = new ArrayList<>();
            // each watched member's last look, as the Service stand-in follows it: a member keeps the
            // state its last look gave it until the next look, and leaves when it is unwatched
            Map<String, Boolean> last = new LinkedHashMap<>();
            List<MemberHealth.Sample> looks = health.stream().sorted(java.util.Comparator.comparingLong(MemberHealth.Sample::atNanos)).toList();
            int next = 0;
            for (RunStats.TimelinePoint p : run.timeline()) {
                int s = (int) Math.ceil(p.t()) - 1;
                long from = runStart + s * 1_000_000_000L;
                long to = from + 1_000_000_000L;
                // a member looked at in this second counts as ready if every look at it found it ready;
                // one not looked at (the watching thread was held up by a slow answer) as its last look said
                Map<String, Boolean> inSecond = new LinkedHashMap<>();
                while (next < looks.size() && looks.get(next).atNanos() < to) {
                    MemberHealth.Sample h = looks.get(next++);
                    if (h.unwatched()) {
                        last.remove(h.member());
                        if (h.atNanos() >= from) {
                            inSecond.remove(h.member());
                        }
                        continue;
                    }
                    if (h.atNanos() >= from) {
                        inSecond.merge(h.member(), h.ready(), Boolean::logicalAnd);
                    }
                    last.put(h.member(), h.ready());
                }
                Map<String, Boolean> state = new LinkedHashMap<>(last);
                state.putAll(inSecond);
                int ready = (int) state.values().stream().filter(b -> b).count();
                seconds.add(new Second(s + 1, p.attemptsPerSecond(), p.errorsPerSecond(), p.serverErrorsPerSecond(),
                        p.transportErrorsPerSecond(), p.holdP99Ms(), ready, state.size(), p.firstTryHoldP99Ms(),
                        heldBack.getOrDefault(s + 1, Map.of()), p.holdsPerSecond(),
                        machineBusy.getOrDefault(s + 1, Double.NaN), jit.getOrDefault(s + 1, Map.of())));
            }
            // the steady p99: the median second outside every event's window and after the opening
            int opening = openingEnd(seconds);
            List<Double> outside = seconds.stream().filter(s -> s.second() > opening && events.stream()
                            .filter(e -> e.failure() == null)
                            .noneMatch(e -> s.second() > e.atSecond() && s.second() - 1 <= e.settledAtSecond() + 1))
                    .map(Second::holdP99Ms).sorted().toList();
            double steady = outside.isEmpty() ? 0 : outside.get(outside.size() / 2);
            List<EventOutcome> outcomes = new ArrayList<>();
            for (Event e : events) {
                if (e.failure() != null) {
                    outcomes.add(new EventOutcome(e, 0, 0, 0, 0, 0, -1, -1, 0, 0));
                    continue;
                }
                double end = e.settledAtSecond() + 1;
                List<Second> window = seconds.stream().filter(s -> s.second() > e.atSecond() && s.second() - 1 <= end).toList();
                double worst = window.stream().mapToDouble(Second::holdP99Ms).max().orElse(0);
                double worstFirstTry = window.stream().mapToDouble(Second::firstTryHoldP99Ms).max().orElse(0);
                double errors = window.stream().mapToDouble(Second::errors).sum();
                double server = window.stream().mapToDouble(Second::serverErrors).sum();
                double transport = window.stream().mapToDouble(Second::transportErrors).sum();
                int fewest = window.stream().mapToInt(Second::membersReady).min().orElse(-1);
                // the size before the event: the second before it (a join adds one, the others keep or lose one)
                int before = seconds.stream().filter(s -> s.second() <= Math.max(1, (int) Math.floor(e.atSecond())))
                        .reduce((a, b) -> b).map(Second::membersWatched).orElse(-1);
                outcomes.add(new EventOutcome(e, worst, steady > 0 ? worst / steady : 0, Math.round(errors), Math.round(server),
                        Math.round(transport), fewest, before, worstFirstTry, typicalWorst(outside, window.size())));
            }
            double noneReady = seconds.stream().filter(s -> s.membersWatched() > 0 && s.membersReady() == 0).count();
            return new Elastic(run.attempts(), run.attemptsPerSecond(), run.successes(), run.errors(), ClusterReport.serverErrors(run),
                    steady, outcomes, seconds, noneReady, cpu, requests, violations);
        }
    }

    /**
     * The last second of the sale's opening: the burst of winners on a fresh show until it sold out,
     * a load no event meets (the events come after it), so not part of the steady seconds. It ends
     * before the first second, after the one with the most holds, that holds at most a tenth of that
     * peak; the first two seconds (the crowd still arriving) are left out in any case.
     */
    static int openingEnd(List<Second> seconds) {
        int peakAt = 0;
        double peak = 0;
        for (Second s : seconds) {
            if (s.holds() > peak) {
                peak = s.holds();
                peakAt = s.second();
            }
        }
        for (Second s : seconds) {
            if (s.second() > peakAt && s.holds() <= peak / 10) {
                return Math.max(2, s.second() - 1);
            }
        }
        return 2;
    }

    /**
     * The worst per-second p99 that {@code length} steady seconds typically reach, for comparison with
     * an event's window of that length: the steady seconds' quantile {@code length / (length + 1)}, the
     * expected highest of {@code length} seconds drawn from them. 0 without steady seconds.
     *
     * @param steadySorted the steady seconds' p99s, ascending
     */
    static double typicalWorst(List<Double> steadySorted, int length) {
        if (steadySorted.isEmpty() || length <= 0) {
            return 0;
        }
        double rank = (double) length / (length + 1) * (steadySorted.size() - 1);
        int below = (int) Math.floor(rank);
        int above = Math.min(steadySorted.size() - 1, below + 1);
        return steadySorted.get(below) + (rank - below) * (steadySorted.get(above) - steadySorted.get(below));
    }

    /**
     * @param worstHoldP99Ms  the highest per-second hold p99 from the event until a second after the cluster settled
     * @param errorsInWindow  errors of any kind in that window (5xx, lost connections, resent holds)
     * @param fewestReady     the fewest members ready in any second of the window (target: at least membersBefore - 1)
     * @param membersBefore   members watched in the second the event began
     * @param worstFirstTryHoldP99Ms the highest per-second p99 of holds answered to their first send: the window's
     *                        wait at the members, without the fans' resends after a connection lost with a member
     * @param steadyWorstHoldP99Ms the worst second a steady stretch as long as the window typically has
     *                        ({@link #typicalWorst}): how far the event stands out from the run's own noise
     */
    public record EventOutcome(Event event, double worstHoldP99Ms, double p99Ratio, long errorsInWindow, long serverErrorsInWindow,
                               long transportErrorsInWindow, int fewestReady, int membersBefore, double worstFirstTryHoldP99Ms,
                               double steadyWorstHoldP99Ms) {

        public boolean readyMet() {
            return fewestReady >= membersBefore - 1;
        }
    }

    static long serverErrors(RunResult run) {
        return run.errors().entrySet().stream().filter(e -> e.getKey().startsWith("5")).mapToLong(Map.Entry::getValue).sum();
    }

    /** The summary printed at the end and written to summary.txt. */
    /**
     * What this run measured against the several-members targets, as the latest-figures table and
     * {@code results.json} give them: the CPU ratio and the idle cost (steady runs), each kind of
     * change of size (the worst of its events) and the scaling curve.
     */
    @com.fasterxml.jackson.annotation.JsonProperty("targets")
    public List<TargetCheck> targets() {
        List<TargetCheck> out = new ArrayList<>();
        if (steady.size() == 2) {
            Steady one = steady.get(0);
            Steady n = steady.get(1);
            double system = n.systemMicrosPerAttempt() / one.systemMicrosPerAttempt();
            double load = n.loadMicros() / one.loadMicros();
            double compiled = n.loadMicrosWithoutJit() / one.loadMicrosWithoutJit();
            out.add(new TargetCheck(n.members() + " members' CPU per hold attempt vs one member's (members + PostgreSQL)",
                    "<= " + CPU_RATIO_TARGET + "x", String.format(Locale.ROOT, "%.2fx (%,.0f vs %,.0f us); without the idle CPU %.2fx;"
                            + " without it and the JIT compiler's %.2fx", system, n.systemMicrosPerAttempt(),
                    one.systemMicrosPerAttempt(), load, compiled), system <= CPU_RATIO_TARGET));
            double idle = n.idleCpuPerSecond().getOrDefault(MEMBERS, 0.0) / n.members();
            out.add(new TargetCheck("a member without load", "<= " + IDLE_CORES_TARGET + " cores", String.format(Locale.ROOT,
                    "%.3f cores each (%d members), %.3f (one)", idle, n.members(), one.idleCpuPerSecond().getOrDefault(MEMBERS, 0.0)),
                    idle <= IDLE_CORES_TARGET));
        }
        if (elastic != null && !elastic.events().isEmpty()) {
            Map<String, List<EventOutcome>> byKind = new LinkedHashMap<>();
            elastic.events().stream().filter(e -> e.event().failure() == null)
                    .forEach(e -> byKind.computeIfAbsent(e.event().kind(), k -> new ArrayList<>()).add(e));
            byKind.forEach((kind, events) -> {
                List<String> ratios = events.stream().map(e -> String.format(Locale.ROOT, "%.1fx", e.p99Ratio())).toList();
                double worst = events.stream().mapToDouble(EventOutcome::p99Ratio).max().orElse(0);
                double steady = elastic.steadyHoldP99Ms();
                List<String> noise = events.stream().map(e -> String.format(Locale.ROOT, "%.1fx",
                        steady > 0 ? e.steadyWorstHoldP99Ms() / steady : 0)).toList();
                out.add(new TargetCheck(kind + " mid-sale: worst second's hold p99 vs the steady p99", "<= " + P99_RATIO_TARGET + "x",
                        String.format(Locale.ROOT, "%s (steady %.0f ms; a steady stretch as long peaks at %s)", String.join(", ", ratios),
                                steady, String.join(", ", noise)),
                        worst <= P99_RATIO_TARGET));
            });
            long lost = elastic.events().stream().mapToLong(e -> e.serverErrorsInWindow() + e.transportErrorsInWindow()).sum();
            boolean ready = elastic.events().stream().allMatch(EventOutcome::readyMet);
            boolean failed = elastic.events().stream().anyMatch(e -> e.event().failure() != null);
            out.add(new TargetCheck("changes of size mid-sale (" + String.join(", ", byKind.keySet())
                    + "): 5xx and lost connections, fewest members ready, invariant violations", "0, >= N-1, 0",
                    String.format(Locale.ROOT, "%d, %s, %d%s", lost, ready ? "never fewer than N-1" : "FEWER than N-1",
                            elastic.invariantViolations(), failed ? "; an event FAILED" : ""),
                    lost == 0 && ready && elastic.invariantViolations() == 0 && !failed));
        }
        if (curve != null && curve.size() >= 2 && curve.getFirst().bestRate() != null) {
            double one = curve.getFirst().bestRate();
            CurvePoint last = curve.getLast();
            String rates = String.join(", ", curve.stream().map(p -> p.bestRate() == null ? "none"
                    : String.format(Locale.ROOT, "%,.0f", p.bestRate())).toList());
            double ratio = last.bestRate() == null ? 0 : last.bestRate() / one;
            out.add(new TargetCheck(last.members() + " quota-bound members' highest sustained rate vs one member's",
                    ">= " + CURVE_TARGET + "x", String.format(Locale.ROOT, "%.2fx (%s attempts/s at 1..%d members, %.2f cores each)",
                    ratio, rates, last.members(), last.cores()), last.members() >= 3 ? ratio >= CURVE_TARGET : null));
        }
        return out;
    }

    /** Target: a member without load spends at most this many cores. */
    public static final double IDLE_CORES_TARGET = 0.05;

    public String render() {
        StringBuilder b = new StringBuilder();
        b.append("Several members: ").append(command).append('\n').append(settings).append("\n\n");
        b.append(String.format(Locale.ROOT, "%-8s %10s %9s %8s %8s %7s | %s%n", "members", "attempts/s", "holds", "p50 ms",
                "p99 ms", "5xx", "CPU us per hold attempt: machine / members / postgresql / generator / proxy"));
        for (Steady s : steady) {
            Map<String, Double> c = s.cpuMicrosPerAttempt();
            b.append(String.format(Locale.ROOT, "%-8s %,10.0f %,9d %8.1f %8.1f %7d | %.0f / %.0f / %.0f / %.0f / %.0f%n",
                    s.members() + " (q" + s.quorum() + ")", s.attemptsPerSecond(), s.durableHolds(), s.holdP50Ms(), s.holdP99Ms(),
                    s.serverErrors(), c.getOrDefault(CpuMeter.MACHINE, 0.0), c.getOrDefault(MEMBERS, 0.0),
                    c.getOrDefault(POSTGRESQL, 0.0), c.getOrDefault(GENERATOR, 0.0), c.getOrDefault("service proxy", 0.0)));
            Map<String, Double> l = s.loadMicrosPerAttempt();
            Map<String, Double> i = s.idleCpuPerSecond();
            b.append(String.format(Locale.ROOT, "        without load: members %.2f, PostgreSQL %.2f CPU-s/s; load's own CPU per attempt:"
                            + " members %.0f us, PostgreSQL %.0f us, per durable hold: PostgreSQL %.0f us%n",
                    i.getOrDefault(MEMBERS, 0.0), i.getOrDefault(POSTGRESQL, 0.0), l.getOrDefault(MEMBERS, 0.0),
                    l.getOrDefault(POSTGRESQL, 0.0), l.getOrDefault(POSTGRESQL, 0.0) * s.attempts() / Math.max(1, s.durableHolds())));
            StringBuilder per = new StringBuilder();
            s.requests().forEach((member, n) -> per.append(String.format(Locale.ROOT, "  %s: %,d requests, %.0f us CPU per"
                    + " attempt;", member, n, c.getOrDefault(member, 0.0))));
            b.append("        ").append(per).append('\n');
            if (!s.membersByThreadKind().isEmpty()) {
                StringBuilder kinds = new StringBuilder("        members' load's own CPU per attempt by thread kind:");
                s.membersByThreadKind().entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                        .filter(e -> Math.abs(e.getValue()) >= 1)
                        .forEach(e -> kinds.append(String.format(Locale.ROOT, " %s %.0f us;", e.getKey(), e.getValue())));
                b.append(kinds).append('\n');
            }
            if (!s.idleCoresPerMemberByThreadKind().isEmpty()) {
                StringBuilder kinds = new StringBuilder("        a member without load, by thread kind (cores):");
                s.idleCoresPerMemberByThreadKind().entrySet().stream()
                        .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                        .filter(e -> e.getValue() >= 0.0005)
                        .forEach(e -> kinds.append(String.format(Locale.ROOT, " %s %.3f;", e.getKey(), e.getValue())));
                b.append(kinds).append('\n');
            }
            if (s.gridAndReferee() != null) {
                b.append("        ").append(s.gridAndReferee()).append('\n');
            }
            if (s.invariantViolations() > 0 || !s.errors().isEmpty()) {
                b.append("        errors ").append(s.errors()).append(", invariant violations ").append(s.invariantViolations()).append('\n');
            }
        }
        if (steady.size() == 2) {
            Steady one = steady.get(0);
            Steady n = steady.get(1);
            double machine = n.machineMicrosPerAttempt() / one.machineMicrosPerAttempt();
            double system = n.systemMicrosPerAttempt() / one.systemMicrosPerAttempt();
            double load = n.loadMicros() / one.loadMicros();
            double compiled = n.loadMicrosWithoutJit() / one.loadMicrosWithoutJit();
            b.append(String.format(Locale.ROOT, "%n%d members / 1 member, CPU per hold attempt: whole machine %.2fx (target <= %.1fx: %s),"
                            + " members + PostgreSQL %.2fx (%s), without the idle CPU %.2fx, without it and the JIT"
                            + " compiler's %.2fx%n", n.members(), machine,
                    CPU_RATIO_TARGET, machine <= CPU_RATIO_TARGET ? "met" : "MISSED", system,
                    system <= CPU_RATIO_TARGET ? "met" : "MISSED", load, compiled));
        }
        if (elastic != null) {
            Elastic e = elastic;
            b.append(String.format(Locale.ROOT, "%nMembers joining and leaving mid-sale: %,d attempts (%,.0f/s), %,d holds,"
                            + " 5xx %d, errors %s, invariant violations %d, steady hold p99 %.1f ms,"
                            + " %.0f s with no member ready (a Service would have had no endpoints)%n",
                    e.attempts(), e.attemptsPerSecond(), e.durableHolds(), e.serverErrors(), e.errors(), e.invariantViolations(),
                    e.steadyHoldP99Ms(), e.secondsWithNoMemberReady()));
            for (EventOutcome out : e.events()) {
                Event ev = out.event();
                if (ev.failure() != null) {
                    b.append("  FAILED: ").append(ev.failure()).append('\n');
                    continue;
                }
                double settle = (ev.preStopSeconds() == null ? 0 : ev.preStopSeconds()) + ev.allReadyAfter();
                String what = switch (ev.kind()) {
                    case "join" -> String.format(Locale.ROOT, "joined after %.1f s, ready after %.1f s", ev.joinedAfter(),
                            ev.readyAfter());
                    case "leave" -> String.format(Locale.ROOT, "SIGTERM %.0f s later (preStop), exited %.1f s after it",
                            ev.preStopSeconds(), ev.exitedAfterSigterm());
                    case "restart" -> String.format(Locale.ROOT, "SIGTERM %.0f s later (preStop), exited %.1f s after it,"
                            + " ready again %.1f s after it", ev.preStopSeconds(), ev.exitedAfterSigterm(), ev.readyAfter());
                    case "kill" -> String.format(Locale.ROOT, "SIGKILL, gone after %.1f s, started again at once, ready"
                            + " %.1f s after the kill", ev.exitedAfterSigterm(), ev.readyAfter());
                    default -> ev.kind();
                };
                b.append(String.format(Locale.ROOT, "  %s %s at %.1f s: %s; balanced and all ready %.1f s after the event"
                                + " (target <= %.0f s: %s); fewest members ready in a second %d of %d before (target >= N-1: %s);"
                                + " worst second's hold p99 %.1f ms = %.1fx steady (target <= %.0fx: %s), of answers to a first"
                                + " send %.1f ms; a steady stretch as long peaks at %.1f ms = %.1fx; in the window 5xx %d,"
                                + " connections lost at the client %d (target 0: %s), errors of any kind %d%n",
                        ev.kind(), ev.member(), ev.atSecond(), what,
                        settle, READY_SECONDS_TARGET, settle <= READY_SECONDS_TARGET ? "met" : "MISSED",
                        out.fewestReady(), out.membersBefore(), out.readyMet() ? "met" : "MISSED",
                        out.worstHoldP99Ms(), out.p99Ratio(), P99_RATIO_TARGET, out.p99Ratio() <= P99_RATIO_TARGET ? "met" : "MISSED",
                        out.worstFirstTryHoldP99Ms(), out.steadyWorstHoldP99Ms(),
                        e.steadyHoldP99Ms() > 0 ? out.steadyWorstHoldP99Ms() / e.steadyHoldP99Ms() : 0,
                        out.serverErrorsInWindow(), out.transportErrorsInWindow(),
                        out.serverErrorsInWindow() + out.transportErrorsInWindow() == 0 ? "met" : "MISSED", out.errorsInWindow()));
            }
            boolean quotas = e.seconds().stream().anyMatch(s -> !s.heldBack().isEmpty());
            boolean machine = e.seconds().stream().anyMatch(s -> !Double.isNaN(s.machineBusyCores()));
            b.append("  second: attempts/s, 5xx/s, connections lost/s, other errors/s, hold p99 ms, members ready/watched")
                    .append(machine ? ", the machine's busy cores" : "")
                    .append(quotas ? ", members held back by their CPU quota (in how many of the second's periods)" : "")
                    .append(machine ? ", members compiling (their JIT compiler's cores, from "
                            + String.format(Locale.ROOT, "%.2f", Second.COMPILING_CORES) + ")" : "").append('\n');
            for (Second s : e.seconds()) {
                b.append(String.format(Locale.ROOT, "  %3d: %6.0f %5.0f %5.0f %5.0f %8.1f  %d/%d", s.second(), s.attempts(),
                        s.serverErrors(), s.transportErrors(), s.errors() - s.serverErrors() - s.transportErrors(),
                        s.holdP99Ms(), s.membersReady(), s.membersWatched()));
                if (!Double.isNaN(s.machineBusyCores())) {
                    b.append(String.format(Locale.ROOT, "  %4.2f", s.machineBusyCores()));
                }
                if (!s.heldBackMembers().isEmpty()) {
                    b.append("  ").append(s.heldBackMembers());
                }
                if (!s.compilingMembers().isEmpty()) {
                    b.append("  JIT ").append(s.compilingMembers());
                }
                b.append('\n');
            }
            b.append("  requests per member: ").append(e.requests()).append('\n');
        }
        if (curve != null && !curve.isEmpty()) {
            b.append(String.format(Locale.ROOT, "%nScaling curve: each member in a CPU quota of %.2f cores (load generator and"
                    + " PostgreSQL outside)%n", curve.getFirst().cores()));
            Double one = curve.getFirst().bestRate();
            for (CurvePoint p : curve) {
                double members = p.cpuSeconds().getOrDefault(MEMBERS, 0.0);
                double wall = Math.max(1e-9, p.cpuSeconds().getOrDefault("wall", 1.0));
                b.append(String.format(Locale.ROOT, "  %d member(s): highest sustained rate %s%s; members used %.2f of their %.2f"
                                + " cores on average over the sweep, PostgreSQL %.2f%n", p.members(),
                        p.bestRate() == null ? "none" : String.format(Locale.ROOT, "%,.0f/s", p.bestRate()),
                        one == null || p.bestRate() == null ? "" : String.format(Locale.ROOT, " (%.2fx one member)", p.bestRate() / one),
                        members / wall, p.members() * p.cores(), p.cpuSeconds().getOrDefault(POSTGRESQL, 0.0) / wall));
            }
            CurvePoint last = curve.getLast();
            if (curve.size() >= 3 && one != null && curve.get(2).bestRate() != null) {
                double ratio = curve.get(2).bestRate() / one;
                b.append(String.format(Locale.ROOT, "  3 members / 1 member: %.2fx (target >= %.1fx: %s)%n", ratio, CURVE_TARGET,
                        ratio >= CURVE_TARGET ? "met" : "MISSED"));
            } else if (last.members() > 1 && one != null && last.bestRate() != null) {
                b.append(String.format(Locale.ROOT, "  %d members / 1 member: %.2fx%n", last.members(), last.bestRate() / one));
            }
        }
        return b.toString();
    }
}
