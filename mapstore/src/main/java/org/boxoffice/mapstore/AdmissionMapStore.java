package org.boxoffice.mapstore;

import com.hazelcast.map.MapStore;
import org.boxoffice.domain.AdmissionRepository;
import org.boxoffice.domain.AdmissionStripe;
import org.boxoffice.grid.StripeKey;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Write-through store of the general-admission stripes onto the durable referee, as
 * {@link InventoryMapStore} is for seats: {@link #store} runs before the new value is put in memory
 * and applies its change in one transaction; if the referee refuses (the row moved on, or the change
 * would go beyond the stripe's capacity) it throws (a {@link StaleCopyException}: a normal path,
 * not logged as an error), memory keeps the old value and the caller drops the copy so that it reloads. Runs on Hazelcast's offloaded map-store threads.
 */
public final class AdmissionMapStore implements MapStore<StripeKey, AdmissionStripe> {

    private final AdmissionRepository repository;

    public AdmissionMapStore(AdmissionRepository repository) {
        this.repository = repository;
    }

    @Override
    public void store(StripeKey key, AdmissionStripe value) {
        StaleCopyException.refusedQuietly(() -> repository.apply(value));
    }

    @Override
    public void storeAll(Map<StripeKey, AdmissionStripe> values) {
        StaleCopyException.refusedQuietly(() -> values.values().forEach(repository::apply));
    }

    /** Stripes are never removed through the grid; evictions must not touch the referee. */
    @Override
    public void delete(StripeKey key) {
    }

    @Override
    public void deleteAll(Collection<StripeKey> keys) {
    }

    @Override
    public AdmissionStripe load(StripeKey key) {
        return repository.loadStripe(key.showId(), key.area(), key.stripe()).orElse(null);
    }

    @Override
    public Map<StripeKey, AdmissionStripe> loadAll(Collection<StripeKey> keys) {
        Map<StripeKey, AdmissionStripe> out = new HashMap<>();
        for (StripeKey key : keys) {
            AdmissionStripe s = load(key);
            if (s != null) {
                out.put(key, s);
            }
        }
        return out;
    }

    /** Lazy: stripes load on first use. */
    @Override
    public Iterable<StripeKey> loadAllKeys() {
        return null;
    }
}
