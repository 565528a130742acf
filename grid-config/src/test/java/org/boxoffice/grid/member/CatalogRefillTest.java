package org.boxoffice.grid.member;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.MapLoader;
import org.boxoffice.grid.GridMaps;
import org.boxoffice.grid.GridSettings;
import org.boxoffice.grid.InMemoryInventoryRepository;
import org.boxoffice.grid.TestStores;
import org.boxoffice.grid.catalog.EventListing;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The catalog's listings after members leave: three real members with one backup; losing two at
 * once loses partitions with all their copies, and the listings they held are loaded again.
 */
class CatalogRefillTest {

    private static final int EVENTS = 60;

    private final List<HazelcastInstance> members = new ArrayList<>();
    private final AtomicInteger fullLoads = new AtomicInteger();

    @AfterEach
    void stop() {
        members.forEach(m -> m.getLifecycleService().terminate());
    }

    /** The catalog as the referee has it: {@value #EVENTS} events; counts the full loads. */
    private final class Listings implements MapLoader<String, EventListing> {
        @Override
        public EventListing load(String key) {
            return key.startsWith("e") ? listing(key) : null;
        }

        @Override
        public Map<String, EventListing> loadAll(Collection<String> keys) {
            Map<String, EventListing> out = new HashMap<>();
            keys.forEach(k -> out.put(k, listing(k)));
            return out;
        }

        @Override
        public Iterable<String> loadAllKeys() {
            fullLoads.incrementAndGet();
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < EVENTS; i++) {
                keys.add("e" + i);
            }
            return keys;
        }
    }

    private static EventListing listing(String id) {
        return new EventListing(id, "Title " + id, "Artist", "concert", "", "v1", "Venue", "Berlin", 1, 2);
    }

    private IMap<String, EventListing> startThree() {
        InMemoryInventoryRepository repo = new InMemoryInventoryRepository();
        String cluster = "test-" + UUID.randomUUID();
        int port = 15701 + (int) (Math.random() * 2000);
        List<String> all = List.of("127.0.0.1:" + port, "127.0.0.1:" + (port + 1), "127.0.0.1:" + (port + 2));
        for (int i = 0; i < 3; i++) {
            GridMember.Stores test = TestStores.of(repo);
            members.add(GridMember.start(GridSettings.loopback(cluster, port + i, all),
                    new GridMember.Stores(test.inventory(), new Listings(), null)));
        }
        IMap<String, EventListing> listings = members.get(0).getMap(GridMaps.CATALOG_EVENTS);
        assertEquals(EVENTS, listings.size(), "every listing is loaded when the map is first used");
        assertEquals(1, fullLoads.get());
        return listings;
    }

    private static void awaitMembers(HazelcastInstance member, int count) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (member.getCluster().getMembers().size() > count && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(count, member.getCluster().getMembers().size());
    }

    @Test
    void twoOfThreeMembersLostAtOnce_theSurvivorHasEveryListingAgain() throws Exception {
        startThree();
        // Hazelcast loads the whole map again by itself when the member that ran its key load (the
        // owner of the map name's partition) is lost; that member survives here, so only the refill
        // can bring the lost listings back
        var keyLoader = members.get(0).getPartitionService().getPartition(GridMaps.CATALOG_EVENTS).getOwner();
        HazelcastInstance survivor = members.stream()
                .filter(m -> m.getCluster().getLocalMember().getUuid().equals(keyLoader.getUuid())).findFirst().orElseThrow();
        List<HazelcastInstance> lost = members.stream().filter(m -> m != survivor).toList();

        // with one backup, a third of the partitions had both copies on these two members
        Thread other = new Thread(() -> lost.get(0).getLifecycleService().terminate());
        other.start();
        lost.get(1).getLifecycleService().terminate();
        other.join();
        awaitMembers(survivor, 1);

        IMap<String, EventListing> listings = survivor.getMap(GridMaps.CATALOG_EVENTS);
        long deadline = System.currentTimeMillis() + 30_000;
        while ((listings.size() < EVENTS || fullLoads.get() < 2) && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(EVENTS, listings.size(), "every event is listed again");
        assertEquals(2, fullLoads.get(), "the catalog was loaded once more, for all the lost partitions together");
        assertEquals(listing("e7"), listings.get("e7"));
    }

    @Test
    void oneOfThreeMembersLost_nothingIsLostAndNothingReloads() throws Exception {
        IMap<String, EventListing> listings = startThree();

        members.get(2).getLifecycleService().terminate();
        awaitMembers(members.get(0), 2);
        Thread.sleep(CatalogRefill.SETTLE_MILLIS + 2_000);

        assertEquals(EVENTS, listings.size(), "the backups kept every listing");
        assertEquals(1, fullLoads.get(), "no partition lost all its copies, so nothing was loaded again");
    }
}
