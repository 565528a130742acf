package org.boxoffice.grid;

import com.hazelcast.map.EntryProcessor;
import org.boxoffice.domain.AccountAllowance;

import java.util.Map;

/**
 * Applies an {@link AllowanceCommand} to one account's allowance, on its partition. Returns how
 * many more seats the account may take (-1 when the command was accepted).
 */
public record AllowanceProcessor(AllowanceCommand command) implements EntryProcessor<AllowanceKey, AccountAllowance, Integer> {

    @Override
    public Integer process(Map.Entry<AllowanceKey, AccountAllowance> entry) {
        AccountAllowance current = entry.getValue() == null ? AccountAllowance.empty() : entry.getValue();
        return switch (command.decide(current)) {
            case AccountAllowance.Decision.Reserved r -> {
                if (!r.next().equals(current) || entry.getValue() == null) {
                    entry.setValue(r.next());
                }
                yield -1;
            }
            case AccountAllowance.Decision.Rejected r -> r.remaining();
        };
    }
}
