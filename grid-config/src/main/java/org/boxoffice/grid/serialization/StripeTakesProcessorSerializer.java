package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.grid.StripeCommand;
import org.boxoffice.grid.StripeProcessor;
import org.boxoffice.grid.StripeTakesProcessor;

import java.util.ArrayList;
import java.util.List;

/** The takes as an array of {@link StripeProcessor}s, each carrying one TAKE (its schema, reused). */
public final class StripeTakesProcessorSerializer implements CompactSerializer<StripeTakesProcessor> {

    @Override
    public StripeTakesProcessor read(CompactReader in) {
        StripeProcessor[] each = in.readArrayOfCompact("takes", StripeProcessor.class);
        List<StripeCommand.Take> takes = new ArrayList<>(each.length);
        for (StripeProcessor p : each) {
            if (!(p.command() instanceof StripeCommand.Take take)) {
                throw new IllegalArgumentException("combined takes carry takes only, not " + p.command());
            }
            takes.add(take);
        }
        return new StripeTakesProcessor(takes);
    }

    @Override
    public void write(CompactWriter out, StripeTakesProcessor processor) {
        out.writeArrayOfCompact("takes", processor.takes().stream().map(StripeProcessor::new).toArray(StripeProcessor[]::new));
    }

    @Override
    public String getTypeName() {
        return "StripeTakesProcessor";
    }

    @Override
    public Class<StripeTakesProcessor> getCompactClass() {
        return StripeTakesProcessor.class;
    }
}
