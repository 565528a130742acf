package org.boxoffice.mapstore;

import static org.boxoffice.mapstore.TestShows.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.boxoffice.domain.IdempotencyReplies.Reply;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Answers to Idempotency-Keys remembered in PostgreSQL: the first answer for a key wins, one older
 * than the cut-off is replaced, and answers remembered at the same time share statements while each
 * caller still hears its own outcome.
 */
class PostgresIdempotencyRepliesTest {

    private static final long DAY = 24 * 3_600_000L;
    private static HikariDataSource db;
    private static PostgresIdempotencyReplies replies;

    @BeforeAll
    static void database() {
        db = TestDatabase.newDataSource(10);
        replies = new PostgresIdempotencyReplies(db);
    }

    @AfterAll
    static void close() {
        replies.close();
        db.close();
    }

    private static Reply reply(String hash, int status, long at) {
        return new Reply(hash, status, "{\"for\":\"" + hash + "\"}", at);
    }

    @Test
    void theFirstAnswer_wins_untilItIsOlderThanTheCutOff() {
        Reply first = reply("h1", 201, T0);
        assertEquals(first, replies.remember("ann", "k1", first, T0 - DAY));
        assertEquals(first, replies.remember("ann", "k1", reply("h2", 409, T0 + 5), T0 + 5 - DAY),
                "a second answer for the key gets the first back");
        Reply later = reply("h3", 201, T0 + DAY + 1);
        assertEquals(later, replies.remember("ann", "k1", later, T0 + 1), "an answer older than the cut-off is replaced");
        assertEquals(later, replies.find("ann", "k1", T0).orElseThrow());
    }

    @Test
    void answersRememberedAtOnce_shareStatements_andEachCallerHearsItsOwn() throws Exception {
        // the keys a batch mixes: new ones, ones remembered before (their first answer comes back),
        // and one key sent twice at once (it goes alone after the batch; whichever lands first wins)
        for (int i = 0; i < 20; i++) {
            replies.remember("bea", "old-" + i, reply("first-" + i, 201, T0), T0 - DAY);
        }
        int senders = 64;
        CountDownLatch go = new CountDownLatch(1);
        List<Callable<Reply>> calls = new ArrayList<>();
        Map<Integer, String> asked = new HashMap<>();
        for (int i = 0; i < senders; i++) {
            int n = i;
            String key = n < 20 ? "old-" + n : n < 62 ? "new-" + n : "twice";
            asked.put(n, key);
            calls.add(() -> {
                go.await();
                return replies.remember("bea", key, reply("second-" + n, 201, T0 + 10), T0 + 10 - DAY);
            });
        }
        long batchesBefore = replies.batches().batches();
        long sharedBefore = replies.sharedAnswers();
        ExecutorService pool = Executors.newFixedThreadPool(senders);
        List<Future<Reply>> answers = new ArrayList<>();
        try {
            for (Callable<Reply> c : calls) {
                answers.add(pool.submit(c));
            }
            go.countDown();
            for (int i = 0; i < senders; i++) {
                Reply got = answers.get(i).get();
                String key = asked.get(i);
                if (key.startsWith("old-")) {
                    assertEquals("first-" + key.substring(4), got.requestHash(), key + ": the first answer stands");
                } else if (key.startsWith("new-")) {
                    assertEquals("second-" + i, got.requestHash(), key + ": its own answer");
                } else {
                    assertEquals(replies.find("bea", "twice", T0).orElseThrow(), got, "both senders of one key hear the answer kept");
                }
                assertEquals(got, replies.find("bea", key, T0).orElseThrow(), key + ": as PostgreSQL keeps it");
            }
        } finally {
            pool.shutdownNow();
        }
        long batches = replies.batches().batches() - batchesBefore;
        assertTrue(batches < senders, "64 answers at once went in " + batches + " batches");
        assertTrue(replies.sharedAnswers() - sharedBefore > 1, "no answer shared a statement with another");
    }
}
