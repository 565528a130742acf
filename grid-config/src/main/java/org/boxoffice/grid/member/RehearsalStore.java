package org.boxoffice.grid.member;

import com.hazelcast.map.MapStore;

import java.util.Collection;
import java.util.Map;

/**
 * The store of the rehearsal maps ({@code GridMaps.REHEARSAL_PREFIX}): called where the referee's
 * store is, on the same offloaded threads, and keeps nothing. A rehearsal's blocks are put in
 * memory when its show is made and are gone with its map; nothing is ever loaded.
 */
final class RehearsalStore implements MapStore<Object, Object> {

    @Override
    public void store(Object key, Object value) {
    }

    @Override
    public void storeAll(Map<Object, Object> map) {
    }

    @Override
    public void delete(Object key) {
    }

    @Override
    public void deleteAll(Collection<Object> keys) {
    }

    @Override
    public Object load(Object key) {
        return null;
    }

    @Override
    public Map<Object, Object> loadAll(Collection<Object> keys) {
        return Map.of();
    }

    @Override
    public Iterable<Object> loadAllKeys() {
        return null;
    }
}
