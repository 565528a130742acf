package org.boxoffice.grid.member;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.internal.partition.PartitionReplicaVersionManager;
import com.hazelcast.internal.services.DistributedObjectNamespace;
import com.hazelcast.map.IMap;
import com.hazelcast.map.impl.MapService;
import org.boxoffice.grid.GridSettings;
import org.boxoffice.grid.InMemoryInventoryRepository;
import org.boxoffice.grid.TestStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write whose backup is dropped unanswered: two real members with one backup. The backup's replica
 * is marked as needing a sync (as after a migration that missed a backup, or a promotion), so it
 * ignores every backup it is sent until the primary syncs it; the write still completes once
 * {@link GridMember#BACKUP_ACK_MILLIS} have passed, not after Hazelcast's 5 s.
 */
class BackupAckTest {

    private final List<HazelcastInstance> members = new ArrayList<>();

    @AfterEach
    void stop() {
        members.forEach(m -> m.getLifecycleService().terminate());
    }

    @Test
    void write_completesAfterTheBackupAckBound_whenItsBackupIsDroppedAsStale() {
        InMemoryInventoryRepository repo = new InMemoryInventoryRepository();
        String cluster = "test-" + UUID.randomUUID();
        int port = 17701 + (int) (Math.random() * 2000);
        List<String> all = List.of("127.0.0.1:" + port, "127.0.0.1:" + (port + 1));
        for (int i = 0; i < 2; i++) {
            members.add(GridMember.start(GridSettings.loopback(cluster, port + i, all),
                    TestStores.of(repo)));
        }
        String mapName = "backup-ack-probe";
        IMap<String, String> map = members.get(0).getMap(mapName);
        String key = "k";
        map.put(key, "first"); // both replicas in step
        int partition = members.get(0).getPartitionService().getPartition(key).getPartitionId();
        Member owner = members.get(0).getPartitionService().getPartition(key).getOwner();
        HazelcastInstance backup = members.stream()
                .filter(m -> !m.getCluster().getLocalMember().getUuid().equals(owner.getUuid())).findFirst().orElseThrow();
        PartitionReplicaVersionManager versions = ((HazelcastInstanceProxy) backup).getOriginal().node.getNodeEngine()
                .getPartitionService().getPartitionReplicaVersionManager();
        versions.markPartitionReplicaAsSyncRequired(partition, new DistributedObjectNamespace(MapService.SERVICE_NAME,
                mapName), 1);

        long start = System.nanoTime();
        map.put(key, "second");
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertEquals("second", map.get(key));
        // the write waited for an acknowledgement that never came: at least most of the bound, and
        // far less than Hazelcast's 5 s (a wide margin: shared machines pause)
        assertTrue(millis >= GridMember.BACKUP_ACK_MILLIS / 2, "the dropped backup was not waited for: " + millis + " ms");
        assertTrue(millis < 3_500, "the write waited " + millis + " ms for a backup that was dropped");
    }
}
