package org.boxoffice.app.catalog;

import org.boxoffice.app.http.HttpCaching;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** When an encoded answer is reused and when it is rebuilt, on a clock the test moves. */
class CatalogAnswersTest {

    private final AtomicLong version = new AtomicLong();
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final AtomicInteger built = new AtomicInteger();
    private final CatalogAnswers answers = new CatalogAnswers(version::get, now::get);

    private CatalogAnswers.Built build(long validUntil) {
        return new CatalogAnswers.Built(HttpCaching.Encoded.json("{\"n\":" + built.incrementAndGet() + "}"), validUntil);
    }

    @Test
    void aCurrentAnswer_isServedWithoutBuilding() {
        HttpCaching.Encoded first = answers.get("k", null, () -> build(Long.MAX_VALUE)).encoded();
        for (int i = 0; i < 100; i++) {
            now.addAndGet(100);
            assertSame(first, answers.get("k", null, () -> build(Long.MAX_VALUE)).encoded());
        }
        assertEquals(1, built.get());
        assertEquals(1, answers.builds());
    }

    @Test
    void aCatalogChange_rebuildsEveryAnswer() {
        answers.get("a", null, () -> build(Long.MAX_VALUE));
        answers.get("b", null, () -> build(Long.MAX_VALUE));
        version.incrementAndGet();
        answers.get("a", null, () -> build(Long.MAX_VALUE));
        answers.get("b", null, () -> build(Long.MAX_VALUE));
        assertEquals(4, built.get());
    }

    @Test
    void aNewBasis_rebuilds_theSameBasisDoesNot() {
        Object snapshot = new Object();
        answers.get("show", snapshot, () -> build(Long.MAX_VALUE));
        answers.get("show", snapshot, () -> build(Long.MAX_VALUE));
        assertEquals(1, built.get());
        answers.get("show", new Object(), () -> build(Long.MAX_VALUE));
        assertEquals(2, built.get());
    }

    @Test
    void anAnswer_expiresWhenItsContentDoes_andTellsHowLongItHasLeft() {
        long opens = now.get() + 10_500;
        CatalogAnswers.Answer a = answers.get("k", null, () -> build(opens));
        assertEquals(10, a.secondsLeft());
        now.set(opens - 1);
        assertEquals(1, built.get());
        now.set(opens);
        answers.get("k", null, () -> build(Long.MAX_VALUE));
        assertEquals(2, built.get(), "rebuilt once the sale opened");
        assertEquals(Long.MAX_VALUE, answers.get("k", null, () -> build(Long.MAX_VALUE)).secondsLeft());
    }

    @Test
    void anAnswer_isRebuiltAfterItsMaximumAge_inCaseAChangeEventWasLost() {
        answers.get("k", null, () -> build(Long.MAX_VALUE));
        now.addAndGet(CatalogAnswers.MAX_AGE_MILLIS - 1);
        answers.get("k", null, () -> build(Long.MAX_VALUE));
        assertEquals(1, built.get());
        now.addAndGet(1);
        answers.get("k", null, () -> build(Long.MAX_VALUE));
        assertEquals(2, built.get());
    }
}
