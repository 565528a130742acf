package org.boxoffice.grid;

import org.boxoffice.domain.AdmissionStripe;
import org.boxoffice.domain.HoldPolicy;

/**
 * What one stripe of a general-admission area has, in four numbers: what a claim that looks for
 * admissions, a count of what is left and a rebalancing need from it, without its holds' parts
 * (which a stripe of a busy area carries by the hundred, and which a read of whole stripes ships
 * and copies every time).
 *
 * @param free       admissions free at the moment counted
 * @param capacity   the stripe's capacity
 * @param version    the referee row's version the stripe is at
 * @param firstLapse the earliest moment after the count that a hold's part here lapses ({@link Long#MAX_VALUE}: none)
 */
public record StripeCount(int free, int capacity, long version, long firstLapse) {

    /** {@code stripe}'s count at {@code now}. */
    static StripeCount of(AdmissionStripe stripe, long now, long graceMillis) {
        long first = Long.MAX_VALUE;
        for (AdmissionStripe.Part p : stripe.parts()) {
            long lapse = HoldPolicy.lapsesAt(p.expiresAt(), graceMillis);
            if (lapse > now) { // a part lapsed already counts as free, until a command ends it
                first = Math.min(first, lapse);
            }
        }
        return new StripeCount(stripe.free(now, graceMillis), stripe.capacity(), stripe.version(), first);
    }
}
