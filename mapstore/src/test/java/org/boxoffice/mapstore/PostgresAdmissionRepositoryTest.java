package org.boxoffice.mapstore;

import static org.boxoffice.mapstore.TestShows.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.AdmissionRepository;
import org.boxoffice.domain.AdmissionStripe;
import org.boxoffice.domain.HoldRecord;
import org.boxoffice.domain.HoldPolicy;
import org.boxoffice.domain.HoldStatus;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.StaleInventoryException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The referee of general admission: its rows refuse any admission beyond capacity, whatever asks. */
class PostgresAdmissionRepositoryTest {

    private static final long EXPIRES = T0 + 600_000;
    private static final AtomicInteger SHOWS = new AtomicInteger();

    private static HikariDataSource db;
    private static PostgresCatalogRepository catalog;
    private static PostgresAdmissionRepository admissions;
    private static PostgresInventoryRepository inventory;

    @BeforeAll
    static void database() {
        db = TestDatabase.newDataSource(4);
        catalog = new PostgresCatalogRepository(db);
        admissions = new PostgresAdmissionRepository(db);
        inventory = new PostgresInventoryRepository(db);
    }

    @AfterAll
    static void close() {
        admissions.close();
        inventory.close();
        db.close();
    }

    private static AdmissionArea newArea(int capacity, int stripes) {
        Show show = TestShows.save(catalog, TestShows.small("ga-" + SHOWS.incrementAndGet()));
        AdmissionArea area = new AdmissionArea(show.showId(), "FLOOR", capacity, 4_500, stripes);
        assertTrue(admissions.createArea(area, T0));
        return area;
    }

    private static AdmissionStripe stripe(AdmissionArea area, int s) {
        return admissions.loadStripe(area.showId(), area.name(), s).orElseThrow();
    }

    private static AdmissionStripe take(AdmissionArea area, int s, String holdId, int n) {
        AdmissionStripe.Taken taken = stripe(area, s).take(holdId, "acc-" + holdId, n, n, EXPIRES, T0, 0);
        admissions.apply(taken.next());
        return taken.next();
    }

    /** Applies a take of {@code n} on stripe {@code s} for a hold of {@code holdQuantity} in all, expiring at {@code expires}. */
    private static AdmissionStripe take(AdmissionArea area, int s, String holdId, int n, int holdQuantity, long expires) {
        AdmissionStripe.Taken taken = stripe(area, s).take(holdId, "acc-" + holdId, n, holdQuantity, expires, T0, 0);
        admissions.apply(taken.next());
        return taken.next();
    }

    @Test
    void remaining_countsWhatUnsettledClaimsKeepAsLeft_andWholeHoldsAsTaken() {
        AdmissionArea area = newArea(12, 3); // 4 per stripe
        String id = area.showId();
        take(area, 0, "whole-" + id, 2, 2, EXPIRES);                 // a hold of 2, all on one stripe: taken
        take(area, 0, "across-" + id, 2, 3, EXPIRES);                // a hold of 3 across stripes, whole: taken
        take(area, 1, "across-" + id, 1, 3, EXPIRES);
        take(area, 1, "taking-" + id, 3, 4, EXPIRES);                // a hold of 4 with only 3 so far: in flight
        take(area, 2, "lapsed-" + id, 1, 1, T0 + 1_000);             // lapsed by the time counted: free
        take(area, 2, "short-" + id, 1, 2, EXPIRES);                 // a hold of 2 with 1 so far: in flight

        AdmissionRepository.Remaining before = admissions.remaining(id, "FLOOR", T0 + 2_000, 0);
        admissions.apply(stripe(area, 1).release("across-" + id, T0 + 1)); // released on one of its two stripes so far

        AdmissionRepository.Remaining after = admissions.remaining(id, "FLOOR", T0 + 2_000, 0);

        // free: 2 unclaimed (stripe 2) and 1 lapsed; in flight: 3 (taking) and 1 (short)
        assertEquals(3, before.free());
        assertEquals(4, before.inFlight());
        assertEquals(7, before.left());
        assertEquals(List.of(2L, 2L, 2L), before.versions());
        // the released hold's part on stripe 1 is free, its part still kept on stripe 0 is on its way back
        assertEquals(4, after.free());
        assertEquals(6, after.inFlight());
        assertEquals(List.of(2L, 3L, 2L), after.versions());
    }

