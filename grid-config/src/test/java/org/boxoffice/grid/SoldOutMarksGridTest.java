package org.boxoffice.grid;

import com.hazelcast.core.HazelcastInstance;
import org.boxoffice.domain.AdmissionArea;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sold-out marks on two real members: what a mark says, for how long, and that a count taken
 * before a give-back never lands after it. (The give-backs that end marks: {@code AdmissionsGridTest}.)
 */
class SoldOutMarksGridTest {

    private static final long NOW = 1_000_000;
    private static List<HazelcastInstance> members;

    @BeforeAll
    static void start() {
        members = TestGrid.start(2, new InMemoryInventoryRepository());
    }

    @AfterAll
    static void stop() {
        members.forEach(m -> m.getLifecycleService().terminate());
    }

    private static AdmissionArea area(String show) {
        return new AdmissionArea(show, "FLOOR", 100, 4_500, 4);
    }

    @Test
    void aMark_saysFewerThanAsked_onEveryMember_untilTheFirstLapseItCounted() {
        AdmissionArea area = area("marks-1");
        SoldOutMarks here = new SoldOutMarks(members.get(0));
        SoldOutMarks there = new SoldOutMarks(members.get(1));

        here.mark(area, here.read(area), 2, NOW + 300, NOW);

        SoldOutMark mark = there.read(area);
        assertTrue(mark.fewerThan(3, NOW));
        assertFalse(mark.fewerThan(2, NOW), "2 are left");
        assertTrue(mark.fewerThan(3, NOW + 299));
        assertFalse(mark.fewerThan(3, NOW + 300), "a hold it counted lapses: its admissions are free");
    }

    @Test
    void aMark_isBelievedNoLongerThanItsTrustTime_evenIfNothingLapses() {
        AdmissionArea area = area("marks-2");
        SoldOutMarks marks = new SoldOutMarks(members.get(0));

        marks.mark(area, marks.read(area), 0, Long.MAX_VALUE, NOW);

        assertTrue(marks.read(area).fewerThan(1, NOW + SoldOutMarks.TRUST_MILLIS - 1));
        assertFalse(marks.read(area).fewerThan(1, NOW + SoldOutMarks.TRUST_MILLIS));
    }

    @Test
    void aCountTakenBeforeAGiveBack_isNotWrittenAfterIt() {
        AdmissionArea fresh = area("marks-3");
        AdmissionArea marked = area("marks-4");
        SoldOutMarks here = new SoldOutMarks(members.get(0));
        SoldOutMarks there = new SoldOutMarks(members.get(1));
        here.mark(marked, here.read(marked), 0, Long.MAX_VALUE, NOW);
        for (AdmissionArea area : List.of(fresh, marked)) {
            SoldOutMark seen = here.read(area); // a claim reads the mark, then counts ...

            there.clear(area);                  // ... while a give-back ends the mark ...
            here.mark(area, seen, 0, Long.MAX_VALUE, NOW); // ... and writes its count after it

            assertFalse(there.read(area).fewerThan(1, NOW), area.showId() + ": " + there.read(area));
        }
    }

    @Test
    void aGiveBack_endsTheMark_andTheNextCountMarksAgain() {
        AdmissionArea area = area("marks-5");
        SoldOutMarks marks = new SoldOutMarks(members.get(0));
        marks.mark(area, marks.read(area), 0, Long.MAX_VALUE, NOW);

        marks.clear(area);
        assertFalse(marks.read(area).fewerThan(1, NOW));
        marks.mark(area, marks.read(area), 1, Long.MAX_VALUE, NOW);

        assertEquals(1, marks.read(area).left());
        assertTrue(marks.read(area).fewerThan(2, NOW));
    }
}
