package org.boxoffice.grid;

import com.hazelcast.core.HazelcastInstance;
import com.zaxxer.hikari.HikariDataSource;
import org.boxoffice.domain.AdmissionArea;
import org.boxoffice.domain.AdmissionStripe;
import org.boxoffice.domain.Show;
import org.boxoffice.grid.member.GridMember;
import org.boxoffice.mapstore.GridStores;
import org.boxoffice.mapstore.PostgresAdmissionRepository;
import org.boxoffice.mapstore.PostgresCatalogRepository;
import org.boxoffice.mapstore.PostgresInventoryRepository;
import org.boxoffice.mapstore.PostgresWaitlistRepository;
import org.boxoffice.mapstore.TestDatabase;
import org.boxoffice.mapstore.TestShows;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.boxoffice.mapstore.TestShows.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * General admission on real members (one JVM, loopback) writing through to a real PostgreSQL: the
 * stripes' sum is exact under races, a stripe running dry never makes a buyer hear "sold out" while
 * tickets remain, and a restarted grid loses nothing.
 */
class AdmissionsGridTest {

    private static final AtomicInteger SHOWS = new AtomicInteger();
    private static HikariDataSource db;
    private static PostgresCatalogRepository catalog;
    private static PostgresInventoryRepository inventoryRepo;
    private static PostgresAdmissionRepository admissionRepo;

    private final List<HazelcastInstance> members = new ArrayList<>();
    private final AtomicLong clock = new AtomicLong(T0);

    @BeforeAll
    static void database() {
        db = TestDatabase.newDataSource(24);
        catalog = new PostgresCatalogRepository(db);
        inventoryRepo = new PostgresInventoryRepository(db);
        admissionRepo = new PostgresAdmissionRepository(db);
    }

    @AfterAll
    static void close() {
        admissionRepo.close();
        inventoryRepo.close();
        db.close();
    }

    @AfterEach
    void stop() {
        members.forEach(m -> m.getLifecycleService().terminate());
    }

    /** A cluster of {@code n} members on the test database. */
    private List<HazelcastInstance> start(int n) {
        return start(n, 0);
    }

