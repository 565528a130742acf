package org.boxoffice.domain;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SeatBlockTest {

    private static final long NOW = 1_000_000L;
    private static final long GRACE = 5_000L;
    private static final String[] IDS = {"A-1-1", "A-1-2"};

    private final SeatBlock fresh = SeatBlock.fresh("show-1", 0, 10);

    private static SeatBlock changed(BlockDecision d) {
        return assertInstanceOf(BlockDecision.Changed.class, d).next();
    }

    private SeatBlock heldBy(String holdId, int... seats) {
        return changed(fresh.hold(holdId, "alice", seats, NOW + 60_000, NOW, GRACE, IDS));
    }

    @Test
    void hold_movesEverySeatToHeld_andRecordsTheTransition() {
        SeatBlock next = heldBy("h1", 3, 1);

        assertEquals(SeatState.Status.HELD, next.status(1));
        assertEquals(SeatState.Status.HELD, next.status(3));
        assertEquals(new SeatState.Held("h1", "alice", NOW + 60_000), next.state(1));
        assertEquals(1, next.version(1));
        assertEquals(0, next.version(2));
        Transition t = next.transition();
        assertEquals(Transition.Kind.HOLD, t.kind());
        assertArrayEquals(new int[] {1, 3}, t.seats());
        assertArrayEquals(new int[] {0, 0}, t.expectedVersions());
        assertEquals(SeatState.Status.HELD, t.newStatus());
        assertEquals(2, next.revision());
    }

    @Test
    void nextLapseAfter_isTheNextHoldDeadline_andEffectiveStatusChangesExactlyThere() {
        assertEquals(Long.MAX_VALUE, fresh.nextLapseAfter(NOW, GRACE), "no holds, nothing lapses");
        SeatBlock one = heldBy("h1", 1);
        SeatBlock two = changed(one.hold("h2", "bob", new int[] {4}, NOW + 30_000, NOW, GRACE, IDS));
        long first = NOW + 30_000 + GRACE;
        long second = NOW + 60_000 + GRACE;

        assertEquals(first, two.nextLapseAfter(NOW, GRACE));
        assertEquals(SeatState.Status.HELD, two.effectiveStatus(4, first - 1, GRACE));
        assertEquals(SeatState.Status.AVAILABLE, two.effectiveStatus(4, first, GRACE));
        // from the first deadline on, the next one is the other hold's
        assertEquals(second, two.nextLapseAfter(first, GRACE));
        assertEquals(SeatState.Status.HELD, two.effectiveStatus(1, second - 1, GRACE));
        assertEquals(SeatState.Status.AVAILABLE, two.effectiveStatus(1, second, GRACE));
        assertEquals(Long.MAX_VALUE, two.nextLapseAfter(second, GRACE), "every hold has lapsed");
    }

    @Test
    void hold_neverChangesTheBlockItWasAskedOn() {
        SeatBlock next = heldBy("h1", 1);

        assertNotSame(fresh, next);
        assertEquals(SeatState.Status.AVAILABLE, fresh.status(1));
        assertEquals(0, fresh.version(1));
        assertNull(fresh.transition());
    }

    @Test
    void hold_isRejected_whenAnySeatIsHeld_andNothingChanges() {
        SeatBlock held = heldBy("h1", 2);

        BlockDecision d = held.hold("h2", "bob", new int[] {1, 2, 3}, NOW + 60_000, NOW, GRACE, IDS);

        BlockDecision.Rejected r = assertInstanceOf(BlockDecision.Rejected.class, d);
        assertEquals(Rejection.SEATS_UNAVAILABLE, r.reason());
        assertArrayEquals(new int[] {2}, r.seats());
        assertEquals(SeatState.Status.AVAILABLE, held.status(1));
    }

    @Test
    void hold_isRejected_whenSeatIsSoldOrBlocked() {
        SeatBlock sold = changed(heldBy("h1", 1).confirm("h1", new int[] {1}, 77L, NOW, GRACE));
        SeatBlock blocked = changed(fresh.block(new int[] {4}, NOW, "admin", "broken"));

        assertInstanceOf(BlockDecision.Rejected.class, sold.hold("h2", "bob", new int[] {1}, NOW + 1, NOW, GRACE, IDS));
        assertInstanceOf(BlockDecision.Rejected.class, blocked.hold("h2", "bob", new int[] {4}, NOW + 1, NOW, GRACE, IDS));
    }

    @Test
    void hold_takesOverALapsedHold_onlyAfterTheGrace() {
        SeatBlock held = heldBy("h1", 1);
        long expiry = NOW + 60_000;

        assertInstanceOf(BlockDecision.Rejected.class,
                held.hold("h2", "bob", new int[] {1}, expiry + 99_000, expiry + GRACE - 1, GRACE, IDS));
        SeatBlock taken = changed(held.hold("h2", "bob", new int[] {1}, expiry + 99_000, expiry + GRACE, GRACE, IDS));

        assertEquals(new SeatState.Held("h2", "bob", expiry + 99_000), taken.state(1));
        assertEquals(java.util.Set.of("h1"), taken.transition().endedHoldIds());
        assertEquals(1, taken.holds().size(), "the lapsed hold's slot is dropped");
    }

    @Test
    void hold_isUnchanged_whenTheSameHoldAlreadyHoldsTheSeats() {
        SeatBlock held = heldBy("h1", 1, 2);

        assertInstanceOf(BlockDecision.Unchanged.class,
                held.hold("h1", "alice", new int[] {2, 1}, NOW + 60_000, NOW, GRACE, IDS));
    }

    @Test
    void hold_rejectsUnknownOrDuplicateSeats() {
        assertEquals(Rejection.UNKNOWN_SEAT, assertInstanceOf(BlockDecision.Rejected.class,
                fresh.hold("h", "a", new int[] {10}, NOW, NOW, GRACE, IDS)).reason());
        assertEquals(Rejection.UNKNOWN_SEAT, assertInstanceOf(BlockDecision.Rejected.class,
                fresh.hold("h", "a", new int[] {1, 1}, NOW, NOW, GRACE, IDS)).reason());
        assertEquals(Rejection.UNKNOWN_SEAT, assertInstanceOf(BlockDecision.Rejected.class,
                fresh.hold("h", "a", new int[] {-1}, NOW, NOW, GRACE, IDS)).reason());
    }

    @Test
    void release_returnsOnlyThatHoldsSeats() {
        SeatBlock two = changed(heldBy("h1", 1).hold("h2", "bob", new int[] {2}, NOW + 60_000, NOW, GRACE, IDS));

        SeatBlock released = changed(two.release("h1", NOW, "alice", "released"));

        assertEquals(SeatState.Status.AVAILABLE, released.status(1));
        assertEquals(SeatState.Status.HELD, released.status(2));
        assertEquals("h2", ((SeatState.Held) released.state(2)).holdId());
        assertEquals(java.util.Set.of("h1"), released.transition().endedHoldIds());
        assertInstanceOf(BlockDecision.Unchanged.class, released.release("h1", NOW, "alice", "again"));
    }

    @Test
    void expire_returnsOnlyLapsedHolds() {
        SeatBlock a = heldBy("h1", 1);
        SeatBlock b = changed(a.hold("h2", "bob", new int[] {2}, NOW + 120_000, NOW, GRACE, IDS));
        long t = NOW + 60_000 + GRACE;

        SeatBlock swept = changed(b.expire(t, GRACE));

        assertEquals(SeatState.Status.AVAILABLE, swept.status(1));
        assertEquals(SeatState.Status.HELD, swept.status(2));
        assertEquals(Transition.Kind.EXPIRE, swept.transition().kind());
        assertInstanceOf(BlockDecision.Unchanged.class, swept.expire(t, GRACE));
        assertInstanceOf(BlockDecision.Unchanged.class, b.expire(t - 1, GRACE));
    }

    @Test
    void effectiveStatus_showsALapsedHoldAsAvailable() {
        SeatBlock held = heldBy("h1", 1);
        long expiry = NOW + 60_000;

        assertEquals(SeatState.Status.HELD, held.effectiveStatus(1, expiry + GRACE - 1, GRACE));
        assertEquals(SeatState.Status.AVAILABLE, held.effectiveStatus(1, expiry + GRACE, GRACE));
        assertEquals(expiry, held.nextExpiry());
    }

    @Test
    void confirm_sellsOnlyTheMatchingUnexpiredHold() {
        SeatBlock held = heldBy("h1", 1, 2);
        long expiry = NOW + 60_000;

        assertEquals(Rejection.HOLD_NOT_FOUND, assertInstanceOf(BlockDecision.Rejected.class,
                held.confirm("other", new int[] {1, 2}, 9, NOW, GRACE)).reason());
        assertEquals(Rejection.HOLD_NOT_FOUND, assertInstanceOf(BlockDecision.Rejected.class,
                held.confirm("h1", new int[] {1}, 9, NOW, GRACE)).reason());
        assertEquals(Rejection.HOLD_EXPIRED, assertInstanceOf(BlockDecision.Rejected.class,
                held.confirm("h1", new int[] {1, 2}, 9, expiry + GRACE, GRACE)).reason());

        SeatBlock sold = changed(held.confirm("h1", new int[] {1, 2}, 9, NOW, GRACE));
        assertEquals(new SeatState.Sold(9), sold.state(1));
        assertTrue(sold.holds().isEmpty());
        assertInstanceOf(BlockDecision.Unchanged.class, sold.confirm("h1", new int[] {1, 2}, 9, NOW, GRACE));
    }

    @Test
    void extend_movesTheExpiry_onlyWhileTheHoldIsActive() {
        SeatBlock held = heldBy("h1", 1);
        long expiry = NOW + 60_000;

        SeatBlock extended = changed(held.extend("h1", expiry + 300_000, NOW, GRACE));
        assertEquals(expiry + 300_000, ((SeatState.Held) extended.state(1)).expiresAt());
        assertEquals(Transition.Kind.EXTEND, extended.transition().kind());
        assertTrue(extended.transition().endedHoldIds().isEmpty());
        assertEquals(Rejection.HOLD_EXPIRED, assertInstanceOf(BlockDecision.Rejected.class,
                held.extend("h1", expiry + 300_000, expiry + GRACE, GRACE)).reason());
        assertInstanceOf(BlockDecision.Unchanged.class, extended.extend("h1", expiry, NOW, GRACE));
    }

    @Test
    void cancel_returnsSoldSeatsToSale() {
        SeatBlock sold = changed(heldBy("h1", 1).confirm("h1", new int[] {1}, 9, NOW, GRACE));

        SeatBlock cancelled = changed(sold.cancel(9, NOW, "alice", "cancelled"));

        assertEquals(SeatState.Status.AVAILABLE, cancelled.status(1));
        assertEquals(3, cancelled.version(1));
        assertInstanceOf(BlockDecision.Unchanged.class, cancelled.cancel(9, NOW, "alice", "again"));
    }

    @Test
    void block_refusesSoldSeats_andUnblockRestoresThem() {
        SeatBlock sold = changed(heldBy("h1", 1).confirm("h1", new int[] {1}, 9, NOW, GRACE));

        assertEquals(Rejection.NOT_ALLOWED, assertInstanceOf(BlockDecision.Rejected.class,
                sold.block(new int[] {1, 2}, NOW, "admin", "x")).reason());
        SeatBlock blocked = changed(sold.block(new int[] {2, 3}, NOW, "admin", "camera"));
        assertEquals(SeatState.Status.BLOCKED, blocked.status(2));
        SeatBlock open = changed(blocked.unblock(new int[] {2, 3, 4}, NOW, "admin", "fixed"));
        assertArrayEquals(new int[] {2, 3}, open.transition().seats());
        assertEquals(SeatState.Status.AVAILABLE, open.status(3));
    }

    @Test
    void restore_rebuildsStatesVersionsAndHolds() {
        SeatState[] seats = {
            new SeatState.Available(), new SeatState.Held("h1", "alice", NOW), new SeatState.Sold(5),
            new SeatState.Blocked(), new SeatState.Held("h1", "alice", NOW)
        };
        SeatBlock b = SeatBlock.restore("s", 3, seats, new int[] {0, 2, 4, 1, 2});

        for (int i = 0; i < seats.length; i++) {
            assertEquals(seats[i], b.state(i));
        }
        assertEquals(1, b.holds().size());
        assertEquals(9, b.revision());
        assertArrayEquals(new int[] {1, 4}, b.seatsOf("h1"));
        assertNull(b.transition());
    }

    @Test
    void sameInputs_giveTheSameBlock_soBackupsAgree() {
        SeatBlock a = heldBy("h1", 1, 2);
        SeatBlock b = heldBy("h1", 1, 2);

        assertArrayEquals(a.statusBytes(), b.statusBytes());
        assertArrayEquals(a.versionArray(), b.versionArray());
        assertArrayEquals(a.refArray(), b.refArray());
        assertEquals(a.holds(), b.holds());
        assertEquals(a.transition(), b.transition());
        assertSame(a.transition().getClass(), b.transition().getClass());
    }
}
