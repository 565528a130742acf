package org.boxoffice.grid.waitlist;

import com.hazelcast.query.Predicate;
import org.boxoffice.domain.AdmissionStripe;
import org.boxoffice.grid.StripeKey;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Selects stripe updates that put admissions of a general-admission area back on sale: a release
 * (a buyer's, or a claim giving back what it took), an expiry, sold admissions given back (a
 * cancelled booking once refunded), or any change that ended lapsed holds' parts on its way. The
 * counterpart of {@link SeatsReturnedPredicate}; evaluated on the partition thread for every
 * update of a stripe, so it only reads the new value's change.
 */
public record AdmissionsReturnedPredicate() implements Predicate<StripeKey, AdmissionStripe> {

    private static final Set<AdmissionStripe.Kind> RETURNS = EnumSet.of(AdmissionStripe.Kind.RELEASE,
            AdmissionStripe.Kind.EXPIRE, AdmissionStripe.Kind.RETURN);

    @Override
    public boolean apply(Map.Entry<StripeKey, AdmissionStripe> entry) {
        AdmissionStripe stripe = entry.getValue();
        AdmissionStripe.Change change = stripe == null ? null : stripe.change();
        return change != null && (RETURNS.contains(change.kind()) || !change.ended().isEmpty());
    }
}
