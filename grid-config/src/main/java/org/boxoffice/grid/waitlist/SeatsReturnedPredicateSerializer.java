package org.boxoffice.grid.waitlist;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;

public final class SeatsReturnedPredicateSerializer implements CompactSerializer<SeatsReturnedPredicate> {
    @Override
    public SeatsReturnedPredicate read(CompactReader in) {
        return new SeatsReturnedPredicate();
    }

    @Override
    public void write(CompactWriter out, SeatsReturnedPredicate p) {
    }

    @Override
    public String getTypeName() {
        return "SeatsReturnedPredicate";
    }

    @Override
    public Class<SeatsReturnedPredicate> getCompactClass() {
        return SeatsReturnedPredicate.class;
    }
}
