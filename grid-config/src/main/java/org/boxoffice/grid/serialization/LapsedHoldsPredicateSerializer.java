package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.grid.LapsedHoldsPredicate;

public final class LapsedHoldsPredicateSerializer implements CompactSerializer<LapsedHoldsPredicate> {
    @Override
    public LapsedHoldsPredicate read(CompactReader in) {
        return new LapsedHoldsPredicate(in.readInt64("now"), in.readInt64("grace"));
    }

    @Override
    public void write(CompactWriter out, LapsedHoldsPredicate p) {
        out.writeInt64("now", p.now());
        out.writeInt64("grace", p.graceMillis());
    }

    @Override
    public String getTypeName() {
        return "LapsedHoldsPredicate";
    }

    @Override
    public Class<LapsedHoldsPredicate> getCompactClass() {
        return LapsedHoldsPredicate.class;
    }
}
