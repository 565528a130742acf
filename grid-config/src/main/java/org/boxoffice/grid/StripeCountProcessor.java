package org.boxoffice.grid;

import com.hazelcast.core.ReadOnly;
import com.hazelcast.map.EntryProcessor;
import org.boxoffice.domain.AdmissionStripe;

import java.util.Map;

/**
 * Counts one stripe where it lives ({@link StripeCount}) and sends back only the count: read-only,
 * so it changes nothing, has no backup to run, and never calls the store (a stripe not in memory
 * is loaded from the referee first, as for any read). Null if there is no such stripe.
 */
public record StripeCountProcessor(long now, long graceMillis)
        implements EntryProcessor<StripeKey, AdmissionStripe, StripeCount>, ReadOnly {

    @Override
    public StripeCount process(Map.Entry<StripeKey, AdmissionStripe> entry) {
        AdmissionStripe stripe = entry.getValue();
        return stripe == null ? null : StripeCount.of(stripe, now, graceMillis);
    }

    @Override
    public EntryProcessor<StripeKey, AdmissionStripe, StripeCount> getBackupProcessor() {
        return null;
    }
}
