package org.boxoffice.app.holds;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.zaxxer.hikari.HikariDataSource;
import org.boxoffice.domain.IdempotencyReplies;
import org.boxoffice.grid.GridMaps;
import org.boxoffice.grid.GridSettings;
import org.boxoffice.grid.StoredResponse;
import org.boxoffice.grid.member.GridMember;
import org.boxoffice.mapstore.DatabaseException;
import org.boxoffice.mapstore.GridStores;
import org.boxoffice.mapstore.PostgresCatalogRepository;
import org.boxoffice.mapstore.PostgresIdempotencyReplies;
import org.boxoffice.mapstore.PostgresInventoryRepository;
import org.boxoffice.mapstore.PostgresWaitlistRepository;
import org.boxoffice.mapstore.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Idempotency-Keys on real members (one JVM, loopback) and a real PostgreSQL: a key the grid never
 * knew costs no read of PostgreSQL, and every way the grid can forget answers PostgreSQL keeps (a
 * whole-cluster restart, partitions lost with their backups, an eviction) has retries answered
 * from PostgreSQL, on every member and on one that joins later, without running the request again.
 */
class IdempotencyGridTest {

    private final List<HazelcastInstance> members = new ArrayList<>();
    private final List<Idempotency> keys = new ArrayList<>();
    private HikariDataSource db;
    private CountingReplies replies;
    private String cluster;
    private List<String> addresses;

    @AfterEach
    void stop() {
        keys.forEach(Idempotency::close);
        members.forEach(m -> m.getLifecycleService().terminate());
        if (db != null) {
            db.close();
        }
    }

    /** PostgreSQL's answers, counting the reads of a key. */
    private static final class CountingReplies implements IdempotencyReplies {
        final IdempotencyReplies real;
        final AtomicInteger finds = new AtomicInteger();
        /** PostgreSQL out: every call fails as the repository does in an outage. */
        volatile boolean down;

        CountingReplies(IdempotencyReplies real) {
            this.real = real;
        }

        @Override
        public Optional<Reply> find(String accountId, String key, long notBefore) {
            finds.incrementAndGet();
            outage();
            return real.find(accountId, key, notBefore);
        }

        @Override
        public Reply remember(String accountId, String key, Reply reply, long expiredBefore) {
            outage();
            return real.remember(accountId, key, reply, expiredBefore);
        }

        private void outage() {
            if (down) {
                throw new DatabaseException("the database is not answering", null);
            }
        }

        @Override
        public int forgetBefore(long before) {
            return real.forgetBefore(before);
        }

        @Override
        public long latestBefore(long before) {
            return real.latestBefore(before);
        }
    }

    /**
     * A cluster of {@code n} members (room for {@code room} in all) on a database of its own, each
     * with its Idempotency, once the partitions have settled over them (a member lost while its
     * share is still moving in may lose nothing).
     */
    private void start(int n, int room) throws InterruptedException {
        db = TestDatabase.newDataSource(8);
        replies = new CountingReplies(new PostgresIdempotencyReplies(db));
        cluster = "idem-" + UUID.randomUUID();
        int port = 21801 + (int) (Math.random() * 2000);
        addresses = new ArrayList<>();
        for (int i = 0; i < room; i++) {
            addresses.add("127.0.0.1:" + (port + i));
        }
        for (int i = 0; i < n; i++) {
            startMember(i);
        }
        awaitTrue(() -> members.stream().allMatch(m -> m.getPartitionService().isClusterSafe()), "the partitions have settled");
    }

    private Idempotency startMember(int i) {
        int port = Integer.parseInt(addresses.get(i).substring(addresses.get(i).lastIndexOf(':') + 1));
        HazelcastInstance hz = GridMember.start(GridSettings.loopback(cluster, port, addresses),
                GridStores.of(new PostgresInventoryRepository(db), new PostgresCatalogRepository(db), new PostgresWaitlistRepository(db)));
        members.add(hz);
        Idempotency idempotency = new Idempotency(hz, replies, System::currentTimeMillis).start();
        keys.add(idempotency);
        return idempotency;
    }

