package org.boxoffice.grid.waitlist;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;

public final class AdmissionsReturnedPredicateSerializer implements CompactSerializer<AdmissionsReturnedPredicate> {
    @Override
    public AdmissionsReturnedPredicate read(CompactReader in) {
        return new AdmissionsReturnedPredicate();
    }

    @Override
    public void write(CompactWriter out, AdmissionsReturnedPredicate p) {
    }

    @Override
    public String getTypeName() {
        return "AdmissionsReturnedPredicate";
    }

    @Override
    public Class<AdmissionsReturnedPredicate> getCompactClass() {
        return AdmissionsReturnedPredicate.class;
    }
}
