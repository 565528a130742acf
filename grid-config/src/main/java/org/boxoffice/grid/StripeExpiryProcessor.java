package org.boxoffice.grid;

import com.hazelcast.core.ReadOnly;
import com.hazelcast.map.EntryProcessor;
import org.boxoffice.domain.AdmissionStripe;

import java.util.Map;

/**
 * The earliest expiry among a stripe's holds' parts ({@link Long#MAX_VALUE}: none), read where the
 * stripe lives: what the sweeper needs to tell whether a stripe has a lapsed part to end, without
 * shipping the stripe (a stripe of a busy area carries hundreds of parts, and a read of every stripe
 * a member owns, twice a second, kept its partition threads busy serializing them while claims
 * waited). Read-only: no backup, no store. Null if there is no such stripe.
 */
public record StripeExpiryProcessor() implements EntryProcessor<StripeKey, AdmissionStripe, Long>, ReadOnly {

    @Override
    public Long process(Map.Entry<StripeKey, AdmissionStripe> entry) {
        AdmissionStripe stripe = entry.getValue();
        if (stripe == null) {
            return null;
        }
        long earliest = Long.MAX_VALUE;
        for (AdmissionStripe.Part p : stripe.parts()) {
            earliest = Math.min(earliest, p.expiresAt());
        }
        return earliest;
    }

    @Override
    public EntryProcessor<StripeKey, AdmissionStripe, Long> getBackupProcessor() {
        return null;
    }
}
