package org.boxoffice.grid;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import org.boxoffice.domain.AccountAllowance;
import org.boxoffice.domain.InventoryRepository;

/**
 * The per-account, per-show seat limit on the grid. A reservation is taken before the seats are
 * claimed and given back if the claim fails; a reservation left behind by a crash lapses with the
 * hold's expiry, so nobody is locked out for longer than a hold lasts.
 *
 * <p>The map has no loader. An account the grid does not know yet (its first hold in a show, or
 * its entry lost with more members than the backups) is read from the referee by the caller, on
 * the request's thread, and handed to the processor as the starting point: a loader would be
 * called by the backup's copy of every processor too, on that member's partition thread, and
 * every new buyer would stop a partition thread of another member for a read of PostgreSQL.
 * Only a reservation needs the account's past; the other commands change nothing in an account
 * the grid does not know, because the referee already counts what they would record.
 */
public final class Allowances {

    /** Where an unknown account's seats in a show are read: the referee's holds and bookings. */
    @FunctionalInterface
    public interface Referee {
        AccountAllowance allowance(String showId, String accountId);
    }

    /**
     * Where this member's {@link Referee} is in its instance's user context: a reservation sent by a
     * member of the previous release is answered from it (see {@link AllowanceProcessor}).
     */
    public static final String CONTEXT_KEY = "boxoffice.allowances";

    private final IMap<AllowanceKey, AccountAllowance> map;
    private final Referee referee;

    public Allowances(HazelcastInstance hz, InventoryRepository referee) {
        this(hz, GridMaps.ALLOWANCES, referee::allowance);
    }

    /** Allowances kept in the map {@code mapName} (a member's rehearsal uses a map of its own). */
    public Allowances(HazelcastInstance hz, String mapName, Referee referee) {
        this.map = hz.getMap(mapName);
        this.referee = referee;
        hz.getUserContext().put(CONTEXT_KEY, referee);
    }

    /** Reserves seats for a new hold; returns -1 if reserved, else how many seats the account may still take. */
    public int reserve(String showId, String accountId, String holdId, int seats, long expiresAt, long now,
                       long graceMillis, int max) {
        AllowanceCommand.Reserve reserve = new AllowanceCommand.Reserve(holdId, seats, expiresAt, now, graceMillis, max);
        int answer = run(showId, accountId, new AllowanceProcessor(reserve, null));
        if (answer != AllowanceProcessor.UNKNOWN) {
            return answer;
        }
        AccountAllowance known;
        try {
            known = referee.allowance(showId, accountId);
        } catch (RuntimeException e) {
            throw new InventoryUnavailableException("account limits cannot be read now: " + e.getMessage(), e);
        }
        return run(showId, accountId, new AllowanceProcessor(reserve, known));
    }

    public void release(String showId, String accountId, String holdId) {
        run(showId, accountId, new AllowanceProcessor(new AllowanceCommand.Release(holdId), null));
    }

    public void confirm(String showId, String accountId, String holdId) {
        run(showId, accountId, new AllowanceProcessor(new AllowanceCommand.Confirm(holdId), null));
    }

    public void extend(String showId, String accountId, String holdId, long expiresAt) {
        run(showId, accountId, new AllowanceProcessor(new AllowanceCommand.Extend(holdId, expiresAt), null));
    }

    public void cancelSale(String showId, String accountId, int seats) {
        run(showId, accountId, new AllowanceProcessor(new AllowanceCommand.CancelSale(seats), null));
    }

    private int run(String showId, String accountId, AllowanceProcessor processor) {
        try {
            return map.executeOnKey(new AllowanceKey(showId, accountId), processor);
        } catch (RuntimeException e) {
            throw new InventoryUnavailableException("account limits cannot be checked now: " + e.getMessage(), e);
        }
    }
}
