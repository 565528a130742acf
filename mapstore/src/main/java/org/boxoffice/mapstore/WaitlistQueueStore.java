package org.boxoffice.mapstore;

import com.hazelcast.collection.QueueStore;
import com.hazelcast.collection.QueueStoreFactory;
import org.boxoffice.domain.WaitlistEntry;
import org.boxoffice.domain.WaitlistRepository;
import org.boxoffice.grid.waitlist.Waitlists;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Writes one show's waitlist queue through to the referee. Hazelcast calls it on the partition
 * thread of the queue, before it changes the queue in memory: an exception from {@link #store}
 * fails the offer, so an entry is never in the queue without being in PostgreSQL, and the referee's
 * rule of one live entry per account decides between concurrent joins.
 *
 * <p>After a restart the queue calls {@link #loadAllKeys} on first use and keeps the keys in the
 * order returned, so they are returned ascending: the line's order. Values beyond the queue's
 * memory limit, and all of them after a restart, are read back with {@link #load}/{@link #loadAll}.
 */
public final class WaitlistQueueStore implements QueueStore<WaitlistEntry> {

    private final String showId;
    private final WaitlistRepository repository;

    public WaitlistQueueStore(String showId, WaitlistRepository repository) {
        this.showId = showId;
        this.repository = repository;
    }

    /** One store per queue, built by Hazelcast from the queue's name. */
    public static QueueStoreFactory<WaitlistEntry> factory(WaitlistRepository repository) {
        return (name, properties) -> new WaitlistQueueStore(Waitlists.showIdOf(name), repository);
    }

    @Override
    public void store(Long key, WaitlistEntry value) {
        if (!showId.equals(value.showId())) {
            throw new IllegalArgumentException("entry of show " + value.showId() + " offered to the waitlist of " + showId);
        }
        repository.enqueue(key, value);
    }

    @Override
    public void storeAll(Map<Long, WaitlistEntry> map) {
        map.forEach(this::store);
    }

    @Override
    public void delete(Long key) {
        repository.dequeue(showId, key);
    }

    @Override
    public void deleteAll(Collection<Long> keys) {
        keys.forEach(this::delete);
    }

    @Override
    public WaitlistEntry load(Long key) {
        return repository.queued(showId, key).orElse(null);
    }

    @Override
    public Map<Long, WaitlistEntry> loadAll(Collection<Long> keys) {
        return repository.queued(showId, keys);
    }

    @Override
    public Set<Long> loadAllKeys() {
        return new LinkedHashSet<>(repository.queuedItems(showId));
    }
}
