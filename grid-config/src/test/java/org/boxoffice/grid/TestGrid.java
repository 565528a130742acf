package org.boxoffice.grid;

import org.boxoffice.grid.member.GridMember;

import com.hazelcast.core.HazelcastInstance;
import org.boxoffice.domain.CatalogRepository;
import org.boxoffice.domain.Event;
import org.boxoffice.domain.HoldPolicy;
import org.boxoffice.domain.SaleWindow;
import org.boxoffice.domain.Show;
import org.boxoffice.domain.ShowLayout;
import org.boxoffice.domain.Venue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
            GridSettings settings = new GridSettings(cluster, "127.0.0.1", null, port + i, all, 1).withQuorum(quorum);
            out.add(GridMember.start(settings, TestStores.of(repo)));
        }
        return out;
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

    public static final CatalogRepository EMPTY_CATALOG = new CatalogRepository() {
        @Override
        public List<Venue> venues() {
            return List.of();
        }

        @Override
        public List<Event> events() {
            return List.of();
        }

        @Override
        public List<Show> shows() {
            return List.of();
        }

        @Override
        public Optional<Show> show(String showId) {
            return Optional.empty();
        }

        @Override
        public boolean isEmpty() {
            return true;
        }

        @Override
        public void saveVenue(Venue venue) {
        }

        @Override
        public void saveEvent(Event event) {
        }

        @Override
        public void saveShow(Show show) {
        }
    };
}
