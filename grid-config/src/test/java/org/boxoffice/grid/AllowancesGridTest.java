package org.boxoffice.grid;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import org.boxoffice.domain.AccountAllowance;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Allowances} on two real members. An account the grid does not know is read from the
 * referee once, by the caller (a map loader would also be called by the backup's copy of the
 * processor, on that member's partition thread), and its entry is on the backup too, so the loss of
 * the member that owned it loses no reservation and needs no second read.
 */
class AllowancesGridTest {

    private static final long NOW = 1_000_000;
    private static final long HOLD_MILLIS = 600_000;
    private static final int MAX = 4;

    private final InMemoryInventoryRepository repo = new InMemoryInventoryRepository();
    private final AtomicInteger reads = new AtomicInteger();
    /** The referee: the account has bought 2 seats of the show before. */
    private final Allowances.Referee referee = (show, account) -> {
        reads.incrementAndGet();
        return new AccountAllowance(List.of(), 2);
    };
    private List<HazelcastInstance> members;

    @BeforeEach
    void start() {
        members = TestGrid.start(2, repo);
    }

    @AfterEach
    void stop() {
        members.forEach(m -> m.getLifecycleService().terminate());
    }

    @Test
    void anUnknownAccount_isReadOnce_andItsEntrySurvivesTheLossOfItsOwner() {
        String account = "acct-" + UUID.randomUUID();
        AllowanceKey key = new AllowanceKey("show-1", account);
        HazelcastInstance owner = ownerOf(key);
        HazelcastInstance other = members.stream().filter(m -> m != owner).findFirst().orElseThrow();
        Allowances allowances = new Allowances(other, GridMaps.ALLOWANCES, referee);

        assertEquals(2, allowances.reserve("show-1", account, "h1", 3, NOW + HOLD_MILLIS, NOW, 0, MAX),
                "2 bought before, as the referee says: 2 more at most");
        assertEquals(-1, allowances.reserve("show-1", account, "h2", 1, NOW + HOLD_MILLIS, NOW, 0, MAX));
        assertEquals(1, reads.get(), "read from the referee once, by the caller; the backup needs no read");

        owner.getLifecycleService().terminate();
        assertEquals(1, allowances.reserve("show-1", account, "h3", 2, NOW + HOLD_MILLIS, NOW, 0, MAX),
                "the backup kept the reservation: 2 bought and 1 held of 4");
        assertEquals(1, reads.get(), "the promoted backup knew the account");
    }

    @Test
    void commandsOtherThanAReservation_leaveAnUnknownAccountAlone() {
        String account = "acct-" + UUID.randomUUID();
        Allowances allowances = new Allowances(members.get(0), GridMaps.ALLOWANCES, referee);
        allowances.release("show-1", account, "h1");
        allowances.confirm("show-1", account, "h1");
        allowances.extend("show-1", account, "h1", NOW + HOLD_MILLIS);
        allowances.cancelSale("show-1", account, 2);

        IMap<AllowanceKey, AccountAllowance> map = members.get(0).getMap(GridMaps.ALLOWANCES);
        assertFalse(map.containsKey(new AllowanceKey("show-1", account)), "the referee counts what they would record");
        assertEquals(0, reads.get());
        assertEquals(-1, allowances.reserve("show-1", account, "h2", 2, NOW + HOLD_MILLIS, NOW, 0, MAX));
        assertTrue(map.containsKey(new AllowanceKey("show-1", account)));
        assertEquals(1, reads.get());
    }

    @Test
    void aReservationFromAMemberOfThePreviousRelease_isCheckedAgainstTheOwnersReferee() {
        String account = "acct-" + UUID.randomUUID();
        AllowanceKey key = new AllowanceKey("show-1", account);
        HazelcastInstance owner = ownerOf(key);
        HazelcastInstance caller = members.stream().filter(m -> m != owner).findFirst().orElseThrow();
        new Allowances(owner, GridMaps.ALLOWANCES, referee);
        IMap<AllowanceKey, AccountAllowance> map = caller.getMap(GridMaps.ALLOWANCES);

        // the previous release reads any answer below zero as "reserved": it must never get UNKNOWN
        int answer = map.executeOnKey(key, AllowanceProcessor.fromPreviousRelease(
                new AllowanceCommand.Reserve("h1", 3, NOW + HOLD_MILLIS, NOW, 0, MAX)));
        assertEquals(2, answer, "2 bought before, as the owner's referee says: 3 more are over the limit");
        assertEquals(-1, (int) map.executeOnKey(key, AllowanceProcessor.fromPreviousRelease(
                new AllowanceCommand.Reserve("h2", 2, NOW + HOLD_MILLIS, NOW, 0, MAX))));
        assertEquals(1, reads.get(), "read once, by the owner; the account is known from then on");

        owner.getLifecycleService().terminate();
        assertEquals(0, (int) map.executeOnKey(key, AllowanceProcessor.fromPreviousRelease(
                new AllowanceCommand.Reserve("h3", 1, NOW + HOLD_MILLIS, NOW, 0, MAX))),
                "the backup got the value the owner read: 2 bought and 2 held of 4");
        assertEquals(1, reads.get());
    }

    @Test
    void aReservationFromThePreviousRelease_withNoRefereeOnTheOwner_isRefusedNotLetThrough() {
        String account = "acct-" + UUID.randomUUID();
        IMap<AllowanceKey, AccountAllowance> map = members.get(0).getMap(GridMaps.ALLOWANCES);
        assertEquals(0, (int) map.executeOnKey(new AllowanceKey("show-1", account), AllowanceProcessor.fromPreviousRelease(
                new AllowanceCommand.Reserve("h1", 1, NOW + HOLD_MILLIS, NOW, 0, MAX))));
        assertFalse(map.containsKey(new AllowanceKey("show-1", account)));
    }

    private HazelcastInstance ownerOf(AllowanceKey key) {
        members.get(0).getMap(GridMaps.ALLOWANCES).containsKey(key); // the partitions are assigned at the first use
        long deadline = System.currentTimeMillis() + 10_000;
        while (members.get(0).getPartitionService().getPartition(key).getOwner() == null
                && System.currentTimeMillis() < deadline) {
            Thread.onSpinWait();
        }
        return members.stream()
                .filter(m -> m.getPartitionService().getPartition(key).getOwner().localMember()).findFirst().orElseThrow();
    }
}
