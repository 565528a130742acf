package org.boxoffice.grid;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import org.boxoffice.domain.AccountAllowance;

/**
 * The per-account, per-show seat limit on the grid. A reservation is taken before the seats are
 * claimed and given back if the claim fails; a reservation left behind by a crash lapses with the
 * hold's expiry, so nobody is locked out for longer than a hold lasts.
 */
public final class Allowances {

    private final IMap<AllowanceKey, AccountAllowance> map;

    public Allowances(HazelcastInstance hz) {
        this(hz, GridMaps.ALLOWANCES);
    }

    /** Allowances kept in the map {@code mapName} (a member's rehearsal uses a map of its own). */
    public Allowances(HazelcastInstance hz, String mapName) {
        this.map = hz.getMap(mapName);
    }

    /** Reserves seats for a new hold; returns -1 if reserved, else how many seats the account may still take. */
    public int reserve(String showId, String accountId, String holdId, int seats, long expiresAt, long now,
                       long graceMillis, int max) {
        return run(showId, accountId, new AllowanceCommand.Reserve(holdId, seats, expiresAt, now, graceMillis, max));
    }

    public void release(String showId, String accountId, String holdId) {
        run(showId, accountId, new AllowanceCommand.Release(holdId));
    }

    public void confirm(String showId, String accountId, String holdId) {
        run(showId, accountId, new AllowanceCommand.Confirm(holdId));
    }

    public void extend(String showId, String accountId, String holdId, long expiresAt) {
        run(showId, accountId, new AllowanceCommand.Extend(holdId, expiresAt));
    }

    public void cancelSale(String showId, String accountId, int seats) {
        run(showId, accountId, new AllowanceCommand.CancelSale(seats));
    }

    private int run(String showId, String accountId, AllowanceCommand command) {
        try {
            return map.executeOnKey(new AllowanceKey(showId, accountId), new AllowanceProcessor(command));
        } catch (RuntimeException e) {
            throw new InventoryUnavailableException("account limits cannot be checked now: " + e.getMessage(), e);
        }
    }
}
