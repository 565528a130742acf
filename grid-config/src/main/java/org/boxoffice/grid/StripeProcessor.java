package org.boxoffice.grid;

import com.hazelcast.map.EntryProcessor;
import org.boxoffice.domain.AdmissionStripe;

import java.util.Map;

/**
 * Runs one {@link StripeCommand} against a stripe of a general-admission area, on the partition that
 * owns it. Thin and deterministic, as {@link BlockCommandProcessor}: read the value, ask the domain,
 * {@code setValue} a new immutable value only if it changed (the write-through store puts it in
 * PostgreSQL first; if the referee refuses, memory keeps the old value). Returns how many admissions
 * the command moved, or -1 if there is no such stripe.
 */
public record StripeProcessor(StripeCommand command) implements EntryProcessor<StripeKey, AdmissionStripe, Integer> {

    @Override
    public Integer process(Map.Entry<StripeKey, AdmissionStripe> entry) {
        AdmissionStripe current = entry.getValue();
        if (current == null) {
            return -1;
        }
        AdmissionStripe.Taken outcome = command.decide(current);
        if (outcome.next() != null) {
            entry.setValue(outcome.next());
        }
        return outcome.quantity();
    }
}
