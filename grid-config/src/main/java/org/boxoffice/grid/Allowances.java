package org.boxoffice.grid;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import org.boxoffice.domain.AccountAllowance;
import org.boxoffice.domain.InventoryRepository;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

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
 *
 * <p><b>A new show's buyers need no read.</b> A show created on this cluster has no seats in
 * anyone's hands, and from then on every account that takes some has an entry here (each hold
 * reserves first). So {@link #newShow} marks the show <em>complete</em>, and a reservation for an
 * account the grid does not know starts from nothing, with no read and no second grid call: in an
 * on-sale nearly every buyer is new, and this was a PostgreSQL read and a grid call per winner. The
 * mark holds only while nothing can have dropped an entry of the show:
 * <ul>
 *   <li>an entry goes after {@value #MAX_IDLE_SECONDS} s without use, and none is made before the
 *       sale opens, so a mark lasts until that long after the later of the creation and the sale's
 *       opening (less a minute for members' clocks), then lapses by itself;
 *   <li>a partition of the allowances lost with its backups (more members lost at once than the
 *       backup count) removes every mark, on every member, as soon as the loss is detected;
 *   <li>the marks live in the grid only: a whole-cluster restart, which empties the allowances,
 *       leaves none.
 * </ul>
 * Without a mark, an account the grid does not know is read from the referee as before.
 */
public final class Allowances {

    private static final Logger LOG = Logger.getLogger(Allowances.class.getName());

    /** An account's entry in a show goes after this long without use (the map's max idle). */
    public static final int MAX_IDLE_SECONDS = 3600;
    /** Members' clocks may differ by this much: a mark ends this much before an entry could go. */
    static final long CLOCK_MARGIN_MILLIS = 60_000;
    /** How long this member trusts "this show has no mark" before it asks the grid again. */
    static final long UNMARKED_RECHECK_MILLIS = 5_000;

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
    /** Shows marked complete, to until when ({@link #newShow}); null when this instance keeps none (a rehearsal's). */
    private final IMap<String, Long> complete;
    /** What this member last learned of a show's mark. */
    private final Map<String, Mark> marks = new ConcurrentHashMap<>();

    /** A show's mark as this member knows it: complete until {@code until} (0: not marked), asked again at {@code recheckAt}. */
    private record Mark(long until, long recheckAt) {
    }

    public Allowances(HazelcastInstance hz, InventoryRepository referee) {
        this(hz, GridMaps.ALLOWANCES, referee::allowance);
    }

    /** Allowances kept in the map {@code mapName} (a member's rehearsal uses a map of its own). */
    public Allowances(HazelcastInstance hz, String mapName, Referee referee) {
        this.map = hz.getMap(mapName);
        this.referee = referee;
        hz.getUserContext().put(CONTEXT_KEY, referee);
        if (GridMaps.ALLOWANCES.equals(mapName)) {
            this.complete = hz.getMap(GridMaps.ALLOWANCES_COMPLETE);
            // entries lost with their backups: no show is complete any more, on any member (each
            // member hears the loss and forgets its own marks; removing the grid's is idempotent)
            map.addPartitionLostListener(event -> {
                marks.clear();
                LOG.warning("partition " + event.getPartitionId() + " of the account allowances was lost: accounts "
                        + "the grid does not know are read from the referee again, in every show");
                try {
                    complete.clear();
                } catch (RuntimeException e) {
                    LOG.warning("could not remove the shows' complete marks now: " + e.getMessage());
                }
                marks.clear();
            });
        } else {
            this.complete = null;
        }
    }

    /**
     * Marks a show just created on this cluster complete: none of its seats is in anyone's hands
     * yet, so an account the grid does not know has none. Call it once the show is saved and
     * before it is announced; a later call (a show that may have holds) would be wrong.
     */
    public void newShow(String showId, long opensAt, long now) {
        if (complete == null) {
            return;
        }
        long until = Math.max(now, opensAt) + TimeUnit.SECONDS.toMillis(MAX_IDLE_SECONDS) - CLOCK_MARGIN_MILLIS;
        complete.set(showId, until, until - now, TimeUnit.MILLISECONDS);
        marks.put(showId, new Mark(until, Long.MAX_VALUE));
    }

    /** Whether an account the grid does not know has no seats of {@code showId} ({@link #newShow}). */
    boolean knownComplete(String showId, long now) {
        if (complete == null) {
            return false;
        }
        Mark mark = marks.get(showId);
        if (mark == null || now >= mark.recheckAt()) {
            Long until;
            try {
                until = complete.get(showId);
            } catch (RuntimeException e) {
                return false; // unsure: read the referee
            }
            mark = until != null ? new Mark(until, until) : new Mark(0, now + UNMARKED_RECHECK_MILLIS);
            marks.put(showId, mark);
        }
        return now < mark.until();
    }

    /** Reserves seats for a new hold; returns -1 if reserved, else how many seats the account may still take. */
    public int reserve(String showId, String accountId, String holdId, int seats, long expiresAt, long now,
                       long graceMillis, int max) {
        AllowanceCommand.Reserve reserve = new AllowanceCommand.Reserve(holdId, seats, expiresAt, now, graceMillis, max);
        AccountAllowance start = knownComplete(showId, now) ? AccountAllowance.empty() : null;
        int answer = run(showId, accountId, new AllowanceProcessor(reserve, start));
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
