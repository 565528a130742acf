package org.boxoffice.grid;

import org.boxoffice.domain.AdmissionStripe;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Stripe commands on plain values: what a claim on its own stripe and a claim across stripes take. */
class StripeCommandTest {

    private static final AdmissionStripe THREE_FREE = AdmissionStripe.fresh("s", "FLOOR", 0, 3);

    @Test
    void aTakeOfAllOrNothing_takesNothing_fromAStripeWithFewerFree() {
        AdmissionStripe.Taken taken = new StripeCommand.Take("h1", "ann", 4, 4, 4, 900, 10, 0).decide(THREE_FREE);

        assertNull(taken.next(), "unchanged: nothing for the referee to write");
        assertEquals(0, taken.quantity());
    }

    @Test
    void aTakeAcrossStripes_takesWhatTheStripeHas() {
        AdmissionStripe.Taken taken = new StripeCommand.Take("h1", "ann", 4, 4, 1, 900, 10, 0).decide(THREE_FREE);

        assertEquals(3, taken.quantity());
        assertEquals(0, taken.next().free(10, 0));
    }

    @Test
    void aTakeAskedAgainForAHoldWithAPartHere_answersThatPart_evenWithNothingFree() {
        AdmissionStripe held = new StripeCommand.Take("h1", "ann", 3, 3, 3, 900, 10, 0).decide(THREE_FREE).next();

        AdmissionStripe.Taken again = new StripeCommand.Take("h1", "ann", 3, 3, 3, 900, 10, 0).decide(held);

        assertNull(again.next());
        assertEquals(3, again.quantity());
    }

    @Test
    void aStripesCount_saysWhatIsFree_andWhenTheNextHoldStillCountedLapses() {
        AdmissionStripe stripe = THREE_FREE.take("h1", "ann", 1, 1, 900, 10, 0).next() // lapses at 905
                .take("h2", "bob", 1, 1, 500, 10, 0).next();                        // lapses at 505

        assertEquals(new StripeCount(1, 3, 2, 505), StripeCount.of(stripe, 100, 5));
        assertEquals(new StripeCount(2, 3, 2, 905), StripeCount.of(stripe, 505, 5), "h2 lapsed: free, and no longer next");
        assertEquals(new StripeCount(3, 3, 2, Long.MAX_VALUE), StripeCount.of(stripe, 905, 5));
        assertEquals(new StripeCount(1, 3, 2, 505), new StripeCountProcessor(100, 5).process(java.util.Map.entry(
                new StripeKey("s", "FLOOR", 0), stripe)));
    }

    @Test
    void aStripesEarliestExpiry_isReadWhereItLives_lapsedPartsIncluded() {
        AdmissionStripe stripe = THREE_FREE.take("h1", "ann", 1, 1, 900, 10, 0).next()
                .take("h2", "bob", 1, 1, 500, 10, 0).next();
        StripeKey key = new StripeKey("s", "FLOOR", 0);

        assertEquals(500L, new StripeExpiryProcessor().process(java.util.Map.entry(key, stripe)));
        assertEquals(Long.MAX_VALUE, new StripeExpiryProcessor().process(java.util.Map.entry(key, THREE_FREE)));
        assertNull(new StripeExpiryProcessor().process(new java.util.AbstractMap.SimpleEntry<>(key, null)));
    }

    @Test
    void takesQueuedOnAStripe_areDecidedInOrder_onWhatTheOnesBeforeLeft_andStoredAsOneChange() {
        java.util.Map.Entry<StripeKey, AdmissionStripe> entry = new java.util.AbstractMap.SimpleEntry<>(
                new StripeKey("s", "FLOOR", 0), THREE_FREE);

        java.util.List<Integer> taken = new StripeTakesProcessor(java.util.List.of(
                new StripeCommand.Take("h1", "ann", 2, 2, 2, 900, 10, 0),
                new StripeCommand.Take("h2", "bob", 2, 2, 2, 900, 11, 0),   // one left: all or nothing, so nothing
                new StripeCommand.Take("h3", "cy", 1, 1, 1, 900, 12, 0))).process(entry);

        assertEquals(java.util.List.of(2, 0, 1), taken);
        AdmissionStripe after = entry.getValue();
        assertEquals(1, after.version(), "one change, one version");
        assertEquals(3, after.change().taken());
        assertEquals(java.util.List.of("h1", "h3"), after.parts().stream().map(AdmissionStripe.Part::holdId).toList());
        assertEquals("h1", after.change().holdId());
        assertEquals(java.util.List.of("h3"), after.change().more().stream().map(AdmissionStripe.Take::holdId).toList());
    }

    @Test
    void takesThatAllFindTooFew_leaveTheStripeAsItWas() {
        java.util.Map.Entry<StripeKey, AdmissionStripe> entry = new java.util.AbstractMap.SimpleEntry<>(
                new StripeKey("s", "FLOOR", 0), THREE_FREE);

        java.util.List<Integer> taken = new StripeTakesProcessor(java.util.List.of(
                new StripeCommand.Take("h1", "ann", 4, 4, 4, 900, 10, 0),
                new StripeCommand.Take("h2", "bob", 5, 5, 5, 900, 11, 0))).process(entry);

        assertEquals(java.util.List.of(0, 0), taken);
        org.junit.jupiter.api.Assertions.assertSame(THREE_FREE, entry.getValue());
    }
}