    @Test
    void remaining_countsAPartAsLapsedExactlyWhenHoldPolicySays_theGridsCopyAgreeing() {
        AdmissionArea area = newArea(10, 1);
        long now = T0 + 100_000;
        long grace = 5_000;
        long boundary = now - grace; // HoldPolicy: lapsed from expiry + grace on, that moment included
        // distinct quantities, so the count says which parts it took as lapsed
        take(area, 0, "before-" + area.showId(), 1, 1, boundary - 1);
        take(area, 0, "at-" + area.showId(), 2, 2, boundary);
        take(area, 0, "after-" + area.showId(), 4, 4, boundary + 1);
        int expected = 10 - 7;
        for (AdmissionStripe.Part p : stripe(area, 0).parts()) {
            if (HoldPolicy.lapsed(p.expiresAt(), grace, now)) {
                expected += p.quantity();
            }
        }

        AdmissionRepository.Remaining counted = admissions.remaining(area.showId(), "FLOOR", now, grace);

        assertEquals(6, expected); // 3 unclaimed, the parts expiring before and at the boundary
        assertEquals(expected, counted.free());
        assertEquals(expected, stripe(area, 0).free(now, grace));
        // a millisecond earlier only the part expiring before the boundary has lapsed
        assertEquals(4, admissions.remaining(area.showId(), "FLOOR", now - 1, grace).free());
        assertEquals(4, stripe(area, 0).free(now - 1, grace));
    }

    @Test
    void createArea_splitsTheCapacityEvenlyOverItsStripes_andRefusesASecondAreaOfThatName() {
        AdmissionArea area = newArea(10, 3);

        assertEquals(List.of(4, 3, 3), List.of(stripe(area, 0).capacity(), stripe(area, 1).capacity(), stripe(area, 2).capacity()));
        assertEquals(List.of(area), admissions.areas(area.showId()));
        assertFalse(admissions.createArea(new AdmissionArea(area.showId(), "FLOOR", 5, 100, 1), T0));
    }

    @Test
    void apply_take_recordsTheHoldWithItsAreaAndQuantity_andCountsItInTheStripe() {
        AdmissionArea area = newArea(10, 2);

        take(area, 0, "H-" + area.showId(), 3);

        AdmissionStripe loaded = stripe(area, 0);
        assertEquals(3, loaded.taken());
        assertEquals(1, loaded.version());
        assertEquals(List.of(new AdmissionStripe.Part("H-" + area.showId(), "acc-H-" + area.showId(), 3, EXPIRES)), loaded.parts());
        HoldRecord hold = inventory.findHold("H-" + area.showId()).orElseThrow();
        assertEquals("FLOOR", hold.area());
        assertEquals(3, hold.quantity());
        assertEquals(List.of(), hold.seatIds());
        assertEquals(13_500, hold.totalCents());
        assertEquals(HoldStatus.ACTIVE, hold.status());
        assertEquals(3, admissions.taken(area.showId(), "FLOOR"));
    }

    @Test
    void apply_refusesATakeBeyondTheStripesCapacity_evenWhenTheGridsCopyClaimsRoomForIt() {
        AdmissionArea area = newArea(4, 2); // 2 per stripe
        AdmissionStripe lying = new AdmissionStripe(area.showId(), "FLOOR", 0, 1_000, 0, List.of(), 0, null);

        AdmissionStripe.Taken taken = lying.take("H-big-" + area.showId(), "acc-1", 3, 3, EXPIRES, T0, 0);

        assertEquals(3, taken.quantity());
        assertThrows(StaleInventoryException.class, () -> admissions.apply(taken.next()));
        assertEquals(0, admissions.taken(area.showId(), "FLOOR"));
        assertTrue(inventory.findHold("H-big-" + area.showId()).isEmpty(), "nothing of a refused take is written");
    }

