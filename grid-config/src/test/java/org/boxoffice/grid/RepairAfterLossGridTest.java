package org.boxoffice.grid;

import com.hazelcast.core.HazelcastInstance;
import org.boxoffice.domain.SeatState;
import org.boxoffice.domain.Show;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * After a data member leaves, every member compares the blocks it owns with the referee and loads
 * again those that are behind it: the copy a lost member's last write never reached. Real members
 * (one JVM, loopback) over an in-memory referee.
 */
class RepairAfterLossGridTest {

    private final InMemoryInventoryRepository repo = new InMemoryInventoryRepository();
    private final List<HazelcastInstance> members = new ArrayList<>(TestGrid.start(3, repo));
    private final List<HoldSweeper> sweepers = new ArrayList<>();

    @AfterEach
    void stop() {
        sweepers.forEach(HoldSweeper::close);
        members.forEach(m -> m.getLifecycleService().terminate());
    }

    private HoldSweeper sweeper(HazelcastInstance member, Show show) {
        Inventory inventory = new Inventory(member);
        Seats seats = new Seats(inventory, new Allowances(member, repo), new ShowSnapshots(inventory, System::currentTimeMillis, 250));
        HoldSweeper s = new HoldSweeper(member, seats, repo, id -> Optional.of(show), System::currentTimeMillis);
        sweepers.add(s);
        return s;
    }

    private static SeatState.Status status(HazelcastInstance member, Show show, int block, int seat) {
        return new Inventory(member).blocks(show, List.of(block)).get(Inventory.key(show, block)).status(seat);
    }

    @Test
    void aBlockBehindTheReferee_isLoadedAgainByItsOwner_andOnlyThatBlock() {
        Show show = TestGrid.show("behind", 6, 10, 6, repo);
        assertTrue(new Inventory(members.get(0)).preload(show)); // every block in memory, on its owner and backup
        // the referee has a write the grid never saw, as when the owner died before its backup did
        repo.tamper("behind", 4, 7, new SeatState.Held("lost-with-its-member", "carol", Long.MAX_VALUE / 2));
        int loadsBefore = repo.loads.get();

        int dropped = 0;
        for (HazelcastInstance m : members) {
            dropped += sweeper(m, show).repairBehindReferee();
        }

        assertEquals(1, dropped, "only the block behind the referee, by the one member that owns it");
        assertEquals(SeatState.Status.HELD, status(members.get(1), show, 4, 7));
        assertEquals(SeatState.Status.AVAILABLE, status(members.get(2), show, 4, 6));
        assertTrue(repo.loads.get() - loadsBefore >= 1 && repo.loads.get() - loadsBefore <= 2,
                "loaded again onto its owner (and backup), nothing else: " + (repo.loads.get() - loadsBefore));
        int again = 0;
        for (HoldSweeper s : sweepers) {
            again += s.repairBehindReferee();
        }
        assertEquals(0, again, "a copy that caught up is left alone");
    }

    @Test
    void whenADataMemberIsLost_theSurvivorsRepairWhatTheyOwnOnTheirOwn() throws InterruptedException {
        Show show = TestGrid.show("lost", 6, 10, 6, repo);
        for (HazelcastInstance m : members) {
            sweeper(m, show).start(60_000, 600_000); // sweeps and reconciliations far apart: only the repair acts
        }
        // on owners and backups (a block only read is on its owner alone, and a lost owner's next read loads it afresh)
        assertTrue(new Inventory(members.get(0)).preload(show));
        repo.tamper("lost", 2, 3, new SeatState.Held("lost-with-its-member", "dave", Long.MAX_VALUE / 2));

        HazelcastInstance killed = members.remove(2);
        killed.getLifecycleService().terminate();

        long deadline = System.currentTimeMillis() + 20_000;
        while (sweepers.stream().mapToLong(HoldSweeper::repairedBehindReferee).sum() == 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(1, sweepers.stream().mapToLong(HoldSweeper::repairedBehindReferee).sum(),
                "the block behind the referee, repaired by its owner after the loss");
        for (HazelcastInstance m : members) {
            assertEquals(SeatState.Status.HELD, status(m, show, 2, 3));
        }
        Map<BlockKey, ?> all = new Inventory(members.get(0)).blocks(show, List.of(0, 1, 2, 3, 4, 5));
        assertEquals(6, all.size());
    }
}
