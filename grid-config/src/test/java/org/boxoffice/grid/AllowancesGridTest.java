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

    @Test
    void aNewShowsBuyers_needNoRead_onAnyMember_andTheLimitStillHolds() {
        Allowances creator = new Allowances(members.get(0), GridMaps.ALLOWANCES, referee);
        Allowances other = new Allowances(members.get(1), GridMaps.ALLOWANCES, referee);
        creator.newShow("show-new", NOW, NOW);

        String first = "acct-" + UUID.randomUUID();
        assertEquals(-1, other.reserve("show-new", first, "h1", 3, NOW + HOLD_MILLIS, NOW, 0, MAX));
        assertEquals(1, other.reserve("show-new", first, "h2", 2, NOW + HOLD_MILLIS, NOW, 0, MAX),
                "3 held of 4: 1 more at most");
        assertEquals(MAX, creator.reserve("show-new", "acct-" + UUID.randomUUID(), "h3", MAX + 1, NOW + HOLD_MILLIS, NOW, 0, MAX),
                "a new buyer asking for too many hears how many it may take");
        assertEquals(0, reads.get(), "a show created on this cluster: nobody has seats of it the grid does not know");

        assertEquals(2, other.reserve("show-1", "acct-" + UUID.randomUUID(), "h4", 3, NOW + HOLD_MILLIS, NOW, 0, MAX),
                "a show without the mark: the account's past is read");
        assertEquals(1, reads.get());
    }

    @Test
    void aShowsMark_lapsesAnHourAfterItsSaleOpens() {
        Allowances allowances = new Allowances(members.get(0), GridMaps.ALLOWANCES, referee);
        long opensAt = NOW + 3_600_000;
        allowances.newShow("show-later", opensAt, NOW);
        long lastSafe = opensAt + Allowances.MAX_IDLE_SECONDS * 1000L - Allowances.CLOCK_MARGIN_MILLIS - 1;
        assertEquals(-1, allowances.reserve("show-later", "acct-" + UUID.randomUUID(), "h1", 1, lastSafe + HOLD_MILLIS,
                lastSafe, 0, MAX));
        assertEquals(0, reads.get(), "no entry of the show can have lapsed yet: none was made before its sale opened");
        assertEquals(2, allowances.reserve("show-later", "acct-" + UUID.randomUUID(), "h2", 3, lastSafe + 1 + HOLD_MILLIS,
                lastSafe + 1, 0, MAX), "an entry may have gone unused for an hour: the account's past is read");
        assertEquals(1, reads.get());
    }

    @Test
    void losingMoreMembersThanTheBackups_removesEveryShowsMark() throws Exception {
        members.forEach(m -> m.getLifecycleService().terminate());
        members = TestGrid.start(3, repo);
        HazelcastInstance survivor = members.get(0);
        Allowances allowances = new Allowances(survivor, GridMaps.ALLOWANCES, referee);
        for (HazelcastInstance m : members.subList(1, 3)) {
            new Allowances(m, GridMaps.ALLOWANCES, referee);
        }
        allowances.newShow("show-new", NOW, NOW);
        // an entry on every partition, so that whatever is lost held some
        for (int i = 0; i < 400; i++) {
            allowances.reserve("show-new", "acct-" + i, "h" + i, 1, NOW + HOLD_MILLIS, NOW, 0, MAX);
        }
        assertEquals(0, reads.get());

        Thread a = Thread.ofPlatform().start(() -> members.get(1).getLifecycleService().terminate());
        Thread b = Thread.ofPlatform().start(() -> members.get(2).getLifecycleService().terminate());
        a.join();
        b.join();
        long deadline = System.currentTimeMillis() + 20_000;
        while (survivor.getMap(GridMaps.ALLOWANCES_COMPLETE).containsKey("show-new")
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertFalse(survivor.getMap(GridMaps.ALLOWANCES_COMPLETE).containsKey("show-new"),
                "entries were lost with their backups: the show is no longer complete");
        int before = reads.get();
        for (int i = 0; i < 400; i++) {
            allowances.reserve("show-new", "acct-" + i, "h" + i + "-again", 1, NOW + HOLD_MILLIS, NOW, 0, MAX);
        }
        assertTrue(reads.get() > before, "accounts whose entries were lost are read from the referee again");
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