    @Test
    void applyTogether_refusesAStaleChangeAndOneBeyondCapacityAlone_andTheOthersStand() {
        AdmissionArea area = newArea(12, 4); // 3 per stripe
        String id = area.showId();
        AdmissionStripe first = stripe(area, 0).take("HT0-" + id, "acc-0", 2, 2, EXPIRES, T0, 0).next();
        AdmissionStripe stale = stripe(area, 1).take("HT1-" + id, "acc-1", 1, 1, EXPIRES, T0, 0).next();
        take(area, 1, "HT1-other-" + id, 1); // the referee's stripe 1 moves on: the copy above is stale
        AdmissionStripe lying = new AdmissionStripe(id, "FLOOR", 2, 1_000, 0, List.of(), 0, null)
                .take("HT2-" + id, "acc-2", 5, 5, EXPIRES, T0, 0).next(); // room in the copy only
        AdmissionStripe last = stripe(area, 3).take("HT3-" + id, "acc-3", 3, 3, EXPIRES, T0, 0).next();

        // applied in the stripes' order, answered in the order asked
        List<PostgresAdmissionRepository.Applied> outcomes = admissions.applyTogether(List.of(last, stale, lying, first));

        assertNull(outcomes.get(0).failure());
        assertInstanceOf(StaleInventoryException.class, outcomes.get(1).failure());
        assertInstanceOf(StaleInventoryException.class, outcomes.get(2).failure());
        assertNull(outcomes.get(3).failure());
        assertEquals(List.of(2, 1, 0, 3), List.of(stripe(area, 0).taken(), stripe(area, 1).taken(), stripe(area, 2).taken(),
                stripe(area, 3).taken()));
        assertEquals(HoldStatus.ACTIVE, inventory.findHold("HT0-" + id).orElseThrow().status());
        assertTrue(inventory.findHold("HT1-" + id).isEmpty(), "nothing of a refused change is written");
        assertTrue(inventory.findHold("HT2-" + id).isEmpty(), "nothing of a refused change is written");
        assertEquals(3, inventory.findHold("HT3-" + id).orElseThrow().quantity());
    }

    @Test
    void apply_takesStoredTogether_recordEveryHoldAndPart_inOneWrite_alone_andInABatch() {
        AdmissionArea area = newArea(15, 3); // 5 per stripe
        String id = area.showId();
        AdmissionStripe first = stripe(area, 0).take("HC1-" + id, "acc-1", 2, 2, EXPIRES, T0, 0).next();
        AdmissionStripe together = first.combinedWith(first.take("HC2-" + id, "acc-2", 3, 4, EXPIRES + 1, T0 + 1, 0).next());
        AdmissionStripe other = stripe(area, 1).take("HC3-" + id, "acc-3", 1, 1, EXPIRES, T0, 0).next();
        AdmissionStripe otherTogether = other.combinedWith(other.take("HC4-" + id, "acc-4", 2, 2, EXPIRES, T0, 0).next());
        AdmissionStripe alone = stripe(area, 2).take("HC5-" + id, "acc-5", 1, 1, EXPIRES, T0, 0).next();

        admissions.apply(together);
        List<PostgresAdmissionRepository.Applied> batch = admissions.applyTogether(List.of(otherTogether, alone));

        assertNull(batch.get(0).failure());
        assertNull(batch.get(1).failure());
        AdmissionStripe loaded = stripe(area, 0);
        assertEquals(5, loaded.taken());
        assertEquals(1, loaded.version(), "two takes, one write, one version");
        assertEquals(List.of("HC1-" + id, "HC2-" + id), loaded.parts().stream().map(AdmissionStripe.Part::holdId).sorted().toList());
        HoldRecord second = inventory.findHold("HC2-" + id).orElseThrow();
        assertEquals("acc-2", second.accountId());
        assertEquals(4, second.quantity(), "the hold's whole quantity, as its first part writes it");
        assertEquals(EXPIRES + 1, second.expiresAt());
        assertEquals(3, stripe(area, 1).taken());
        assertEquals(2, inventory.findHold("HC4-" + id).orElseThrow().quantity());
        assertEquals(9, admissions.taken(id, "FLOOR"));
    }

