package org.boxoffice.bench.sms;

import org.boxoffice.bench.load.Latency;
import org.boxoffice.bench.report.TargetCheck;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SMS outage report's ratios, targets and text. */
class SmsReportTest {

    private static final SmsStub.Calls CALLS = new SmsStub.Calls(100, 3, 2, 40, 0);

    private static Latency p(double p50, double p99) {
        return new Latency(1_000, p50, p99, p99, p99, p99, p50);
    }

    private static SmsPhase phase(String name, double holdP99, double checkoutP99, Double lastDelivery) {
        return new SmsPhase(name, "stub " + name, new SmsPhase.Sale(p(holdP99 / 4, holdP99), p(checkoutP99 / 4, checkoutP99),
                900, 800, 12.5, true, 0),
                new SmsPhase.Messages(800, 100, 120, 14, 800, 0, lastDelivery == null ? 790 : 800, 900, lastDelivery,
                        lastDelivery, CALLS));
    }

    private static SmsReport report(SmsReport.Once once, SmsPhase... phases) {
        return new SmsReport("./boxoffice bench --sms-outage", "2,000 seats", List.of(phases), once, List.of());
    }

    private static final SmsReport.Once EXACT = new SmsReport.Once(2_400, 2_400, 0, 0, 37, 0);

    @Test
    void eachPhaseIsComparedWithThePromptOne() {
        SmsReport r = report(EXACT, phase("prompt", 20, 40, 2.0), phase("slow", 25, 30, 3.0), phase("failing", 40, 44, 31.0));
        assertEquals(1.0, r.ratio(r.phase("prompt"), SmsReport::holdP99));
        assertEquals(1.25, r.ratio(r.phase("slow"), SmsReport::holdP99));
        assertEquals(0.75, r.ratio(r.phase("slow"), SmsReport::checkoutP99));
        assertEquals(2.0, r.ratio(r.phase("failing"), SmsReport::holdP99));
        assertNull(r.ratio(r.phase("later"), SmsReport::holdP99), "no such phase");
    }

    @Test
    void p99IsKept_withinTheTolerance_andMissedBeyondIt_inEitherPhase() {
        SmsReport kept = report(EXACT, phase("prompt", 20, 40, 2.0), phase("slow", 29, 59, 3.0), phase("failing", 30, 60, 31.0));
        List<TargetCheck> t = kept.targets();
        assertEquals(Boolean.TRUE, t.get(0).met(), t.get(0).measured());
        assertEquals("1.45x / 1.50x (p99 20.0 / 29.0 / 30.0 ms)", t.get(0).measured());
        assertEquals(Boolean.TRUE, t.get(1).met());

        SmsReport missed = report(EXACT, phase("prompt", 20, 40, 2.0), phase("slow", 20, 40, 3.0), phase("failing", 20, 61, 31.0));
        assertEquals(Boolean.TRUE, missed.targets().get(0).met());
        assertEquals(Boolean.FALSE, missed.targets().get(1).met(), "the failing phase's checkouts waited");

        SmsReport unmeasured = report(EXACT, phase("prompt", 20, 40, 2.0));
        assertNull(unmeasured.targets().get(0).met());
    }

    @Test
    void aControlPhaseThatMovedBeyondTheTolerance_leavesNoVerdict() {
        SmsReport steady = report(EXACT, phase("prompt", 20, 40, 2.0), phase("slow", 22, 41, 3.0),
                phase("failing", 21, 42, 31.0), phase(SmsReport.CONTROL, 24, 44, 2.0));
        assertEquals(Boolean.TRUE, steady.targets().get(0).met());
        assertTrue(steady.targets().get(0).measured().endsWith("; prompt again 1.20x"), steady.targets().get(0).measured());

        SmsReport calmer = report(EXACT, phase("prompt", 200, 400, 2.0), phase("slow", 22, 41, 3.0),
                phase("failing", 21, 42, 31.0), phase(SmsReport.CONTROL, 20, 40, 2.0));
        assertNull(calmer.targets().get(0).met(), "the first phase was slow for reasons of its own: no verdict either way");
        SmsReport busier = report(EXACT, phase("prompt", 20, 40, 2.0), phase("slow", 60, 120, 3.0),
                phase("failing", 60, 120, 31.0), phase(SmsReport.CONTROL, 61, 121, 2.0));
        assertNull(busier.targets().get(1).met(), busier.targets().get(1).measured());
        assertTrue(busier.targets().get(1).measured().contains("no verdict"));
    }

    @Test
    void deliveryIsMet_onlyWhenEveryMessageCameOnce_andSaysWithinHowLong() {
        SmsPhase[] phases = {phase("prompt", 20, 40, 2.0), phase("slow", 20, 40, 3.5), phase("failing", 20, 40, 31.0)};
        TargetCheck once = report(EXACT, phases).targets().get(2);
        assertEquals(Boolean.TRUE, once.met());
        assertTrue(once.measured().contains("2,400 of 2,400 once") && once.measured().contains("within 31.0 s"), once.measured());

        assertFalse(report(new SmsReport.Once(2_400, 2_399, 0, 0, 0, 0), phases).targets().get(2).met(), "one lost");
        assertFalse(report(new SmsReport.Once(2_400, 2_400, 1, 0, 0, 0), phases).targets().get(2).met(), "an id the outbox never had");
        assertFalse(report(new SmsReport.Once(2_400, 2_400, 0, 1, 0, 0), phases).targets().get(2).met(), "a booking told twice");
        assertFalse(report(new SmsReport.Once(2_400, 2_400, 0, 0, 0, 1), phases).targets().get(2).met(), "one given up");
        assertTrue(report(new SmsReport.Once(2_400, 2_400, 0, 0, 500, 0), phases).targets().get(2).met(),
                "repeats refused as duplicates are the adapter doing its job");

        SmsPhase never = phase("failing", 20, 40, null);
        TargetCheck some = report(new SmsReport.Once(2_400, 2_390, 0, 0, 0, 0), phases[0], phases[1], never).targets().get(2);
        assertTrue(some.measured().contains("some never came"), some.measured());
    }

    @Test
    void theSummaryNamesEveryPhaseAndTarget() {
        String text = report(EXACT, phase("prompt", 20, 40, 2.0), phase("slow", 25, 30, 3.0), phase("failing", 40, 44, 31.0))
                .render();
        assertTrue(text.contains("slow") && text.contains("1.25x") && text.contains("0.75x"), text);
        assertTrue(text.contains("every SMS delivered exactly once after the provider recovers"), text);
        assertTrue(text.contains("31.0 s"), text);
    }
}
