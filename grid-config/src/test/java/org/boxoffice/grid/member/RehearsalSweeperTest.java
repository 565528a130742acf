package org.boxoffice.grid.member;

import com.hazelcast.core.DistributedObject;
import com.hazelcast.core.HazelcastInstance;
import org.boxoffice.grid.GridMaps;
import org.boxoffice.grid.GridSettings;
import org.boxoffice.grid.InMemoryInventoryRepository;
import org.boxoffice.grid.TestStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A member that dies mid-rehearsal leaves its rehearsal maps; the survivors' sweep destroys them, and only them. */
class RehearsalSweeperTest {

    private final List<HazelcastInstance> members = new ArrayList<>();

    @AfterEach
    void stop() {
        members.forEach(m -> m.getLifecycleService().terminate());
    }

    @Test
    void theMapsOfAMemberThatDiedMidRehearsal_areDestroyed_andALiveMembersAreKept() {
        String cluster = "sweep-" + UUID.randomUUID();
        int port = 25801 + (int) (Math.random() * 2000);
        List<String> all = List.of("127.0.0.1:" + port, "127.0.0.1:" + (port + 1));
        InMemoryInventoryRepository repo = new InMemoryInventoryRepository();
        HazelcastInstance a = GridMember.start(new GridSettings(cluster, "127.0.0.1", null, port, all, 1), TestStores.of(repo));
        HazelcastInstance b = GridMember.start(new GridSettings(cluster, "127.0.0.1", null, port + 1, all, 1), TestStores.of(repo));
        members.add(a);
        members.add(b);
        String mine = GridMaps.REHEARSAL_PREFIX + "inventory-" + GridMaps.rehearsalTag(a.getCluster().getLocalMember().getUuid());
        String tagB = GridMaps.rehearsalTag(b.getCluster().getLocalMember().getUuid());
        List<String> theirs = List.of(GridMaps.REHEARSAL_PREFIX + "inventory-" + tagB,
                GridMaps.REHEARSAL_PREFIX + "allowances-" + tagB);
        a.getMap(mine).put("k", "v");
        for (String name : theirs) {
            for (int i = 0; i < 100; i++) {
                b.getMap(name).put("k" + i, "v");
            }
        }
        b.getLifecycleService().terminate(); // dies mid-rehearsal: its clean-up never runs
        members.remove(b);
        long deadline = System.currentTimeMillis() + 30_000;
        while (a.getCluster().getMembers().size() > 1 && System.currentTimeMillis() < deadline) {
            Thread.onSpinWait();
        }
        assertTrue(names(a).containsAll(theirs), "left behind before the sweep: " + names(a));

        assertEquals(2, new RehearsalSweeper(a, 3600).sweep());

        Set<String> left = names(a);
        theirs.forEach(n -> assertFalse(left.contains(n), n + " outlived its member: " + left));
        assertTrue(left.contains(mine), "a live member's rehearsal is kept: " + left);
    }

    private static Set<String> names(HazelcastInstance hz) {
        return hz.getDistributedObjects().stream().map(DistributedObject::getName).collect(Collectors.toSet());
    }
}
