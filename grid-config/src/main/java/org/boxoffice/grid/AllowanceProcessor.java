package org.boxoffice.grid;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.map.EntryProcessor;
import org.boxoffice.domain.AccountAllowance;

import java.util.Map;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Applies an {@link AllowanceCommand} to one account's allowance, on its partition. Returns how
 * many more seats the account may take (-1 when the command was accepted), or {@link #UNKNOWN}.
 *
 * <p>{@code known} is the account's seats as the referee counts them, for an account the grid does
 * not know yet; null when the caller has not read them. A reservation for an unknown account
 * without them answers {@link #UNKNOWN} and changes nothing; any other command leaves an unknown
 * account alone (the referee counts what it would record). An account the grid knows keeps its
 * entry: {@code known} is then ignored, since a reservation made while the caller read the referee
 * is only in the grid.
 *
 * <p><b>A caller of the previous release</b> (during a rolling upgrade) sends no {@code known}
 * and reads any answer below zero as "reserved", {@link #UNKNOWN} included: for such a caller the
 * owner reads the referee itself, the one its member's {@link Allowances} read (on the partition thread,
 * as that release's map loader did), so its reservations keep the limit. The value read travels
 * on to the backup with the processor, so the backup reads nothing.
 */
public final class AllowanceProcessor implements EntryProcessor<AllowanceKey, AccountAllowance, Integer>,
        HazelcastInstanceAware {

    /** The grid does not know the account: read its seats from the referee and ask again with them. */
    public static final int UNKNOWN = Integer.MIN_VALUE;

    private static final Logger LOG = Logger.getLogger(AllowanceProcessor.class.getName());

    private final AllowanceCommand command;
    private final boolean fromPreviousRelease;
    private AccountAllowance known;
    private transient HazelcastInstance hz;

    public AllowanceProcessor(AllowanceCommand command, AccountAllowance known) {
        this(command, known, false);
    }

    private AllowanceProcessor(AllowanceCommand command, AccountAllowance known, boolean fromPreviousRelease) {
        this.command = Objects.requireNonNull(command);
        this.known = known;
        this.fromPreviousRelease = fromPreviousRelease;
    }

    /** As a member of the previous release sends it: no {@code known}, and no use for {@link #UNKNOWN}. */
    public static AllowanceProcessor fromPreviousRelease(AllowanceCommand command) {
        return new AllowanceProcessor(command, null, true);
    }

    public AllowanceCommand command() {
        return command;
    }

    public AccountAllowance known() {
        return known;
    }

    /** Sent by a member of the previous release, and the referee not read for it yet. */
    public boolean fromPreviousRelease() {
        return fromPreviousRelease && known == null;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hz) {
        this.hz = hz;
    }

    @Override
    public Integer process(Map.Entry<AllowanceKey, AccountAllowance> entry) {
        AccountAllowance current = entry.getValue() != null ? entry.getValue() : known;
        if (current == null) {
            if (!(command instanceof AllowanceCommand.Reserve)) {
                return -1;
            }
            if (!fromPreviousRelease) {
                return UNKNOWN;
            }
            current = readForPreviousRelease(entry.getKey());
            if (current == null) {
                return 0; // no referee to read: refused as over the limit rather than let through unchecked
            }
            known = current;
        }
        return switch (command.decide(current)) {
            case AccountAllowance.Decision.Reserved r -> {
                if (!r.next().equals(current) || entry.getValue() == null) {
                    entry.setValue(r.next());
                }
                yield -1;
            }
            case AccountAllowance.Decision.Rejected r -> {
                if (entry.getValue() == null) {
                    entry.setValue(current); // known now: the next request needs no read
                }
                yield r.remaining();
            }
        };
    }

    private AccountAllowance readForPreviousRelease(AllowanceKey key) {
        Allowances.Referee referee = hz == null ? null
                : hz.getUserContext().get(Allowances.CONTEXT_KEY) instanceof Allowances.Referee r ? r : null;
        if (referee == null) {
            LOG.warning("a reservation from a member of the previous release, and no referee on this member: refused");
            return null;
        }
        try {
            return referee.allowance(key.showId(), key.accountId());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "reading an allowance for a member of the previous release failed: refused", e);
            return null;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AllowanceProcessor p && command.equals(p.command) && Objects.equals(known, p.known)
                && fromPreviousRelease() == p.fromPreviousRelease();
    }

    @Override
    public int hashCode() {
        return Objects.hash(command, known, fromPreviousRelease());
    }

    @Override
    public String toString() {
        return "AllowanceProcessor[" + command + (known != null ? ", known " + known : "")
                + (fromPreviousRelease() ? ", from the previous release" : "") + "]";
    }
}
