package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.grid.StripeClaimsProcessor;
import org.boxoffice.grid.StripeCommand;
import org.boxoffice.grid.StripeProcessor;

import java.util.ArrayList;
import java.util.List;

/** The claims as an array of {@link StripeProcessor}s, each carrying one TAKE (its schema, reused). */
public final class StripeClaimsProcessorSerializer implements CompactSerializer<StripeClaimsProcessor> {

    @Override
    public StripeClaimsProcessor read(CompactReader in) {
        StripeProcessor[] each = in.readArrayOfCompact("claims", StripeProcessor.class);
        List<StripeCommand.Take> claims = new ArrayList<>(each.length);
        for (StripeProcessor p : each) {
            if (!(p.command() instanceof StripeCommand.Take take)) {
                throw new IllegalArgumentException("a combined claim carries takes only, not " + p.command());
            }
            claims.add(take);
        }
        return new StripeClaimsProcessor(claims);
    }

    @Override
    public void write(CompactWriter out, StripeClaimsProcessor processor) {
        out.writeArrayOfCompact("claims", processor.claims().stream().map(StripeProcessor::new)
                .toArray(StripeProcessor[]::new));
    }

    @Override
    public String getTypeName() {
        return "StripeClaimsProcessor";
    }

    @Override
    public Class<StripeClaimsProcessor> getCompactClass() {
        return StripeClaimsProcessor.class;
    }
}
