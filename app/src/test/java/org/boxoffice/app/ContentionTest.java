package org.boxoffice.app;

import org.boxoffice.app.catalog.SeatPlan;
import org.boxoffice.domain.HoldPolicy;
import org.boxoffice.domain.SaleWindow;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.grid.BlockCommand;
import org.boxoffice.grid.Inventory;
import org.boxoffice.mapstore.PostgresCatalogRepository;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 64 threads making 500 attempts each at overlapping seat sets of one show, through the grid with
 * the real write-through store and PostgreSQL (no snapshot gate in front, so every attempt reaches
 * a processor). Some holds are released again so seats change hands.
 */
class ContentionTest {

    private static TestApp app;
    private static Show show;

    @BeforeAll
    static void start() {
        app = TestApp.start();
        ShowLayout layout = SeatPlan.layout("contended", "EUR",
                List.of(new SeatPlan.SectionPlan("A", 0, 5_000, 30, 25), new SeatPlan.SectionPlan("B", 1, 4_000, 30, 25),
                        new SeatPlan.SectionPlan("C", 2, 3_000, 30, 25), new SeatPlan.SectionPlan("D", 3, 2_000, 30, 25)));
        show = new Show("contended", "midnight-echoes", "olympiastadion", System.currentTimeMillis() + 86_400_000L,
                new SaleWindow(0, System.currentTimeMillis() + 86_400_000L), new HoldPolicy(10, 10_000, 600_000, 5_000), 8, 48, layout);
        new PostgresCatalogRepository(app.dataSource).saveShow(show);
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private record Claim(String holdId, SortedMap<Integer, int[]> seats) {
    }

    @Test
    void noSeatIsEverHeldTwice_andEveryAcknowledgedHoldIsInPostgres() throws Exception {
        Inventory inventory = app.app.inventory();
        Map<String, Claim> live = new ConcurrentHashMap<>();
        Map<String, Claim> released = new ConcurrentHashMap<>();
        AtomicInteger attempts = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(64);
        List<Future<?>> futures = new ArrayList<>();
        long expiresAt = System.currentTimeMillis() + 3_600_000;
        for (int t = 0; t < 64; t++) {
            int thread = t;
            futures.add(pool.submit(() -> {
                ThreadLocalRandom r = ThreadLocalRandom.current();
                List<Claim> mine = new ArrayList<>();
                for (int a = 0; a < 500; a++) {
                    attempts.incrementAndGet();
                    // a hot spot: most attempts aim at the first 8 blocks
                    int block = r.nextInt(10) < 8 ? r.nextInt(8) : r.nextInt(show.layout().blocks().size());
                    int size = show.layout().blocks().get(block).size();
                    int n = 1 + r.nextInt(4);
                    int first = r.nextInt(size - n + 1);
                    SortedMap<Integer, int[]> want = new TreeMap<>();
                    want.put(block, java.util.stream.IntStream.range(first, first + n).toArray());
                    String holdId = "T" + thread + "-" + a;
                    if (inventory.hold(show, holdId, "acct-" + thread, want, expiresAt, System.currentTimeMillis(),
                            new String[0]) instanceof Inventory.ClaimResult.Held) {
                        Claim c = new Claim(holdId, want);
                        live.put(holdId, c);
                        mine.add(c);
                    }
                    if (!mine.isEmpty() && r.nextInt(4) == 0) {
                        Claim c = mine.remove(r.nextInt(mine.size()));
                        inventory.executeAll(show, c.seats().keySet(),
                                b -> new BlockCommand.Release(c.holdId(), System.currentTimeMillis(), "test", "changed mind"));
                        live.remove(c.holdId());
                        released.put(c.holdId(), c);
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get(10, TimeUnit.MINUTES);
        }
        pool.shutdown();
        assertEquals(64 * 500, attempts.get());
        assertTrue(live.size() > 50, "claims succeed: " + live.size());
        assertTrue(released.size() > 50, "releases happen: " + released.size());

        Map<String, String> seatOwner = new HashMap<>();
        for (Claim c : live.values()) {
            c.seats().forEach((block, idx) -> {
                for (int i : idx) {
                    String previous = seatOwner.put(block + ":" + i, c.holdId());
                    assertEquals(null, previous, "seat acknowledged to two live holds");
                }
            });
        }
        Map<String, String> heldInDb = new HashMap<>();
        Map<String, Integer> holdEvents = new HashMap<>();
        Map<String, Integer> releaseEvents = new HashMap<>();
        try (Connection c = app.dataSource.getConnection(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("select block_id, idx, hold_id from seats where show_id = 'contended' and state = 'HELD'")) {
                while (rs.next()) {
                    heldInDb.put(rs.getInt(1) + ":" + rs.getInt(2), rs.getString(3));
                }
            }
            try (ResultSet rs = s.executeQuery("select kind, hold_id, count(*) from seat_events where show_id = 'contended' group by kind, hold_id")) {
                while (rs.next()) {
                    (rs.getString(1).equals("HOLD") ? holdEvents : releaseEvents).merge(rs.getString(2), rs.getInt(3), Integer::sum);
                }
            }
            try (ResultSet rs = s.executeQuery("select count(*) from (select seat_id from seats where show_id = 'contended' "
                    + "and state in ('HELD','SOLD') group by seat_id having count(*) > 1) d")) {
                rs.next();
                assertEquals(0, rs.getInt(1));
            }
        }
        assertEquals(seatOwner, heldInDb, "PostgreSQL holds exactly the acknowledged, unreleased holds");
        for (Claim c : live.values()) {
            assertEquals(seats(c), holdEvents.get(c.holdId()), "one HOLD audit row per seat of " + c.holdId());
        }
        for (Claim c : released.values()) {
            assertEquals(seats(c), holdEvents.get(c.holdId()));
            assertEquals(seats(c), releaseEvents.get(c.holdId()), "one RELEASE audit row per seat of " + c.holdId());
        }
        assertEquals(live.size() + released.size(), holdEvents.size(), "no audit rows for rejected claims");
    }

    private static int seats(Claim c) {
        return c.seats().values().stream().mapToInt(a -> a.length).sum();
    }
}
