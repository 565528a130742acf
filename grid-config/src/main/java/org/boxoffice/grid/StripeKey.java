package org.boxoffice.grid;

import com.hazelcast.partition.PartitionAware;

/**
 * The key of one stripe of a general-admission area. Each stripe is its own partition key, so an
 * area's stripes land on different partitions (and members) and its claims run in parallel rather
 * than one at a time behind one entry.
 */
public record StripeKey(String showId, String area, int stripe) implements PartitionAware<String> {

    @Override
    public String getPartitionKey() {
        return showId + "/" + area + "#" + stripe;
    }
}
