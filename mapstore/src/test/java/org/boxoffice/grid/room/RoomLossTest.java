package org.boxoffice.grid.room;

import com.hazelcast.core.HazelcastInstance;
import com.zaxxer.hikari.HikariDataSource;
import org.boxoffice.grid.GridSettings;
import org.boxoffice.grid.member.GridMember;
import org.boxoffice.grid.InMemoryInventoryRepository;
import org.boxoffice.grid.TestStores;
import org.boxoffice.grid.limits.SpentChallenges;
import org.boxoffice.mapstore.PostgresCatalogRepository;
import org.boxoffice.mapstore.PostgresRoomLedger;
import org.boxoffice.mapstore.SpentChallengeStore;
import org.boxoffice.mapstore.TestDatabase;
import org.boxoffice.mapstore.TestShows;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Waiting rooms and spent challenges on three real members (one backup) over a real PostgreSQL:
 * two members terminated at once lose every partition whose two copies they held, and the
 * survivor rebuilds those rooms from the ledger with every fan's place, its admissions, and every
 * spent challenge still spent.
 */
class RoomLossTest {

    private static final long HOUR = 3_600_000L;
    private final AtomicLong clock = new AtomicLong(TestShows.T0);
    private final List<HazelcastInstance> members = new ArrayList<>();
    private final List<WaitingRooms> rooms = new ArrayList<>();
    private final AtomicInteger rebuilt = new AtomicInteger();
    private HikariDataSource db;

    @AfterEach
    void stop() {
        rooms.forEach(WaitingRooms::close);
        members.forEach(m -> m.getLifecycleService().terminate());
        if (db != null) {
            db.close();
        }
    }

    @Test
    void twoMembersLostAtOnce_everyFanKeepsItsPlace_andNoSpentChallengeComesBack() {
        db = TestDatabase.newDataSource(8);
        PostgresCatalogRepository catalog = new PostgresCatalogRepository(db);
        PostgresRoomLedger ledger = new PostgresRoomLedger(db, clock::get);
        int showCount = 24;
        List<String> shows = new ArrayList<>();
        for (int s = 0; s < showCount; s++) {
            shows.add(TestShows.save(catalog, TestShows.small("loss-" + s)).showId());
        }
        String cluster = "rooms-" + UUID.randomUUID();
        int port = 19801 + (int) (Math.random() * 2000);
        List<String> all = List.of("127.0.0.1:" + port, "127.0.0.1:" + (port + 1), "127.0.0.1:" + (port + 2));
        RoomLedger counting = new RoomLedger() {
            @Override
            public void configured(RoomView room) {
                ledger.configured(room);
            }

            @Override
            public void joined(String showId, String accountId, long position) {
                ledger.joined(showId, accountId, position);
            }

            @Override
            public void shuffled(String showId, long seed, List<String> inOrder) {
                ledger.shuffled(showId, seed, inOrder);
            }

            @Override
            public void admitted(String showId, long upTo, long at) {
                ledger.admitted(showId, upTo, at);
            }

            @Override
            public WaitingRoom load(String showId) {
                WaitingRoom r = ledger.load(showId);
                if (r != null) {
                    rebuilt.incrementAndGet();
                }
                return r;
            }
        };
        InMemoryInventoryRepository inventory = new InMemoryInventoryRepository();
        for (int i = 0; i < 3; i++) {
            HazelcastInstance m = GridMember.start(GridSettings.loopback(cluster, port + i, all),
                    TestStores.of(inventory));
            members.add(m);
            rooms.add(new WaitingRooms(m, clock::get, show -> 1_000, HOUR, counting));
        }
        WaitingRooms via = rooms.get(0);

        // half the rooms open in a minute (a pre-queue, then the shuffle), half are open already
        for (int s = 0; s < showCount; s++) {
            long opensAt = s % 2 == 0 ? TestShows.T0 + 60_000 : TestShows.T0 - 1;
            via.configure(shows.get(s), WaitingRoom.Mode.ON, opensAt, 3, 2, 600_000);
        }
        for (int s = 0; s < showCount; s++) {
            for (int f = 0; f < 20; f++) {
                via.join(shows.get(s), "fan-" + f).orElseThrow();
            }
        }
        clock.addAndGet(60_000);
        rooms.forEach(WaitingRooms::tickOwnedRooms); // seals and shuffles the pre-queues, admits the first
        for (int s = 0; s < showCount; s++) {
            for (int f = 20; f < 30; f++) {
                via.join(shows.get(s), "fan-" + f).orElseThrow();
            }
        }
        for (int t = 0; t < 4; t++) {
            clock.addAndGet(1_000);
            rooms.forEach(WaitingRooms::tickOwnedRooms);
        }
        Map<String, RoomView> before = new HashMap<>();
        for (String show : shows) {
            for (int f = 0; f < 30; f++) {
                RoomView v = via.lookup(show, "fan-" + f).orElseThrow();
                assertTrue(v.position() > 0, show + " fan-" + f + " has a place: " + v);
                before.put(show + "/fan-" + f, v);
            }
            assertTrue(via.lookup(show, null).orElseThrow().admittedUpTo() > 0, show + " admitted nobody yet");
        }
        SpentChallenges spent = new SpentChallenges(members.get(0), new SpentChallengeStore(db, clock::get));
        List<String> nonces = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String nonce = "nonce-" + i;
            assertTrue(spent.spend(nonce, clock.get() + 120_000, clock.get()));
            nonces.add(nonce);
        }

        HazelcastInstance survivor = members.get(2);
        members.get(0).getLifecycleService().terminate();
        members.get(1).getLifecycleService().terminate();
        rooms.get(0).close();
        rooms.get(1).close();
        WaitingRooms left = rooms.get(2);

        for (String show : shows) {
            for (int f = 0; f < 30; f++) {
                RoomView was = before.get(show + "/fan-" + f);
                RoomView now = left.lookup(show, "fan-" + f).orElseThrow();
                assertEquals(was.position(), now.position(), show + " fan-" + f + " kept its place");
                if (was.admittedAt() > 0) {
                    assertEquals(was.admittedAt(), now.admittedAt(), show + " fan-" + f + " keeps its admission and pass");
                }
            }
            RoomView room = left.lookup(show, null).orElseThrow();
            assertEquals(before.get(show + "/fan-0").admittedUpTo(), room.admittedUpTo(), show + " admissions kept");
            long late = left.join(show, "late-fan").orElseThrow().position();
            assertEquals(31, late, show + ": a fan joining after the loss comes after every earlier one");
        }
        assertTrue(rebuilt.get() > 0, "no room was lost with the two members: the test proved nothing");
        SpentChallenges after = new SpentChallenges(survivor, new SpentChallengeStore(db, clock::get));
        for (String nonce : nonces) {
            assertFalse(after.spend(nonce, clock.get() + 120_000, clock.get()), nonce + " was spent before the loss");
        }
    }
}
