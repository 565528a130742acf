package org.boxoffice.grid;

import com.hazelcast.partition.PartitionAware;

/** The key of one account's allowance in one show; partitioned by account so a hot show's buyers spread out. */
public record AllowanceKey(String showId, String accountId) implements PartitionAware<String> {

    @Override
    public String getPartitionKey() {
        return accountId;
    }
}