    @Test
    void apply_refusesTakesStoredTogether_asAWhole_whenTheyGoBeyondTheStripe() {
        AdmissionArea area = newArea(4, 1);
        String id = area.showId();
        AdmissionStripe lying = new AdmissionStripe(id, "FLOOR", 0, 1_000, 0, List.of(), 0, null);
        AdmissionStripe first = lying.take("HB1-" + id, "acc-1", 2, 2, EXPIRES, T0, 0).next();
        AdmissionStripe together = first.combinedWith(first.take("HB2-" + id, "acc-2", 3, 3, EXPIRES, T0, 0).next());

        assertThrows(StaleInventoryException.class, () -> admissions.apply(together));
        List<PostgresAdmissionRepository.Applied> batch = admissions.applyTogether(List.of(together,
                stripe(area, 0).take("HB3-" + id, "acc-3", 1, 1, EXPIRES, T0, 0).next()));

        assertInstanceOf(StaleInventoryException.class, batch.get(0).failure());
        assertNull(batch.get(1).failure());
        assertTrue(inventory.findHold("HB1-" + id).isEmpty(), "nothing of a refused write is written");
        assertTrue(inventory.findHold("HB2-" + id).isEmpty(), "nothing of a refused write is written");
        assertEquals(1, admissions.taken(id, "FLOOR"));
    }

    @Test
    void apply_refusesAStaleCopy_andWritesNothing() {
        AdmissionArea area = newArea(10, 1);
        AdmissionStripe before = stripe(area, 0);
        take(area, 0, "H1-" + area.showId(), 2);

        AdmissionStripe.Taken again = before.take("H2-" + area.showId(), "acc-2", 2, 2, EXPIRES, T0, 0);

        assertThrows(StaleInventoryException.class, () -> admissions.apply(again.next()));
        assertEquals(2, admissions.taken(area.showId(), "FLOOR"));
    }

    @Test
    void theRows_refuseMoreAdmissionsThanCapacity_andStripesThatNoLongerAddUpToTheArea() throws SQLException {
        AdmissionArea area = newArea(6, 2);
        String where = " WHERE show_id = '" + area.showId() + "' AND area = 'FLOOR'";

        SQLException beyond = assertThrows(SQLException.class,
                () -> execute("UPDATE admission_stripes SET taken = capacity + 1" + where + " AND stripe = 0"));
        SQLException moreCapacity = assertThrows(SQLException.class,
                () -> execute("UPDATE admission_stripes SET capacity = capacity + 1" + where + " AND stripe = 1"));

        assertEquals("23514", beyond.getSQLState());
        assertEquals("23514", moreCapacity.getSQLState());
        assertEquals(6, count("SELECT sum(capacity) FROM admission_stripes" + where));
    }

    @Test
    void release_andExpiry_giveTheAdmissionsBack_andEndTheHold() {
        AdmissionArea area = newArea(10, 1);
        String released = "HR-" + area.showId();
        String lapsed = "HL-" + area.showId();
        take(area, 0, released, 2);
        take(area, 0, lapsed, 3);

        admissions.apply(stripe(area, 0).release(released, T0 + 1));
        admissions.apply(stripe(area, 0).expire(EXPIRES + 1, 0));

        assertEquals(0, admissions.taken(area.showId(), "FLOOR"));
        assertEquals(HoldStatus.RELEASED, inventory.findHold(released).orElseThrow().status());
        assertEquals(HoldStatus.EXPIRED, inventory.findHold(lapsed).orElseThrow().status());
        assertEquals(List.of(), stripe(area, 0).parts());
    }

    @Test
    void resize_neverGoesBelowWhatIsTaken_andKeepsTheStripesAddingUp() {
        AdmissionArea area = newArea(10, 2);
        take(area, 0, "H-" + area.showId(), 4);

        assertEquals(new AdmissionRepository.Resize.BelowTaken(4), admissions.resize(area.showId(), "FLOOR", 3));
        assertEquals(new AdmissionRepository.Resize.Done(4), admissions.resize(area.showId(), "FLOOR", 5));
        assertEquals(5, stripe(area, 0).capacity() + stripe(area, 1).capacity());
        assertTrue(stripe(area, 0).capacity() >= 4);
        assertEquals(new AdmissionRepository.Resize.Done(4), admissions.resize(area.showId(), "FLOOR", 30));
        assertEquals(30, stripe(area, 0).capacity() + stripe(area, 1).capacity());
        assertInstanceOf(AdmissionRepository.Resize.NoArea.class, admissions.resize(area.showId(), "NOPE", 3));
    }

