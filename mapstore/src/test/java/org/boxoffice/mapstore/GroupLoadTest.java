package org.boxoffice.mapstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link GroupLoad} on its own: batching, each caller's own value, failures reaching every caller of a batch. */
class GroupLoadTest {

    @Test
    void callersWaitingTogether_shareOneRead_andEachGetsItsOwnValue() throws Exception {
        CountDownLatch firstReadStarted = new CountDownLatch(1);
        CountDownLatch releaseFirstRead = new CountDownLatch(1);
        List<List<Integer>> reads = new java.util.concurrent.CopyOnWriteArrayList<>();
        GroupLoad<Integer, String> load = new GroupLoad<>("test-reads", keys -> {
            reads.add(keys);
            if (reads.size() == 1) {
                firstReadStarted.countDown();
                await(releaseFirstRead);
            }
            Map<Integer, String> out = new HashMap<>();
            keys.forEach(k -> out.put(k, "v" + k));
            return out;
        }, 64);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            Future<String> first = pool.submit(() -> load.load(0));
            assertTrue(firstReadStarted.await(10, TimeUnit.SECONDS));
            // seven more callers (one asking a key twice) queue while the first read is under way
            List<Future<String>> waiting = new ArrayList<>();
            int[] keys = {1, 2, 3, 4, 5, 6, 3};
            for (int k : keys) {
                waiting.add(pool.submit(() -> load.load(k)));
            }
            long deadline = System.currentTimeMillis() + 10_000;
            while (load.queued() < keys.length && System.currentTimeMillis() < deadline) {
                Thread.sleep(5);
            }
            releaseFirstRead.countDown();

            assertEquals("v0", first.get(10, TimeUnit.SECONDS));
            for (int i = 0; i < keys.length; i++) {
                assertEquals("v" + keys[i], waiting.get(i).get(10, TimeUnit.SECONDS));
            }
            assertEquals(2, reads.size(), "one read for the first caller, one for the seven that waited meanwhile");
            assertEquals(List.of(1, 2, 3, 4, 5, 6), reads.get(1).stream().sorted().toList(), "a key asked twice is read once");
            assertEquals(new GroupLoad.Stats(2, 7), load.stats());
        } finally {
            releaseFirstRead.countDown();
            pool.shutdownNow();
            load.close();
        }
    }

    @Test
    void aFailedRead_failsEveryCallerOfItsBatch_andTheNextReadWorks() throws Exception {
        RuntimeException down = new DatabaseException("the database is down", null);
        java.util.concurrent.atomic.AtomicBoolean failing = new java.util.concurrent.atomic.AtomicBoolean(true);
        GroupLoad<Integer, String> load = new GroupLoad<>("test-reads", keys -> {
            if (failing.get()) {
                throw down;
            }
            Map<Integer, String> out = new HashMap<>();
            keys.forEach(k -> out.put(k, "v" + k));
            return out;
        }, 64);
        try {
            assertSame(down, assertThrows(DatabaseException.class, () -> load.load(1)));
            failing.set(false);
            assertEquals("v1", load.load(1));
        } finally {
            load.close();
        }
    }

    @Test
    void aSourceThatForgetsAKey_failsThatCallerOnly_andAClosedLoadRefuses() throws Exception {
        GroupLoad<Integer, String> load = new GroupLoad<>("test-reads", keys -> {
            Map<Integer, String> out = new HashMap<>();
            keys.stream().filter(k -> k != 13).forEach(k -> out.put(k, "v" + k));
            return out;
        }, 64);
        assertThrows(DatabaseException.class, () -> load.load(13));
        assertEquals("v12", load.load(12));
        load.close();
        assertThrows(DatabaseException.class, () -> load.load(12));
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
