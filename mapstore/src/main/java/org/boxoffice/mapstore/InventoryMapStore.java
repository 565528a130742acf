package org.boxoffice.mapstore;

import org.boxoffice.grid.BlockKey;
import com.hazelcast.map.MapStore;
import org.boxoffice.domain.InventoryRepository;
import org.boxoffice.domain.SeatBlock;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Write-through store of the {@code inventory} map onto the durable referee.
 *
 * <p>{@link #store} is called by Hazelcast <em>before</em> the new value is put in memory (write
 * delay 0). It applies the value's transition as a conditional write; if the referee refuses
 * (seat rows moved behind the grid's back) it throws (a {@link StaleCopyException}, which the
 * member does not log as an error), the entry processor's caller gets the
 * exception, memory keeps the old value, and the caller evicts the entry so the next access
 * reloads it from the referee. Runs on Hazelcast's offloaded map-store threads.
 */
public final class InventoryMapStore implements MapStore<BlockKey, SeatBlock> {

    private final InventoryRepository repository;

    public InventoryMapStore(InventoryRepository repository) {
        this.repository = repository;
    }

    @Override
    public void store(BlockKey key, SeatBlock value) {
        StaleCopyException.refusedQuietly(() -> repository.apply(value));
    }

    @Override
    public void storeAll(Map<BlockKey, SeatBlock> values) {
        StaleCopyException.refusedQuietly(() -> values.values().forEach(repository::apply));
    }

    /** Blocks are never removed through the grid; evictions must not touch the referee. */
    @Override
    public void delete(BlockKey key) {
    }

    @Override
    public void deleteAll(Collection<BlockKey> keys) {
    }

    @Override
    public SeatBlock load(BlockKey key) {
        return repository.load(key.showId(), key.blockId()).orElse(null);
    }

    @Override
    public Map<BlockKey, SeatBlock> loadAll(Collection<BlockKey> keys) {
        Map<BlockKey, SeatBlock> out = new HashMap<>();
        for (BlockKey key : keys) {
            repository.load(key.showId(), key.blockId()).ifPresent(b -> out.put(key, b));
        }
        return out;
    }

    /** Lazy: blocks load on first use; the sweeper's reconciliation finds lapsed holds in unloaded blocks. */
    @Override
    public Iterable<BlockKey> loadAllKeys() {
        return null;
    }
}
