package org.boxoffice.grid.serialization;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import org.boxoffice.grid.BlockClaimsProcessor;
import org.boxoffice.grid.BlockCommand;
import org.boxoffice.grid.BlockCommandProcessor;

import java.util.ArrayList;
import java.util.List;

/** The claims as an array of {@link BlockCommandProcessor}s, each carrying one HOLD (its schema, reused). */
public final class BlockClaimsProcessorSerializer implements CompactSerializer<BlockClaimsProcessor> {

    @Override
    public BlockClaimsProcessor read(CompactReader in) {
        BlockCommandProcessor[] each = in.readArrayOfCompact("claims", BlockCommandProcessor.class);
        List<BlockCommand.Hold> claims = new ArrayList<>(each.length);
        for (BlockCommandProcessor p : each) {
            if (!(p.command() instanceof BlockCommand.Hold hold)) {
                throw new IllegalArgumentException("a combined claim carries holds only, not " + p.command());
            }
            claims.add(hold);
        }
        return new BlockClaimsProcessor(claims);
    }

    @Override
    public void write(CompactWriter out, BlockClaimsProcessor processor) {
        out.writeArrayOfCompact("claims", processor.claims().stream().map(BlockCommandProcessor::new)
                .toArray(BlockCommandProcessor[]::new));
    }

    @Override
    public String getTypeName() {
        return "BlockClaimsProcessor";
    }

    @Override
    public Class<BlockClaimsProcessor> getCompactClass() {
        return BlockClaimsProcessor.class;
    }
}
