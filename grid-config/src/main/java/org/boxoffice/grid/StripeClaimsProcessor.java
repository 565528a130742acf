package org.boxoffice.grid;

import com.hazelcast.map.EntryProcessor;
import org.boxoffice.domain.AdmissionStripe;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Several claims on one stripe of a general-admission area, decided one after another in one pass
 * and stored together: what a member sends for the claims on a stripe that queued while its
 * previous call on the stripe was in flight (see {@code Admissions}), as {@link BlockClaimsProcessor}
 * does for a seat block.
 *
 * <p>Each claim is decided on the value the claims before it left, exactly as if each had been its
 * own {@link StripeProcessor}: a claim that finds too few free takes nothing. The new value carries
 * every change of the pass (see {@link AdmissionStripe#after}), so the write-through store applies
 * them in one transaction and the pass is durable, or fails, as a whole: if the referee refuses it,
 * memory keeps the old value and every claim of the pass fails with it. Deterministic: time and ids
 * come in with the claims, so a backup re-running it reaches the same value.
 *
 * @param claims the claims, in the order they are decided
 */
public record StripeClaimsProcessor(List<StripeCommand.Take> claims)
        implements EntryProcessor<StripeKey, AdmissionStripe, ArrayList<Integer>> {

    public StripeClaimsProcessor {
        claims = List.copyOf(claims);
    }

    /** Per claim, in order: the admissions it took (0: none), or -1 for every claim if there is no such stripe. */
    @Override
    public ArrayList<Integer> process(Map.Entry<StripeKey, AdmissionStripe> entry) {
        AdmissionStripe current = entry.getValue();
        ArrayList<Integer> taken = new ArrayList<>(claims.size());
        if (current == null) {
            claims.forEach(c -> taken.add(-1));
            return taken;
        }
        AdmissionStripe next = null;
        for (StripeCommand.Take claim : claims) {
            AdmissionStripe.Taken outcome = claim.decide(next == null ? current : next);
            if (outcome.next() != null) {
                next = next == null ? outcome.next() : outcome.next().after(next);
            }
            taken.add(outcome.quantity());
        }
        if (next != null) {
            entry.setValue(next);
        }
        return taken;
    }
}
