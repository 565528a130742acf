package org.boxoffice.grid;

import org.boxoffice.grid.member.GridMember;

import com.hazelcast.core.HazelcastInstance;
import org.boxoffice.domain.CatalogRepository;
import org.boxoffice.domain.HoldPolicy;
import org.boxoffice.domain.SaleWindow;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Real members in one JVM, on loopback, with an isolated cluster name per test class. */
public final class TestGrid {

    private TestGrid() {
    }

    public static List<HazelcastInstance> start(int members, InMemoryInventoryRepository repo) {
        return start(members, 1, repo);
    }

    /** Members that refuse seat writes below {@code quorum} members. */
    public static List<HazelcastInstance> start(int members, int quorum, InMemoryInventoryRepository repo) {
        String cluster = "test-" + UUID.randomUUID();
        int port = 15701 + (int) (Math.random() * 2000);
        List<String> all = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            all.add("127.0.0.1:" + (port + i));
        }
        List<HazelcastInstance> out = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            GridSettings settings = GridSettings.loopback(cluster, port + i, all).withQuorum(quorum);
            out.add(GridMember.start(settings, TestStores.of(repo)));
        }
        return out;
    }

    /**
     * Starts one more member into the cluster of {@code running}, on the first address of its member
     * list nobody serves now (a member that was stopped), with the same quorum.
     */
    public static HazelcastInstance rejoin(HazelcastInstance running, int quorum, InMemoryInventoryRepository repo) {
        String cluster = running.getConfig().getClusterName();
        List<String> all = running.getConfig().getNetworkConfig().getJoin().getTcpIpConfig().getMembers();
        java.util.Set<String> serving = new java.util.HashSet<>();
        running.getCluster().getMembers().forEach(m -> serving.add("127.0.0.1:" + m.getAddress().getPort()));
        String free = all.stream().filter(a -> !serving.contains(a)).findFirst().orElseThrow();
        int port = Integer.parseInt(free.substring(free.lastIndexOf(':') + 1));
        GridSettings settings = GridSettings.loopback(cluster, port, all).withQuorum(quorum);
        return GridMember.start(settings, TestStores.of(repo));
    }

    /** A show of {@code blocks} blocks of one row of {@code seatsPerBlock} seats, registered in {@code repo}. */
    public static Show show(String showId, int blocks, int seatsPerBlock, int groups, InMemoryInventoryRepository repo) {
        List<ShowLayout.Block> layoutBlocks = new ArrayList<>();
        for (int b = 0; b < blocks; b++) {
            layoutBlocks.add(new ShowLayout.Block(b, "A", List.of(Integer.toString(b + 1)), new int[] {seatsPerBlock}));
            repo.create(showId, b, seatsPerBlock);
        }
        ShowLayout layout = new ShowLayout(showId, "EUR", List.of(new ShowLayout.Section("A", 0, 5_000)), layoutBlocks);
        return new Show(showId, "e1", "v1", 0, new SaleWindow(0, Long.MAX_VALUE),
                new HoldPolicy(10, 10, 60_000, 1_000), groups, 24, layout);
    }

    /** A catalog with nothing in it (no listings to load). */
    public static final CatalogRepository EMPTY_CATALOG = CatalogRepository.none();
}
