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
}
