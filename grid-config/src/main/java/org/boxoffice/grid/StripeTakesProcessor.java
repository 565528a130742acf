package org.boxoffice.grid;

import com.hazelcast.map.EntryProcessor;
import org.boxoffice.domain.AdmissionStripe;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Several holds' takes from one stripe of a general-admission area, decided one after another in
 * one pass and stored together: what a member sends for the takes on a stripe that queued while its
 * previous call on the stripe was in flight (see {@code Admissions}), as {@link BlockClaimsProcessor}
 * does for seats.
 *
 * <p>Each take is decided on the value the takes before it left, exactly as if each had been its
 * own {@link StripeProcessor}. The new value carries one TAKE change with every take of the pass
 * ({@link AdmissionStripe#combinedWith}), so the write-through store applies them in one write and
 * the pass is durable, or fails, as a whole: if the store fails, memory keeps the old value and
 * every take of the pass fails with it. Deterministic: a backup re-running it reaches the same value.
 *
 * @param takes the takes, in the order they are decided
 */
public record StripeTakesProcessor(List<StripeCommand.Take> takes)
        implements EntryProcessor<StripeKey, AdmissionStripe, ArrayList<Integer>> {

    public StripeTakesProcessor {
        takes = List.copyOf(takes);
    }

    /** Per take, in order: the admissions it took (0: the stripe had too few), or -1 for every take if there is no such stripe. */
    @Override
    public ArrayList<Integer> process(Map.Entry<StripeKey, AdmissionStripe> entry) {
        AdmissionStripe current = entry.getValue();
        if (current == null) {
            return new ArrayList<>(Collections.nCopies(takes.size(), -1));
        }
        ArrayList<Integer> taken = new ArrayList<>(takes.size());
        AdmissionStripe next = null;
        for (StripeCommand.Take take : takes) {
            AdmissionStripe.Taken outcome = take.decide(next == null ? current : next);
            if (outcome.next() != null) {
                next = next == null ? outcome.next() : next.combinedWith(outcome.next());
            }
            taken.add(outcome.quantity());
        }
        if (next != null) {
            entry.setValue(next);
        }
        return taken;
    }
}
