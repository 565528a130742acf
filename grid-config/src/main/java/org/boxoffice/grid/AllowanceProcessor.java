package org.boxoffice.grid;

import com.hazelcast.map.EntryProcessor;
import org.boxoffice.domain.AccountAllowance;

import java.util.Map;

/**
 * Applies an {@link AllowanceCommand} to one account's allowance, on its partition. Returns how
 * many more seats the account may take (-1 when the command was accepted), or {@link #UNKNOWN}.
 *
 * @param known the account's seats as the referee counts them, for an account the grid does not
 *              know yet; null when the caller has not read them. A reservation for an unknown
 *              account without them answers {@link #UNKNOWN} and changes nothing; any other
 *              command leaves an unknown account alone (the referee counts what it would record).
 *              An account the grid knows keeps its entry: {@code known} is then ignored, since a
 *              reservation made while the caller read the referee is only in the grid.
 */
public record AllowanceProcessor(AllowanceCommand command, AccountAllowance known)
        implements EntryProcessor<AllowanceKey, AccountAllowance, Integer> {

    /** The grid does not know the account: read its seats from the referee and ask again with them. */
    public static final int UNKNOWN = Integer.MIN_VALUE;

    @Override
    public Integer process(Map.Entry<AllowanceKey, AccountAllowance> entry) {
        AccountAllowance current = entry.getValue() != null ? entry.getValue() : known;
        if (current == null) {
            return command instanceof AllowanceCommand.Reserve ? UNKNOWN : -1;
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
}