    @Test
    void move_givesOnlyUnclaimedCapacity_andKeepsTheSum() {
        AdmissionArea area = newArea(10, 2); // 5 and 5
        take(area, 0, "H-" + area.showId(), 4);

        assertEquals(1, admissions.move(area.showId(), "FLOOR", 0, 1, 3));
        assertEquals(List.of(4, 6), List.of(stripe(area, 0).capacity(), stripe(area, 1).capacity()));
        assertEquals(0, admissions.move(area.showId(), "FLOOR", 0, 1, 3));
    }

    @Test
    void allowance_countsHoldsByCount_besideSeats() {
        AdmissionArea area = newArea(10, 2);
        take(area, 0, "HA-" + area.showId(), 2);

        assertEquals(2, inventory.allowance(area.showId(), "acc-HA-" + area.showId()).seatsInUse(T0, 0));
    }

    /**
     * During a rolling upgrade, members of the release before takes were stored together still
     * write, after the new release's migrations ran: their calls leave out the takes stored with a
     * change, one change alone and several in one batch.
     */
    @Test
    void thePreviousReleasesCalls_leavingOutTheTakesStoredWithAChange_stillApply() throws SQLException {
        AdmissionArea area = newArea(10, 2); // 5 and 5
        String id = area.showId();
        AdmissionStripe first = stripe(area, 0).take("OLD1-" + id, "acc-OLD1-" + id, 2, 2, EXPIRES, T0, 0).next();
        AdmissionStripe second = stripe(area, 1).take("OLD2-" + id, "acc-OLD2-" + id, 3, 3, EXPIRES, T0, 0).next();
        AdmissionStripe.Change alone = first.change();
        AdmissionStripe.Change batched = second.change();
        try (Connection c = db.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("SELECT apply_admission_change(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, id);
                ps.setString(2, "FLOOR");
                ps.setInt(3, 0);
                ps.setLong(4, first.version());
                ps.setString(5, alone.kind().name());
                ps.setString(6, alone.holdId());
                ps.setString(7, alone.accountId());
                ps.setInt(8, alone.quantity());
                ps.setInt(9, alone.holdQuantity());
                ps.setObject(10, PostgresInventoryRepository.timestamp(alone.expiresAt()), Types.TIMESTAMP_WITH_TIMEZONE);
                ps.setObject(11, PostgresInventoryRepository.timestamp(alone.at()), Types.TIMESTAMP_WITH_TIMEZONE);
                ps.setArray(12, c.createArrayOf("text", new String[0]));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertEquals(2, rs.getInt(1));
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT apply_admission_batch(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setArray(1, c.createArrayOf("text", new String[] {id}));
                ps.setArray(2, c.createArrayOf("text", new String[] {"FLOOR"}));
                ps.setArray(3, c.createArrayOf("int4", new Integer[] {1}));
                ps.setArray(4, c.createArrayOf("int8", new Long[] {second.version()}));
                ps.setArray(5, c.createArrayOf("text", new String[] {batched.kind().name()}));
                ps.setArray(6, c.createArrayOf("text", new String[] {batched.holdId()}));
                ps.setArray(7, c.createArrayOf("text", new String[] {batched.accountId()}));
                ps.setArray(8, c.createArrayOf("int4", new Integer[] {batched.quantity()}));
                ps.setArray(9, c.createArrayOf("int4", new Integer[] {batched.holdQuantity()}));
                ps.setArray(10, c.createArrayOf("timestamptz", new Object[] {PostgresInventoryRepository.timestamp(batched.expiresAt())}));
                ps.setArray(11, c.createArrayOf("timestamptz", new Object[] {PostgresInventoryRepository.timestamp(batched.at())}));
                ps.setArray(12, c.createArrayOf("int4", new Integer[] {0}));
                ps.setArray(13, c.createArrayOf("text", new String[0]));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertEquals(List.of(3), List.of((Object[]) rs.getArray(1).getArray()));
                }
            }
        }
        assertEquals(List.of("OLD1-" + id), stripe(area, 0).parts().stream().map(AdmissionStripe.Part::holdId).toList());
        assertEquals(List.of("OLD2-" + id), stripe(area, 1).parts().stream().map(AdmissionStripe.Part::holdId).toList());
        assertEquals(5, admissions.remaining(id, "FLOOR", T0, 0).left());
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static int count(String sql) throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
