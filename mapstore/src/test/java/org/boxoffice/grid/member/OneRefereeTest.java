package org.boxoffice.grid.member;

import com.hazelcast.core.HazelcastInstance;
import com.zaxxer.hikari.HikariDataSource;
import org.boxoffice.grid.GridSettings;
import org.boxoffice.grid.InMemoryInventoryRepository;
import org.boxoffice.grid.TestStores;
import org.boxoffice.mapstore.RefereeIdentity;
import org.boxoffice.mapstore.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Members of one cluster share one referee: real members (one JVM, loopback) over real PostgreSQL databases. */
class OneRefereeTest {

    private final List<HazelcastInstance> members = new ArrayList<>();
    private final List<HikariDataSource> databases = new ArrayList<>();

    @AfterEach
    void stop() {
        members.forEach(m -> m.getLifecycleService().terminate());
        databases.forEach(HikariDataSource::close);
    }

    /** A database of its own: a fresh identity, as a separately made database has. */
    private HikariDataSource database() throws SQLException {
        HikariDataSource ds = TestDatabase.newDataSource(2);
        databases.add(ds);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE referee SET id = gen_random_uuid()"); // test databases are copies of one template
        }
        return ds;
    }

    @Test
    void membersOfOneDatabase_formOneCluster_andAMemberOfAnotherDatabase_isRefusedBeforeItOwnsAnything() throws SQLException {
        HikariDataSource first = database();
        HikariDataSource second = database();
        String ours = RefereeIdentity.of(first);
        String theirs = RefereeIdentity.of(second);
        assertNotEquals(ours.substring(0, 36), theirs.substring(0, 36), ours + " / " + theirs);

        String cluster = "referee-" + UUID.randomUUID();
        int port = 23801 + (int) (Math.random() * 2000);
        List<String> all = List.of("127.0.0.1:" + port, "127.0.0.1:" + (port + 1), "127.0.0.1:" + (port + 2));
        InMemoryInventoryRepository repo = new InMemoryInventoryRepository();
        HazelcastInstance a = GridMember.start(GridSettings.loopback(cluster, port, all),
                TestStores.of(repo), ours, GridMember.Promotion.WHEN_WARM);
        members.add(a);
        HazelcastInstance b = GridMember.start(GridSettings.loopback(cluster, port + 1, all),
                TestStores.of(repo), RefereeIdentity.of(first), GridMember.Promotion.AT_ONCE);
        members.add(b);
        assertEquals(2, a.getCluster().getMembers().size(), "two members of one database: one cluster");
        assertFalse(a.getCluster().getLocalMember().isLiteMember(), "the first member holds data (even when warm later: "
                + "nobody else would)");
        assertFalse(b.getCluster().getLocalMember().isLiteMember(), "the second member holds data");
        a.getMap("probe").put("k", "v");
        assertEquals("v", b.getMap("probe").get("k"));

        RefereeMismatchException refused = assertThrows(RefereeMismatchException.class, () -> members.add(GridMember.start(
                GridSettings.loopback(cluster, port + 2, all), TestStores.of(repo), theirs, GridMember.Promotion.AT_ONCE)));
        assertTrue(refused.getMessage().contains(theirs) && refused.getMessage().contains(ours), refused.getMessage());
        long deadline = System.currentTimeMillis() + 10_000;
        while (a.getCluster().getMembers().size() > 2 && System.currentTimeMillis() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(2, a.getCluster().getMembers().size(), "the refused member has left");
        assertTrue(a.getPartitionService().getPartitions().stream()
                .allMatch(p -> p.getOwner() == null || p.getOwner().getAddress().getPort() != port + 2),
                "the refused member owns no partition");
    }

    /**
     * A member that starts to warm up first stays a lite member of a cluster whose other members own
     * the data: no partition moves to it until it is promoted, then partitions do.
     */
    @Test
    void aMemberStartedToWarmFirst_ownsNoPartitionUntilPromoted() throws SQLException {
        HikariDataSource db = database();
        String referee = RefereeIdentity.of(db);
        String cluster = "warm-" + UUID.randomUUID();
        int port = 25901 + (int) (Math.random() * 2000);
        List<String> all = List.of("127.0.0.1:" + port, "127.0.0.1:" + (port + 1));
        InMemoryInventoryRepository repo = new InMemoryInventoryRepository();
        HazelcastInstance a = GridMember.start(GridSettings.loopback(cluster, port, all),
                TestStores.of(repo), referee, GridMember.Promotion.AT_ONCE);
        members.add(a);
        a.getMap("probe").put("k", "v");
        HazelcastInstance b = GridMember.start(GridSettings.loopback(cluster, port + 1, all),
                TestStores.of(repo), referee, GridMember.Promotion.WHEN_WARM);
        members.add(b);
        assertEquals(2, a.getCluster().getMembers().size());
        assertTrue(b.getCluster().getLocalMember().isLiteMember(), "joined and waits, owning nothing");
        assertEquals("v", b.getMap("probe").get("k"), "a lite member reads and writes the cluster's data");
        assertEquals(0, owned(a, b), "no partition moved to it");

        assertTrue(GridMember.promote(b));
        assertFalse(GridMember.promote(b), "promoted once");
        long deadline = System.currentTimeMillis() + 30_000;
        while (owned(a, b) == 0 && System.currentTimeMillis() < deadline) {
            Thread.onSpinWait();
        }
        assertTrue(owned(a, b) > 0, "partitions moved to it once promoted");
        assertEquals("v", b.getMap("probe").get("k"));
    }

    private static long owned(HazelcastInstance viewer, HazelcastInstance member) {
        return viewer.getPartitionService().getPartitions().stream()
                .filter(p -> member.getCluster().getLocalMember().equals(p.getOwner())).count();
    }
}
