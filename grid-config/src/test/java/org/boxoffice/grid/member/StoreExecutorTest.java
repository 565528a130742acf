package org.boxoffice.grid.member;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.internal.util.executor.CachedExecutorServiceDelegate;
import com.hazelcast.internal.util.executor.ManagedExecutorService;
import org.boxoffice.grid.InMemoryInventoryRepository;
import org.boxoffice.grid.TestGrid;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The write-through stores' executor is a pool of its own, not Hazelcast's cached delegate (which
 * starts and retires a worker around every store). It is registered through Hazelcast's internal
 * execution service: if a Hazelcast upgrade changes that, this test says so before a sell-out does.
 */
class StoreExecutorTest {

    @Test
    void writeThroughStores_runOnAPoolOfResidentThreads() {
        HazelcastInstance hz = TestGrid.start(1, new InMemoryInventoryRepository()).get(0);
        try {
            ManagedExecutorService stores = ((HazelcastInstanceProxy) hz).getOriginal().node.getNodeEngine()
                    .getExecutionService().getExecutor(GridMember.MAP_STORE_EXECUTOR);
            assertFalse(stores instanceof CachedExecutorServiceDelegate, "stores run on Hazelcast's cached delegate");
            assertEquals(GridMember.STORES_IN_FLIGHT, stores.getMaximumPoolSize());
            java.util.concurrent.CompletableFuture<Boolean> virtual = new java.util.concurrent.CompletableFuture<>();
            stores.execute(() -> virtual.complete(Thread.currentThread().isVirtual()));
            org.junit.jupiter.api.Assertions.assertTrue(virtual.join(), "stores do not run on virtual threads");
        } finally {
            hz.shutdown();
        }
    }
}
