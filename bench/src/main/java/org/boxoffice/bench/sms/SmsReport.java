package org.boxoffice.bench.sms;

import org.boxoffice.bench.load.Latency;
import org.boxoffice.bench.report.TargetCheck;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The SMS outage scenario's report: each phase's hold and checkout latency against the prompt
 * phase's, its messages, and whether every text message of the run reached the provider exactly
 * once; rendered as {@code summary.txt} and {@code results.json} (whose {@code targets} feed the
 * latest figures).
 *
 * @param command  the command line as typed
 * @param setting  the run's size and the service's SMS settings, in words
 * @param phases   prompt first, then slow, then failing, then (optional) the control: prompt again
 * @param once     every SMS of the run (warm-up included) once the last phase's wait ended
 * @param notes    lines for the reader
 */
public record SmsReport(String command, String setting, List<SmsPhase> phases, Once once, List<String> notes) {

    /** How much a phase's p99 may exceed the prompt phase's and still count as kept: the spread of back-to-back runs on a shared 2-core machine. */
    public static final double P99_TOLERANCE = 1.5;
    /** The last phase: the stub answering at once again, to show how far the machine moved since the first. */
    public static final String CONTROL = "control";

    /**
     * Every text message of the run, counted at the stub by message id and by the booking it names.
     *
     * @param queued        SMS the service wrote
     * @param deliveredOnce of those, delivered (a repeat of a delivered id is refused by the stub, and counted apart)
     * @param unknown       ids delivered that the outbox does not have
     * @param bookingsTwice bookings whose tickets arrived under two or more ids
     * @param repeats       calls repeating an id already delivered (answered 409: sends again after a lost answer)
     * @param givenUp       messages the service gave up on
     */
    public record Once(long queued, long deliveredOnce, long unknown, int bookingsTwice, long repeats, long givenUp) {

        public long lost() {
            return queued - deliveredOnce;
        }

        public boolean exact() {
            return queued > 0 && lost() == 0 && unknown == 0 && bookingsTwice == 0 && givenUp == 0;
        }
    }

    public SmsPhase phase(String name) {
        return phases.stream().filter(p -> p.name().equals(name)).findFirst().orElse(null);
    }

    /** A phase's figure over the prompt phase's; null when either is missing or the prompt one is 0. */
    public Double ratio(SmsPhase phase, ToDoubleFunction<SmsPhase.Sale> figure) {
        SmsPhase prompt = phases.isEmpty() ? null : phases.get(0);
        if (prompt == null || phase == null) {
            return null;
        }
        double base = figure.applyAsDouble(prompt.sale());
        return base > 0 ? figure.applyAsDouble(phase.sale()) / base : null;
    }

    static double holdP99(SmsPhase.Sale s) {
        return s.holds().p99();
    }

    static double checkoutP99(SmsPhase.Sale s) {
        return s.checkouts().p99();
    }

    public List<TargetCheck> targets() {
        List<TargetCheck> targets = new ArrayList<>();
        targets.add(kept("hold p99 with the SMS provider slow / failing vs answering at once", SmsReport::holdP99));
        targets.add(kept("checkout p99 with the SMS provider slow / failing vs answering at once", SmsReport::checkoutP99));
        Double slowest = phases.stream().map(p -> p.messages().lastDelivery()).reduce(0.0,
                (a, b) -> a == null || b == null ? null : Math.max(a, b));
        targets.add(new TargetCheck("every SMS delivered exactly once after the provider recovers", "all once, 0 lost, 0 twice",
                String.format(Locale.ROOT, "%,d of %,d once, %,d lost, %d twice, %,d given up; %s", once.deliveredOnce(),
                        once.queued(), once.lost(), once.bookingsTwice(), once.givenUp(),
                        slowest == null ? "some never came" : String.format(Locale.ROOT, "each phase's last within %.1f s of"
                                + " the recovery", slowest)), once.queued() > 0 ? once.exact() : null));
        return targets;
    }

    /**
     * Kept when the slow and failing phases' p99 are within {@link #P99_TOLERANCE} of the prompt
     * phase's. The control phase (the stub answering at once again, last) says how far the machine
     * itself moved meanwhile: beyond the same tolerance, the run gives no verdict.
     */
    private TargetCheck kept(String target, ToDoubleFunction<SmsPhase.Sale> p99) {
        Double slow = ratio(phase("slow"), p99);
        Double failing = ratio(phase("failing"), p99);
        Double control = ratio(phase(CONTROL), p99);
        String goal = String.format(Locale.ROOT, "<= %.1fx", P99_TOLERANCE);
        if (slow == null || failing == null) {
            return new TargetCheck(target, goal, "not measured", null);
        }
        String ms = String.join(" / ", phases.stream().map(p -> String.format(Locale.ROOT, "%.1f", p99.applyAsDouble(p.sale())))
                .toList());
        boolean steady = control == null || (control <= P99_TOLERANCE && control >= 1 / P99_TOLERANCE);
        String measured = String.format(Locale.ROOT, "%.2fx / %.2fx (p99 %s ms)", slow, failing, ms)
                + (control == null ? "" : String.format(Locale.ROOT, "; prompt again %.2fx%s", control,
                steady ? "" : ": the machine moved more than the tolerance, no verdict"));
        return new TargetCheck(target, goal, measured, steady ? slow <= P99_TOLERANCE && failing <= P99_TOLERANCE : null);
    }

