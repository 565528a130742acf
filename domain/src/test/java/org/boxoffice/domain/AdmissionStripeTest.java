package org.boxoffice.domain;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class AdmissionStripeTest {

    private static final long GRACE = 5;

    @Test
    void take_givesWhatTheStripeHas_atMostWhatIsWanted() {
        AdmissionStripe s = AdmissionStripe.fresh("s", "FLOOR", 0, 3);

        AdmissionStripe.Taken two = s.take("h1", "a", 2, 2, 100, 0, GRACE);
        AdmissionStripe.Taken rest = two.next().take("h2", "b", 5, 5, 100, 0, GRACE);
        AdmissionStripe.Taken none = rest.next().take("h3", "c", 1, 1, 100, 0, GRACE);

        assertEquals(2, two.quantity());
        assertEquals(1, rest.quantity());
        assertEquals(new AdmissionStripe.Change(AdmissionStripe.Kind.TAKE, "h2", "b", 1, 5, 100, 0, List.of()),
                rest.next().change());
        assertEquals(0, none.quantity());
        assertNull(none.next());
        assertEquals(2, rest.next().version());
    }

    @Test
    void aRetriedTake_takesNothingMore_andAnswersThePartItHas() {
        AdmissionStripe s = AdmissionStripe.fresh("s", "FLOOR", 0, 5).take("h1", "a", 2, 2, 100, 0, GRACE).next();

        AdmissionStripe.Taken again = s.take("h1", "a", 2, 2, 100, 0, GRACE);

        assertNull(again.next());
        assertEquals(2, again.quantity());
    }

    @Test
    void aLapsedPart_isFreeAtOnce_andEndedByTheNextTake() {
        AdmissionStripe s = AdmissionStripe.fresh("s", "FLOOR", 0, 2).take("h1", "a", 2, 2, 100, 0, GRACE).next();

        assertEquals(0, s.free(99 + GRACE, GRACE));
        assertEquals(2, s.free(100 + GRACE, GRACE));
        AdmissionStripe next = s.take("h2", "b", 2, 2, 500, 200, GRACE).next();

        assertEquals(List.of("h1"), next.change().ended());
        assertEquals(2, next.taken());
        assertEquals(List.of("h1"), s.expire(200, GRACE).change().ended());
        assertNull(s.expire(99 + GRACE, GRACE));
    }

    @Test
    void release_givesBackOnlyThatHoldsPart() {
        AdmissionStripe s = AdmissionStripe.fresh("s", "FLOOR", 0, 5).take("h1", "a", 2, 2, 100, 0, GRACE).next()
                .take("h2", "b", 1, 1, 100, 0, GRACE).next();

        AdmissionStripe released = s.release("h1", 10);

        assertEquals(1, released.taken());
        assertEquals(List.of("h1"), released.change().ended());
        assertNull(released.release("h1", 11));
    }

    @Test
    void confirm_sellsTheHoldsPart_andRefusesALapsedOrAbsentOne() {
        AdmissionStripe s = AdmissionStripe.fresh("s", "FLOOR", 0, 5).take("h1", "a", 2, 2, 100, 0, GRACE).next()
                .take("h2", "b", 1, 1, 100, 0, GRACE).next();

        AdmissionStripe sold = s.confirm("h1", 50, GRACE);

        assertEquals(2, sold.sold());
        assertEquals(3, sold.taken(), "a sale still counts against the capacity");
        assertEquals(2, sold.free(50, GRACE));
        assertEquals(AdmissionStripe.Kind.CONFIRM, sold.change().kind());
        assertEquals(2, sold.change().quantity());
        assertNull(sold.confirm("h1", 50, GRACE), "sold already: nothing left to confirm here");
        assertNull(s.confirm("h3", 50, GRACE));
        assertNull(s.confirm("h2", 100 + GRACE, GRACE), "lapsed: too late to sell");
    }

    @Test
    void extend_movesThePartsExpiryForward_neverBack_andNotForALapsedPart() {
        AdmissionStripe s = AdmissionStripe.fresh("s", "FLOOR", 0, 5).take("h1", "a", 2, 2, 100, 0, GRACE).next();

        AdmissionStripe longer = s.extend("h1", 400, 50, GRACE);

        assertEquals(400, longer.parts().get(0).expiresAt());
        assertEquals(AdmissionStripe.Kind.EXTEND, longer.change().kind());
        assertEquals(400, longer.change().expiresAt());
        assertEquals(400, longer.extend("h1", 200, 60, GRACE).parts().get(0).expiresAt());
        assertNull(s.extend("h1", 400, 100 + GRACE, GRACE));
        assertNull(s.extend("h9", 400, 50, GRACE));
    }

    @Test
    void giveBack_returnsSoldAdmissionsToSale_neverMoreThanAreSold() {
        AdmissionStripe sold = AdmissionStripe.fresh("s", "FLOOR", 0, 5).take("h1", "a", 3, 3, 100, 0, GRACE).next()
                .confirm("h1", 10, GRACE);

        AdmissionStripe back = sold.giveBack("h1", 3, 20);

        assertEquals(0, back.sold());
        assertEquals(5, back.free(20, GRACE));
        assertEquals(new AdmissionStripe.Change(AdmissionStripe.Kind.RETURN, "h1", null, 3, 0, 0, 20, List.of()),
                back.change());
        assertNull(sold.giveBack("h1", 4, 20));
        assertNull(sold.giveBack("h1", 0, 20));
    }

    @Test
    void takesDecidedOneAfterAnother_combineIntoOneChange_atTheFirstsVersion_withEveryPart() {
        AdmissionStripe s = AdmissionStripe.fresh("s", "FLOOR", 0, 5).take("h0", "z", 1, 1, 100, 0, GRACE).next();
        AdmissionStripe first = s.take("h1", "a", 2, 3, 900, 200, GRACE).next();   // ends h0's lapsed part
        AdmissionStripe second = first.take("h2", "b", 1, 1, 950, 210, GRACE).next();

        AdmissionStripe both = first.combinedWith(second);

        assertEquals(s.version() + 1, both.version());
        assertEquals(second.parts(), both.parts());
        assertEquals(new AdmissionStripe.Change(AdmissionStripe.Kind.TAKE, "h1", "a", 2, 3, 900, 200, List.of("h0"),
                List.of(new AdmissionStripe.Take("h2", "b", 1, 1, 950, 210))), both.change());
        assertEquals(3, both.change().taken());
        AdmissionStripe third = both.take("h3", "c", 1, 1, 990, 220, GRACE).next();
        assertEquals(List.of("h2", "h3"), both.combinedWith(third).change().more().stream()
                .map(AdmissionStripe.Take::holdId).toList(), "a third take joins the same change, in order");
    }

    @Test
    void onlyATakeDecidedOnATakesValue_combinesWithIt() {
        AdmissionStripe first = AdmissionStripe.fresh("s", "FLOOR", 0, 5).take("h1", "a", 2, 2, 900, 0, GRACE).next();
        AdmissionStripe released = first.release("h1", 10);
        AdmissionStripe skipped = first.take("h2", "b", 1, 1, 900, 0, GRACE).next().take("h3", "c", 1, 1, 900, 0, GRACE).next();

        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> first.combinedWith(released));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> first.combinedWith(skipped));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> released.combinedWith(first));
    }
}
