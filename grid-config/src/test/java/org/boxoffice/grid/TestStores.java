package org.boxoffice.grid;

import com.hazelcast.map.MapLoader;
import com.hazelcast.map.MapStore;
import org.boxoffice.domain.AccountAllowance;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.SeatBlock;
import org.boxoffice.grid.catalog.EventListing;
import org.boxoffice.grid.member.GridMember;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The member's stores over an in-memory referee, for the grid's own tests (the PostgreSQL stores
 * live in the mapstore module, which depends on this one; their tests start members with them).
 * Each call goes straight to the repository, as the real stores do.
 */
public final class TestStores {

    private TestStores() {
    }

    /** Blocks from {@code referee}; no catalog listings; waitlist queues in memory only. */
    public static GridMember.Stores of(InventoryRepository referee) {
        return new GridMember.Stores(new Blocks(referee), new NoListings(), null);
    }

    private record Blocks(InventoryRepository referee) implements MapStore<BlockKey, SeatBlock> {
        @Override
        public void store(BlockKey key, SeatBlock value) {
            referee.apply(value);
        }

        @Override
        public void storeAll(Map<BlockKey, SeatBlock> values) {
            values.values().forEach(referee::apply);
        }

        @Override
        public void delete(BlockKey key) {
        }

        @Override
        public void deleteAll(Collection<BlockKey> keys) {
        }

        @Override
        public SeatBlock load(BlockKey key) {
            return referee.load(key.showId(), key.blockId()).orElse(null);
        }

        @Override
        public Map<BlockKey, SeatBlock> loadAll(Collection<BlockKey> keys) {
            Map<BlockKey, SeatBlock> out = new HashMap<>();
            keys.forEach(k -> referee.load(k.showId(), k.blockId()).ifPresent(b -> out.put(k, b)));
            return out;
        }

        @Override
        public Iterable<BlockKey> loadAllKeys() {
            return null;
        }
    }

    private static final class NoListings implements MapLoader<String, EventListing> {
        @Override
        public EventListing load(String key) {
            return null;
        }

        @Override
        public Map<String, EventListing> loadAll(Collection<String> keys) {
            return Map.of();
        }

        @Override
        public Iterable<String> loadAllKeys() {
            return java.util.List.of();
        }
    }
}