    /**
     * As {@link #start(int)}, the last {@code previous} of them as members of the release before
     * several takes on a stripe went in one call: they say nothing of what they understand, and
     * cannot read a {@link StripeTakesProcessor} (no serializer of it).
     */
    private List<HazelcastInstance> start(int n, int previous) {
        String cluster = "ga-" + UUID.randomUUID();
        int port = 19801 + (int) (Math.random() * 2000);
        List<String> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add("127.0.0.1:" + (port + i));
        }
        List<HazelcastInstance> started = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            GridSettings settings = GridSettings.loopback(cluster, port + i, all);
            GridMember.Stores stores = GridStores.of(inventoryRepo, catalog, new PostgresWaitlistRepository(db), admissionRepo);
            if (i < n - previous) {
                started.add(GridMember.start(settings, stores));
                continue;
            }
            com.hazelcast.config.Config config = GridMember.config(settings, stores);
            config.getMemberAttributeConfig().removeAttribute(GridFeatures.ATTRIBUTE);
            com.hazelcast.config.CompactSerializationConfig compact = new com.hazelcast.config.CompactSerializationConfig();
            org.boxoffice.grid.serialization.GridSerializers.all().stream()
                    .filter(z -> z.getCompactClass() != StripeTakesProcessor.class)
                    .forEach(compact::addSerializer);
            config.getSerializationConfig().setCompactSerializationConfig(compact);
            started.add(com.hazelcast.core.Hazelcast.newHazelcastInstance(config));
        }
        members.addAll(started);
        return started;
    }

    private Admissions admissions(HazelcastInstance member) {
        return new Admissions(member, admissionRepo, new Allowances(member, inventoryRepo), new Inventory(member), clock::get);
    }

    private static Show newShow() {
        return TestShows.save(catalog, TestShows.small("ga-grid-" + SHOWS.incrementAndGet()));
    }

    private static AdmissionArea newArea(Show show, int capacity, int stripes) {
        AdmissionArea area = new AdmissionArea(show.showId(), "FLOOR", capacity, 4_500, stripes);
        assertTrue(admissionRepo.createArea(area, T0));
        return area;
    }

    /** A hold as the service makes one: tried again under a new id while claims in flight keep what the area has left. */
    private Admissions.Claim hold(Admissions admissions, Show show, AdmissionArea area, String account, int quantity) {
        return hold(admissions, show, area, account, quantity, new long[1]);
    }

    /** As above; {@code startedAt[0]}: when the last attempt started ({@link System#nanoTime}). */
    private Admissions.Claim hold(Admissions admissions, Show show, AdmissionArea area, String account, int quantity,
                                  long[] startedAt) {
        return admissions.hold(show, area, () -> {
            startedAt[0] = System.nanoTime();
            return "H" + UUID.randomUUID();
        }, account, quantity, T0 + 600_000, clock.get());
    }

    /** {@code buyers} buyers of one admission each, all at once, spread over {@code sides} in turn: their claims, in order. */
    private List<Admissions.Claim> race(List<Admissions> sides, Show show, AdmissionArea area, int buyers) throws Exception {
        CyclicBarrier go = new CyclicBarrier(buyers);
        List<Callable<Admissions.Claim>> sends = new ArrayList<>();
        for (int i = 0; i < buyers; i++) {
            int n = i;
            sends.add(() -> {
                go.await();
                return hold(sides.get(n % sides.size()), show, area, "buyer-" + n, 1);
            });
        }
        List<Admissions.Claim> claims = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(buyers)) {
            for (Future<Admissions.Claim> f : pool.invokeAll(sends)) {
                claims.add(f.get());
            }
        }
        return claims;
    }

    /** An account name whose hash picks stripe {@code stripe} of {@code stripes} first. */
    private static String accountOnStripe(int stripe, int stripes, int n) {
        for (int i = n; ; i++) {
            String account = "fan-" + i;
            if (Math.floorMod(account.hashCode(), stripes) == stripe) {
                return account;
            }
        }
    }

    /**
     * During a rolling upgrade: a member of the release before cannot read several takes in one call,
     * so while one is in the cluster a stripe it owns gets them one per call, and every take lands.
     */
    @Test
    void besideAMemberOfThePreviousRelease_takesOnAStripeItOwnsGoOnePerCall_andEveryOneLands() throws Exception {
        List<HazelcastInstance> grid = start(2, 1);
        HazelcastInstance current = grid.get(0);
        com.hazelcast.cluster.Member old = grid.get(1).getCluster().getLocalMember();
        Show show = newShow();
        AdmissionArea area = null;
        for (int i = 0; area == null; i++) { // one stripe, on a partition the old member owns
            String name = "FLOOR" + i;
            if (current.getPartitionService().getPartition(new StripeKey(show.showId(), name, 0)).getOwner().equals(old)) {
                area = new AdmissionArea(show.showId(), name, 40, 4_500, 1);
            }
        }
        assertTrue(admissionRepo.createArea(area, T0));
        assertTrue(!GridFeatures.everyMember(current.getCluster(), GridFeatures.STRIPE_TAKES));
        AdmissionArea floor = area;

        List<Admissions.Claim> claims = race(List.of(admissions(current)), show, floor, 40);

        assertEquals(40, claims.stream().filter(c -> c instanceof Admissions.Claim.Held).count(), claims.toString());
        assertEquals(40, admissionRepo.taken(show.showId(), floor.name()));
    }

    @Test
    void aRaceOnTheLastTickets_sellsExactlyTheCapacity_andTellsTheRestSoldOut() throws Exception {
        List<HazelcastInstance> grid = start(2);
        Show show = newShow();
        AdmissionArea area = newArea(show, 10, 4);
        List<Admissions> sides = List.of(admissions(grid.get(0)), admissions(grid.get(1)));

        List<Admissions.Claim> claims = race(sides, show, area, 40);

        assertEquals(10, claims.stream().filter(c -> c instanceof Admissions.Claim.Held).count(), claims.toString());
        assertEquals(30, claims.stream().filter(c -> c instanceof Admissions.Claim.SoldOut s && s.left() == 0).count(),
                claims.toString());
        assertEquals(10, admissionRepo.taken(show.showId(), "FLOOR"));
        assertEquals(0, sides.get(0).left(show, area));
    }

    /**
     * Buyers racing for the last tickets, each asking for more than any stripe has: every claim takes
     * from one stripe, finds it short and moves on, so claims in flight keep taking admissions they
     * will give back. A buyer told "sold out" at a moment when the capacity, less what the buyers
     * who ended up holding had started claiming by then, still covered the quantity was told so while
     * those admissions were free or about to be given back: that must never happen.
     */
    @Test
    void aRaceForTheLastTicketsAcrossStripes_neverTellsABuyerSoldOut_whileEnoughRemain() throws Exception {
        List<HazelcastInstance> grid = start(2);
        List<Admissions> sides = List.of(admissions(grid.get(0)), admissions(grid.get(1)));
        int buyers = 24;
        List<String> wrong = new ArrayList<>();
        for (int round = 0; round < 6; round++) {
            Show show = newShow();
            int capacity = 16;
            AdmissionArea area = newArea(show, capacity, 16); // 1 per stripe: every claim of 2 spans stripes
            record Answer(Admissions.Claim claim, long startedAt, long answeredAt) {
            }
            CyclicBarrier go = new CyclicBarrier(buyers);
            List<Callable<Answer>> crowd = new ArrayList<>();
            for (int i = 0; i < buyers; i++) {
                int n = i;
                crowd.add(() -> {
                    go.await();
                    long[] started = new long[1];
                    Admissions.Claim claim = hold(sides.get(n % 2), show, area, "racer-" + n, 2, started);
                    return new Answer(claim, started[0], System.nanoTime());
                });
            }
            List<Answer> answers = new ArrayList<>();
            try (ExecutorService pool = Executors.newFixedThreadPool(buyers)) {
                for (Future<Answer> f : pool.invokeAll(crowd)) {
                    answers.add(f.get());
                }
            }

            int held = 0;
            for (Answer a : answers) {
                if (a.claim() instanceof Admissions.Claim.Held h) {
                    held += h.parts().values().stream().mapToInt(Integer::intValue).sum();
                }
            }
            assertEquals(held, admissionRepo.taken(show.showId(), "FLOOR"), "the referee counts what the buyers hold");
            assertTrue(held <= capacity, held + " held of " + capacity);
            for (Answer a : answers) {
                if (a.claim() instanceof Admissions.Claim.Held) {
                    continue;
                }
                // what was surely taken for good when this buyer heard its answer: the holds whose claim had started
                int taken = 0;
                for (Answer b : answers) {
                    if (b.claim() instanceof Admissions.Claim.Held && b.startedAt() < a.answeredAt()) {
                        taken += 2;
                    }
                }
                if (capacity - taken >= 2) {
                    wrong.add("round " + round + ": " + a.claim() + " while " + (capacity - taken) + " remained");
                }
            }
        }
        assertTrue(wrong.isEmpty(), wrong.size() + " buyers heard sold out while enough remained, e.g. "
                + wrong.subList(0, Math.min(5, wrong.size())));
    }

    @Test
    void aStaleStripe_isReloadedAndTheClaimHeld_withoutAnErrorInTheMembersLog() {
        HazelcastInstance member = start(1).get(0);
        Show show = newShow();
        AdmissionArea area = newArea(show, 4, 2); // 2 per stripe
        Admissions admissions = admissions(member);
        assertEquals(4, admissions.left(show, area), "both stripes are in memory");
        assertEquals(1, admissionRepo.move(show.showId(), "FLOOR", 0, 1, 1), "moved behind the grid's back");
        List<java.util.logging.LogRecord> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                if (r.getLevel().intValue() >= java.util.logging.Level.SEVERE.intValue()) {
                    errors.add(r);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        java.util.logging.Logger hazelcast = java.util.logging.Logger.getLogger("com.hazelcast");
        hazelcast.addHandler(handler);
        try {
            // its own stripe's copy has 2 of 3: it takes across both stale copies, each refused once and reloaded
            Admissions.Claim claim = hold(admissions, show, area, accountOnStripe(1, 2, 0), 3);

            assertInstanceOf(Admissions.Claim.Held.class, claim);
        } finally {
            hazelcast.removeHandler(handler);
        }
        assertEquals(3, admissionRepo.taken(show.showId(), "FLOOR"));
        assertEquals(List.of(), errors.stream().map(r -> r.getLoggerName() + ": " + r.getMessage()).toList());
    }

    @Test
    void claimsThatAllStartOnOneStripe_stillSellEveryTicket_andTheStripesAreRebalanced() {
        Show show = newShow();
        AdmissionArea area = newArea(show, 12, 4); // 3 per stripe
        Admissions admissions = admissions(start(1).get(0)).rebalanceInline();

        List<Admissions.Claim> claims = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            claims.add(hold(admissions, show, area, accountOnStripe(0, 4, i * 1000), 1));
        }
        Admissions.Claim thirteenth = hold(admissions, show, area, accountOnStripe(0, 4, 99_000), 1);

        assertTrue(claims.stream().allMatch(c -> c instanceof Admissions.Claim.Held), claims.toString());
        assertEquals(new Admissions.Claim.SoldOut(0), thirteenth);
        assertEquals(12, admissionRepo.taken(show.showId(), "FLOOR"));
        Map<Integer, AdmissionStripe> stripes = admissions.stripes(area);
        assertEquals(12, stripes.values().stream().mapToInt(AdmissionStripe::capacity).sum(), "the sum stays the capacity");
        assertTrue(stripes.get(0).capacity() > 3, "capacity moved to the stripe the claims start on: " + stripes);
    }

    @Test
    void aClaimLargerThanAnyStripeHasLeft_takesFromSeveral_allOrNothing() {
        Show show = newShow();
        AdmissionArea area = newArea(show, 3, 3); // 1 per stripe
        Admissions admissions = admissions(start(1).get(0));

        Admissions.Claim four = hold(admissions, show, area, "ann", 4);
        Admissions.Claim three = hold(admissions, show, area, "bob", 3);

        assertEquals(new Admissions.Claim.SoldOut(3), four);
        assertInstanceOf(Admissions.Claim.Held.class, three);
        assertEquals(3, ((Admissions.Claim.Held) three).parts().size());
        assertEquals(3, admissionRepo.taken(show.showId(), "FLOOR"));
    }

    @Test
    void sixtyParallelHoldsByOneAccount_endWithExactlyItsLimitHeld() throws Exception {
        List<HazelcastInstance> grid = start(2);
        Show show = newShow(); // 8 per account
        AdmissionArea area = newArea(show, 500, 8);
        List<Admissions> sides = List.of(admissions(grid.get(0)), admissions(grid.get(1)));
        CyclicBarrier go = new CyclicBarrier(60);
        List<Callable<Admissions.Claim>> tries = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            int n = i;
            tries.add(() -> {
                go.await();
                return hold(sides.get(n % 2), show, area, "greedy", 1 + n % 2);
            });
        }

        int held = 0;
        try (ExecutorService pool = Executors.newFixedThreadPool(60)) {
            for (Future<Admissions.Claim> f : pool.invokeAll(tries)) {
                if (f.get() instanceof Admissions.Claim.Held h) {
                    held += h.parts().values().stream().mapToInt(Integer::intValue).sum();
                } else {
                    assertInstanceOf(Admissions.Claim.OverLimit.class, f.get());
                }
            }
        }

        assertEquals(8, held);
        assertEquals(8, admissionRepo.taken(show.showId(), "FLOOR"));
    }

    @Test
    void releaseAndLapse_giveTheAdmissionsBack() {
        HazelcastInstance member = start(1).get(0);
        Show show = newShow();
        AdmissionArea area = newArea(show, 5, 2);
        Admissions admissions = admissions(member);
        String released = "HR-" + show.showId();
        String lapsing = "HL-" + show.showId();
        assertInstanceOf(Admissions.Claim.Held.class, admissions.hold(show, area, released, "ann", 2, T0 + 600_000, T0));
        assertInstanceOf(Admissions.Claim.Held.class, admissions.hold(show, area, lapsing, "bob", 3, T0 + 1_000, T0));
        assertEquals(0, admissions.left(show, area));

        assertEquals(2, admissions.release(show, area, released, "ann", T0 + 10));
        clock.set(T0 + 1_000 + show.policy().graceMillis() + 1);
        int swept = admissions.sweepOnce(id -> java.util.Optional.of(show));

        assertTrue(swept >= 1, "the lapsed hold's stripes were swept");
        assertEquals(5, admissions.left(show, area));
        assertEquals(0, admissionRepo.taken(show.showId(), "FLOOR"));
        assertEquals(-1, new Allowances(member, inventoryRepo).reserve(show.showId(), "bob", "again", 8, T0 + 900_000, clock.get(),
                show.policy().graceMillis(), 8), "the lapsed hold no longer counts against the account");
    }

    @Test
    void aRestartedGrid_reloadsTheStripesFromTheReferee_andLosesNothing() {
        Show show = newShow();
        AdmissionArea area = newArea(show, 10, 3);
        // ann's own stripe has fewer than 4, so her claim takes from another and starts a rebalancing:
        // inline, so it is over before the member stops (a background one could still move capacity
        // while the next grid loads the stripes, and that grid count a moved admission twice)
        Admissions first = admissions(start(1).get(0)).rebalanceInline();
        assertInstanceOf(Admissions.Claim.Held.class, hold(first, show, area, "ann", 4));
        members.forEach(m -> m.getLifecycleService().terminate());
        members.clear();

        Admissions second = admissions(start(1).get(0));

        assertEquals(6, second.left(show, area));
        assertEquals(new Admissions.Claim.SoldOut(6), hold(second, show, area, "bob", 7));
        assertInstanceOf(Admissions.Claim.Held.class, hold(second, show, area, "bob", 6));
        assertEquals(10, admissionRepo.taken(show.showId(), "FLOOR"));
    }

    /** A request as the service makes it: the area's sold-out mark first, then, unless it refuses, the claim. */
    private Admissions.Claim ask(Admissions admissions, Show show, AdmissionArea area, String account, int quantity) {
        return admissions.knownSoldOut(show, area, quantity, clock.get()).map(Admissions.Claim.class::cast)
                .orElseGet(() -> hold(admissions, show, area, account, quantity));
    }

    /** Sells the whole area to {@code holds} accounts (ann-0, ann-1, ...), each taking capacity / holds; returns their hold ids. */
    private List<String> sellOut(Admissions admissions, Show show, AdmissionArea area, int holds, long expiresAt) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < holds; i++) {
            String id = "H" + i + "-" + show.showId();
            assertInstanceOf(Admissions.Claim.Held.class, admissions.hold(show, area, id, "ann-" + i, area.capacity() / holds,
                    expiresAt, clock.get()));
            ids.add(id);
        }
        return ids;
    }

    @Test
    void aSoldOutArea_isKnownSoldOut_onlyOnceAClaimFoundItSo_andOnlyForMoreThanItHasLeft() {
        HazelcastInstance member = start(1).get(0);
        Show show = newShow();
        AdmissionArea area = newArea(show, 8, 4);
        Admissions admissions = admissions(member);
        assertEquals(java.util.Optional.empty(), admissions.knownSoldOut(show, area, 1, clock.get()), "a fresh area");
        assertInstanceOf(Admissions.Claim.Held.class, hold(admissions, show, area, "ann", 3));
        assertInstanceOf(Admissions.Claim.Held.class, hold(admissions, show, area, "bob", 3));
        assertEquals(java.util.Optional.empty(), admissions.knownSoldOut(show, area, 3, clock.get()), "no claim has been refused");

        assertEquals(new Admissions.Claim.SoldOut(2), hold(admissions, show, area, "cid", 3));

        assertEquals(java.util.Optional.of(new Admissions.Claim.SoldOut(2)), admissions.knownSoldOut(show, area, 3, clock.get()));
        assertEquals(java.util.Optional.empty(), admissions.knownSoldOut(show, area, 2, clock.get()), "2 are left");
        assertInstanceOf(Admissions.Claim.Held.class, ask(admissions, show, area, "cid", 2));
        assertEquals(new Admissions.Claim.SoldOut(0), hold(admissions, show, area, "dan", 1));
        assertEquals(java.util.Optional.of(new Admissions.Claim.SoldOut(0)), admissions.knownSoldOut(show, area, 1, clock.get()));
    }

    @Test
    void aRelease_isVisibleToTheNextRequestAtOnce_onEveryMember() {
        List<HazelcastInstance> grid = start(2);
        Show show = newShow();
        AdmissionArea area = newArea(show, 4, 2);
        Admissions here = admissions(grid.get(0));
        Admissions there = admissions(grid.get(1));
        List<String> holds = sellOut(here, show, area, 2, T0 + 600_000);
        assertEquals(new Admissions.Claim.SoldOut(0), hold(there, show, area, "eve", 2));
        assertEquals(new Admissions.Claim.SoldOut(0), ask(here, show, area, "eve", 2), "known sold out");

        assertEquals(2, here.release(show, area, holds.get(0), "ann-0", clock.get()));

        assertInstanceOf(Admissions.Claim.Held.class, ask(there, show, area, "eve", 2));
    }

    @Test
    void aSaleGivenBack_isVisibleToTheNextRequestAtOnce() {
        HazelcastInstance member = start(1).get(0);
        Show show = newShow();
        AdmissionArea area = newArea(show, 4, 2);
        Admissions admissions = admissions(member);
        List<String> holds = sellOut(admissions, show, area, 2, T0 + 600_000);
        assertEquals(Admissions.Confirmation.SOLD, admissions.confirm(show, area, holds.get(1), 2, clock.get()));
        assertEquals(new Admissions.Claim.SoldOut(0), hold(admissions, show, area, "eve", 1));

        assertEquals(2, admissions.giveBack(show, area, holds.get(1), "ann-1", clock.get()));

        assertInstanceOf(Admissions.Claim.Held.class, ask(admissions, show, area, "eve", 2));
    }

    @Test
    void aHoldThatLapses_isVisibleToTheNextRequestAtItsLapse_beforeAnySweep() {
        HazelcastInstance member = start(1).get(0);
        Show show = newShow();
        AdmissionArea area = newArea(show, 4, 2);
        Admissions admissions = admissions(member);
        long grace = show.policy().graceMillis();
        sellOut(admissions, show, area, 2, T0 + 60_000);
        long lapse = T0 + 60_000 + grace;
        clock.set(lapse - 100); // counted sold out 100 ms before the first hold lapses
        assertEquals(new Admissions.Claim.SoldOut(0), hold(admissions, show, area, "eve", 1));
        assertEquals(new Admissions.Claim.SoldOut(0), ask(admissions, show, area, "eve", 1));

        clock.set(lapse);

        assertInstanceOf(Admissions.Claim.Held.class, ask(admissions, show, area, "eve", 2));
    }

    @Test
    void aLargerCapacity_isVisibleToTheNextRequestAtOnce() {
        HazelcastInstance member = start(1).get(0);
        Show show = newShow();
        AdmissionArea area = newArea(show, 4, 2);
        Admissions admissions = admissions(member);
        sellOut(admissions, show, area, 2, T0 + 600_000);
        assertEquals(new Admissions.Claim.SoldOut(0), hold(admissions, show, area, "eve", 1));

        assertInstanceOf(org.boxoffice.domain.AdmissionRepository.Resize.Done.class, admissions.resize(area, 6));

        assertInstanceOf(Admissions.Claim.Held.class, ask(admissions, show, area, "eve", 2));
    }

    @Test
    void aMarkThatNothingEnded_isBelievedNoLongerThanItsTrustTime() {
        HazelcastInstance member = start(1).get(0);
        Show show = newShow();
        AdmissionArea area = newArea(show, 4, 2);
        Admissions admissions = admissions(member);
        sellOut(admissions, show, area, 2, T0 + 600_000);
        assertEquals(new Admissions.Claim.SoldOut(0), hold(admissions, show, area, "eve", 1));
        // more capacity behind the grid's back, its copies dropped, and no give-back told (what a failure could do)
        assertInstanceOf(org.boxoffice.domain.AdmissionRepository.Resize.Done.class,
                admissionRepo.resize(show.showId(), "FLOOR", 6));
        member.getMap(GridMaps.ADMISSIONS).evictAll();
        assertEquals(new Admissions.Claim.SoldOut(0), ask(admissions, show, area, "eve", 2));

        clock.addAndGet(SoldOutMarks.TRUST_MILLIS);

        assertInstanceOf(Admissions.Claim.Held.class, ask(admissions, show, area, "eve", 2));
    }

    /**
     * Refusals that count the area while a release gives admissions back: a count taken before the
     * release and written after it must not say "sold out" to a request that starts after the
     * release returned.
     */
    @Test
    void aCountTakenBeforeARelease_neverHidesItFromARequestThatStartsAfterIt() throws Exception {
        List<HazelcastInstance> grid = start(2);
        List<Admissions> sides = List.of(admissions(grid.get(0)), admissions(grid.get(1)));
        List<String> wrong = new ArrayList<>();
        for (int round = 0; round < 12; round++) {
            Show show = newShow();
            AdmissionArea area = newArea(show, 4, 4);
            List<String> holds = sellOut(sides.get(0), show, area, 4, T0 + 600_000);
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            try (ExecutorService pool = Executors.newFixedThreadPool(6)) {
                List<Future<?>> refusers = new ArrayList<>();
                for (int t = 0; t < 6; t++) {
                    int n = t;
                    refusers.add(pool.submit(() -> {
                        while (!stop.get()) {
                            // the claim's full path: it counts, and marks the area sold out
                            assertInstanceOf(Admissions.Claim.SoldOut.class, sides.get(n % 2).hold(show, area,
                                    "R" + UUID.randomUUID(), "refused-" + n, 2, T0 + 600_000, clock.get()));
                        }
                        return null;
                    }));
                }
                Thread.sleep(5 + round * 3L);
                sides.get(round % 2).release(show, area, holds.get(0), "ann-0", clock.get());
                Admissions.Claim after = sides.get((round + 1) % 2).knownSoldOut(show, area, 1, clock.get())
                        .map(Admissions.Claim.class::cast).orElse(null);
                stop.set(true);
                for (Future<?> f : refusers) {
                    f.get();
                }
                if (after != null) {
                    wrong.add("round " + round + ": " + after);
                }
            }
        }
        assertEquals(List.of(), wrong, "requests told sold out after a release returned");
    }

    @Test
    void aMarkInTheSecondHalfOfItsLife_isCountedAgain_andKeepsAnswering() throws Exception {
        HazelcastInstance member = start(1).get(0);
        Show show = newShow();
        AdmissionArea area = newArea(show, 4, 2);
        Admissions admissions = admissions(member);
        sellOut(admissions, show, area, 2, T0 + 600_000);
        assertEquals(new Admissions.Claim.SoldOut(0), hold(admissions, show, area, "eve", 1)); // marked until T0 + 1 s
        SoldOutMarks marks = new SoldOutMarks(member);

        clock.set(T0 + SoldOutMarks.TRUST_MILLIS * 3 / 4);
        assertEquals(java.util.Optional.of(new Admissions.Claim.SoldOut(0)), admissions.knownSoldOut(show, area, 1, clock.get()));

        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (marks.read(area).until() <= T0 + SoldOutMarks.TRUST_MILLIS && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        clock.set(T0 + SoldOutMarks.TRUST_MILLIS + 1);
        assertEquals(java.util.Optional.of(new Admissions.Claim.SoldOut(0)), admissions.knownSoldOut(show, area, 1, clock.get()),
                "counted again before it ended: " + marks.read(area));
    }
}