    public String render() {
        StringBuilder b = new StringBuilder();
        b.append("SMS outage: ").append(setting).append("\n\n");
        b.append(String.format(Locale.ROOT, "%-8s %-28s %18s %6s %18s %6s %7s %7s%n", "phase", "the stub provider",
                "hold p50/p99 ms", "p99 x", "checkout p50/p99", "p99 x", "holds", "booked"));
        for (SmsPhase p : phases) {
            SmsPhase.Sale s = p.sale();
            b.append(String.format(Locale.ROOT, "%-8s %-28s %18s %6s %18s %6s %,7d %,7d%n", p.name(), p.stub(),
                    pair(s.holds()), times(ratio(p, SmsReport::holdP99)), pair(s.checkouts()),
                    times(ratio(p, SmsReport::checkoutP99)), s.held(), s.booked()));
        }
        b.append(String.format(Locale.ROOT, "%n%-8s %7s %15s %18s %12s %9s %22s %15s%n", "phase", "SMS", "sent/delivered",
                "recovered at", "delivered", "sends", "last delivered after", "all sent after"));
        for (SmsPhase p : phases) {
            SmsPhase.Messages m = p.messages();
            b.append(String.format(Locale.ROOT, "%-8s %,7d %15s %18s %,12d %,9d %22s %15s%n", p.name(), m.queued(),
                    m.sentAtSaleEnd() + "/" + m.deliveredAtSaleEnd() + " at end",
                    String.format(Locale.ROOT, "%.1f s into sale", m.recoveredAt()), m.delivered(), m.attempts(),
                    seconds(m.lastDelivery()), seconds(m.allSent())));
        }
        b.append(String.format(Locale.ROOT, "%nthe stub's calls per phase (delivered / repeats answered 409 / answered late / 503 / refused):%n"));
        for (SmsPhase p : phases) {
            SmsStub.Calls c = p.messages().calls();
            b.append(String.format(Locale.ROOT, "  %-8s %,d / %,d / %,d / %,d / %,d%n", p.name(), c.delivered(), c.repeats(),
                    c.slow(), c.failed(), c.refused()));
        }
        b.append(String.format(Locale.ROOT, "%nevery SMS of the run: %,d queued, %,d delivered once, %,d lost, %,d unknown ids,"
                        + " %d bookings delivered twice, %,d repeated sends refused as duplicates, %,d given up%n",
                once.queued(), once.deliveredOnce(), once.lost(), once.unknown(), once.bookingsTwice(), once.repeats(),
                once.givenUp()));
        b.append("\ntargets:\n");
        for (TargetCheck t : targets()) {
            b.append(String.format(Locale.ROOT, "  %-72s %-12s %s  [%s]%n", t.target(), t.goal(), t.measured(),
                    t.met() == null ? "not measured" : t.met() ? "met" : "MISSED"));
        }
        if (!notes.isEmpty()) {
            b.append("\nnotes:\n");
            notes.forEach(n -> b.append("  - ").append(n).append('\n'));
        }
        return b.toString();
    }

    /** {@code results.json}: {@code command} and {@code targets} as the other scenarios write them. */
    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", command);
        m.put("setting", setting);
        List<Map<String, Object>> list = new ArrayList<>();
        for (SmsPhase p : phases) {
            Map<String, Object> phase = new LinkedHashMap<>();
            phase.put("phase", p.name());
            phase.put("stub", p.stub());
            phase.put("sale", p.sale());
            Map<String, Object> ratios = new LinkedHashMap<>();
            ratios.put("holdP99", ratio(p, SmsReport::holdP99));
            ratios.put("holdP50", ratio(p, s -> s.holds().p50()));
            ratios.put("checkoutP99", ratio(p, SmsReport::checkoutP99));
            ratios.put("checkoutP50", ratio(p, s -> s.checkouts().p50()));
            phase.put("vsPrompt", ratios);
            phase.put("messages", p.messages());
            phase.put("lostMessages", p.messages().missing());
            list.add(phase);
        }
        m.put("phases", list);
        m.put("exactlyOnce", once);
        m.put("targets", targets());
        m.put("notes", notes);
        return m;
    }

    private static String pair(Latency l) {
        return String.format(Locale.ROOT, "%.1f / %.1f", l.p50(), l.p99());
    }

    private static String times(Double r) {
        return r == null ? "-" : String.format(Locale.ROOT, "%.2fx", r);
    }

    private static String seconds(Double s) {
        return s == null ? "never" : String.format(Locale.ROOT, "%.1f s", s);
    }
}