    /** Runs {@code key} through {@code on}; the request's answer names the run, so a second run answers differently. */
    private static Idempotency.Reply run(Idempotency on, String key, AtomicInteger runs) {
        return on.execute("acc", key, "POST /v1/shows/s1/holds {" + key + "}", () -> {
            int run = runs.incrementAndGet();
            return new Idempotency.Reply(201, "{\"holdId\":\"" + key + "-run-" + run + "\"}");
        });
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(20);
        }
    }

    @Test
    void aKeyTheGridNeverKnew_costsNoReadOfPostgreSQL_andItsRetryGetsTheFirstAnswerFromThere() throws Exception {
        start(2, 2);
        AtomicInteger runs = new AtomicInteger();

        Idempotency.Reply first = run(keys.get(0), "k1", runs);
        assertEquals(0, replies.finds.get(), "a new key costs no read");
        StoredResponse onTheGrid = members.get(0).<String, StoredResponse>getMap(GridMaps.IDEMPOTENCY).get("acc\u0000k1");
        assertTrue(onTheGrid.inFlight() && onTheGrid.body() == null, "the grid keeps the key's mark, not a copy of its answer");

        Idempotency.Reply retry = run(keys.get(1), "k1", runs);
        assertEquals(first, retry);
        assertEquals(1, runs.get());
        assertEquals(1, replies.finds.get(), "the retry read the answer from PostgreSQL");
        Idempotency.Reply other = keys.get(1).execute("acc", "k1", "POST /v1/shows/s1/holds {another}",
                () -> new Idempotency.Reply(201, "{}"));
        assertEquals(422, other.status(), "the key used for another request");
        assertEquals(1, runs.get());
    }

    @Test
    void anAnswerPostgreSQLCannotTake_isKeptOnTheGrid_andARetryDuringTheOutageGetsIt() throws Exception {
        start(2, 2);
        AtomicInteger runs = new AtomicInteger();
        replies.down = true;

        Idempotency.Reply first = run(keys.get(0), "k1", runs);
        assertEquals(201, first.status(), "the request did its work: its answer is given");
        Idempotency.Reply retry = run(keys.get(1), "k1", runs);

        assertEquals(first, retry, "answered from the grid while PostgreSQL is out");
        assertEquals(1, runs.get());
    }

    @Test
    void aMarkLeftWithoutAnAnswerForTwoMinutes_isARequestThatDied_andTheRetryRunsIt() throws Exception {
        start(1, 1);
        AtomicInteger runs = new AtomicInteger();
        String fingerprint = "POST /v1/shows/s1/holds {k1}";
        IMap<String, StoredResponse> marks = members.get(0).getMap(GridMaps.IDEMPOTENCY);
        // the mark a member left when it died running the request, two minutes ago
        marks.set("acc\u0000k1", new StoredResponse(Idempotency.sha256(fingerprint), 0, null,
                System.currentTimeMillis() - 121_000), 1, TimeUnit.HOURS);
        // and one left a moment ago: its request may still be running
        marks.set("acc\u0000k2", new StoredResponse(Idempotency.sha256("POST /v1/shows/s1/holds {k2}"), 0, null,
                System.currentTimeMillis()), 1, TimeUnit.HOURS);

        Idempotency.Reply retried = run(keys.get(0), "k1", runs);
        assertEquals(201, retried.status());
        assertEquals(1, runs.get(), "the abandoned request ran again, once");
        assertEquals(retried, run(keys.get(0), "k1", runs), "and its answer stands");
        assertEquals(409, run(keys.get(0), "k2", runs).status(), "a request still running is not run twice");
        assertEquals(1, runs.get());
    }

    @Test
    void parallelRequestsUnderOneNewKey_runOnce_andAllGetItsAnswer() throws Exception {
        start(2, 2);
        AtomicInteger runs = new AtomicInteger();
        CyclicBarrier go = new CyclicBarrier(16);
        List<Callable<Idempotency.Reply>> sends = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            Idempotency on = keys.get(i % 2);
            sends.add(() -> {
                go.await();
                return run(on, "same", runs);
            });
        }
        List<Idempotency.Reply> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
            for (Future<Idempotency.Reply> f : pool.invokeAll(sends)) {
                answers.add(f.get());
            }
        }

        assertEquals(1, runs.get());
        // the first answer, or "still running" to a retry that waited longer than the first took
        assertTrue(answers.stream().allMatch(a -> a.body().equals("{\"holdId\":\"same-run-1\"}") || a.status() == 409), answers.toString());
    }

    @Test
    void afterAWholeClusterRestart_aRetryIsAnsweredFromPostgreSQL() throws Exception {
        start(1, 1);
        AtomicInteger runs = new AtomicInteger();
        Idempotency.Reply first = run(keys.get(0), "k1", runs);
        keys.remove(0).close();
        members.remove(0).getLifecycleService().terminate();

        Idempotency restarted = startMember(0);
        Idempotency.Reply retry = run(restarted, "k1", runs);

        assertEquals(first, retry);
        assertEquals(1, runs.get());
        assertTrue(replies.finds.get() > 0);
    }

    @Test
    void answersLostWithTheirPartitions_areAnsweredFromPostgreSQL_onTheSurvivor_andOnAMemberThatJoinsLater() throws Exception {
        start(3, 4);
        AtomicInteger runs = new AtomicInteger();
        List<Idempotency.Reply> firsts = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            firsts.add(run(keys.get(i % 3), "k" + i, runs));
        }
        assertEquals(40, runs.get());
        assertEquals(0, replies.finds.get());

        // two of three members lost at once, with one backup: the partitions they both held are gone
        HazelcastInstance survivor = members.get(0);
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            pool.invokeAll(List.of(() -> { members.get(1).getLifecycleService().terminate(); return null; },
                    () -> { members.get(2).getLifecycleService().terminate(); return null; }));
        }
        awaitTrue(() -> survivor.getCluster().getMembers().size() == 1, "the survivor is alone");
        IMap<String, StoredResponse> answers = survivor.getMap(GridMaps.IDEMPOTENCY);
        List<Integer> lost = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            if (!answers.containsKey("acc\u0000k" + i)) {
                lost.add(i);
            }
        }
        assertFalse(lost.isEmpty(), "no answer was lost: the test proves nothing");
        awaitTrue(() -> keys.get(0).mayBeDurableOnly(System.currentTimeMillis()), "the survivor heard of the loss");

        for (int i = 0; i < 40; i++) {
            assertEquals(firsts.get(i), run(keys.get(0), "k" + i, runs));
        }
        awaitTrue(() -> survivor.getMap(GridMaps.CLUSTER).containsKey("idempotency.forgotten-until"),
                "the grid was told, for members that join later");
        Idempotency joined = startMember(3);
        for (int i : lost) {
            answers.delete("acc\u0000k" + i); // the survivor's retries put them back: lose them again
        }
        for (int i : lost) {
            assertEquals(firsts.get(i), run(joined, "k" + i, runs));
        }
        assertEquals(40, runs.get());
    }

    @Test
    void anEvictedAnswer_isAnsweredFromPostgreSQL_onEveryMember() throws Exception {
        start(2, 2);
        AtomicInteger runs = new AtomicInteger();
        Idempotency.Reply first = run(keys.get(0), "k1", runs);
        assertFalse(keys.get(1).mayBeDurableOnly(System.currentTimeMillis()));

        members.get(0).getMap(GridMaps.IDEMPOTENCY).evict("acc\u0000k1");
        awaitTrue(() -> keys.get(1).mayBeDurableOnly(System.currentTimeMillis()), "the other member heard of the eviction");

        assertEquals(first, run(keys.get(1), "k1", runs));
        assertEquals(1, runs.get());
    }

    @Test
    void anInFlightMarkThatExpires_isNotAnAnswerForgotten() throws Exception {
        start(1, 1);
        IMap<String, StoredResponse> answers = members.get(0).getMap(GridMaps.IDEMPOTENCY);
        answers.set("acc\u0000gone", new StoredResponse("hash", 0, null, System.currentTimeMillis()), 1, TimeUnit.SECONDS);
        awaitTrue(() -> !answers.containsKey("acc\u0000gone"), "the mark expired");
        Thread.sleep(500); // an expiry event, had it counted, would have arrived

        assertFalse(keys.get(0).mayBeDurableOnly(System.currentTimeMillis()));
    }
}
