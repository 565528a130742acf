package org.boxoffice.grid;

import com.hazelcast.partition.PartitionAware;

/**
 * The key of one inventory block. Partitioned by show and block group: a show's blocks spread
 * over {@code Show.blockGroups()} partitions, so write-through stores for one hot show run in
 * parallel instead of one at a time behind a single partition (see DESIGN.md, measured figures).
 */
public record BlockKey(String showId, int blockId, int group) implements PartitionAware<String> {

    public static BlockKey of(String showId, int blockId, int blockGroups) {
        return new BlockKey(showId, blockId, Math.floorMod(blockId, Math.max(1, blockGroups)));
    }

    @Override
    public String getPartitionKey() {
        return showId + "#" + group;
    }
}
