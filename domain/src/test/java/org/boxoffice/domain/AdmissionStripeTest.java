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
}
