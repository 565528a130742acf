package org.boxoffice.mapstore;

import org.boxoffice.grid.AllowanceKey;
import com.hazelcast.map.MapLoader;
import org.boxoffice.domain.AccountAllowance;
import org.boxoffice.domain.InventoryRepository;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Rebuilds an account's allowance from the referee's seat rows when the grid has none (first use,
 * after idle eviction, after losing a member without backups). The allowance is a limit, not the
 * invariant: the referee's seat rows stay the truth.
 */
public final class AllowanceMapLoader implements MapLoader<AllowanceKey, AccountAllowance> {

    private final InventoryRepository repository;

    public AllowanceMapLoader(InventoryRepository repository) {
        this.repository = repository;
    }

    @Override
    public AccountAllowance load(AllowanceKey key) {
        return repository.allowance(key.showId(), key.accountId());
    }

    @Override
    public Map<AllowanceKey, AccountAllowance> loadAll(Collection<AllowanceKey> keys) {
        Map<AllowanceKey, AccountAllowance> out = new HashMap<>();
        keys.forEach(k -> out.put(k, load(k)));
        return out;
    }

    @Override
    public Iterable<AllowanceKey> loadAllKeys() {
        return null;
    }
}
