package org.boxoffice.grid.limits;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import org.boxoffice.grid.InMemoryInventoryRepository;
import org.boxoffice.grid.TestGrid;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Three real members: a client spreading its requests over all of them is limited exactly as on one. */
class VelocityLimitsGridTest {

    private static List<HazelcastInstance> members;
    private static final AtomicLong clock = new AtomicLong(1_000_000);

    @BeforeAll
    static void start() {
        members = TestGrid.start(3, new InMemoryInventoryRepository());
    }

    @AfterAll
    static void stop() {
        members.forEach(HazelcastInstance::shutdown);
    }

    private static int allowed(List<VelocityLimits> limits, String key, int perMinute, int requests) {
        int ok = 0;
        for (int i = 0; i < requests; i++) {
            if (limits.get(i % limits.size()).take(key, perMinute) == 0) {
                ok++;
            }
        }
        return ok;
    }

    @Test
    void aClientSpreadOverThreeMembers_getsTheLimitOfOne() {
        assertEquals(3, members.get(0).getCluster().getMembers().size());
        List<VelocityLimits> spread = members.stream().map(hz -> new VelocityLimits(hz, clock::get)).toList();
        List<VelocityLimits> one = List.of(spread.get(0));

        assertEquals(10, allowed(one, "acct:one-member", 10, 30));
        assertEquals(10, allowed(spread, "acct:three-members", 10, 30), "no member grants its own 10");

        // the refusal says when the next token comes: a minute's 10 tokens is one per 6 s
        long wait = spread.get(1).take("acct:three-members", 10);
        assertTrue(wait > 0 && wait <= 6_000, "wait " + wait);
        clock.addAndGet(6_000);
        assertEquals(0, spread.get(2).take("acct:three-members", 10), "a token came back after 6 s, on any member");
        assertTrue(spread.get(0).take("acct:three-members", 10) > 0);
    }

    @Test
    void twoKeysAreTakenTogether_andEachCountsTheRequest() {
        List<VelocityLimits> spread = members.stream().map(hz -> new VelocityLimits(hz, clock::get)).toList();
        int ok = 0;
        for (int i = 0; i < 12; i++) {
            // one address, a new account each time: the address runs out after 5
            if (spread.get(i % 3).take("acct:bot-" + i, 3, "addr:10.0.0.9", 5) == 0) {
                ok++;
            }
        }
        assertEquals(5, ok);
        assertTrue(spread.get(0).take("acct:bot-0", 3, "addr:10.0.0.10", 5) == 0, "another address, the account's second");
        assertEquals(0, spread.get(0).take("acct:any", 0, "addr:any", 0), "0 is no limit");
    }

    @Test
    void aChallengeIsSpentOnce_acrossMembers() {
        SpentChallenges a = new SpentChallenges(members.get(0));
        SpentChallenges b = new SpentChallenges(members.get(1));
        SpentChallenges c = new SpentChallenges(members.get(2));
        long now = System.currentTimeMillis();
        assertTrue(a.spend("nonce-1", now + 60_000, now));
        assertFalse(b.spend("nonce-1", now + 60_000, now));
        assertFalse(c.spend("nonce-1", now + 60_000, now));
        assertTrue(c.spend("nonce-2", now + 60_000, now));
    }

    @Test
    void bucketsAndTakes_roundTrip() {
        SerializationService ss = ((SerializationServiceSupport) members.get(0)).getSerializationService();
        RateBucket bucket = new RateBucket(2.5, 123);
        assertEquals(bucket, ss.toObject(ss.toData(bucket)));
        TakeTokenProcessor take = new TakeTokenProcessor(60, 456);
        assertEquals(take, ss.toObject(ss.toData(take)));
    }

    @Test
    void aBucket_refillsContinuously_andNeverRunsBackwards() {
        RateBucket.Take first = RateBucket.full(60, 0).take(60, 0);
        assertTrue(first.allowed());
        assertEquals(59, first.next().tokens(), 1e-9);
        RateBucket empty = new RateBucket(0, 10_000);
        assertEquals(1_000, empty.take(60, 10_000).retryAfterMillis());
        assertTrue(empty.take(60, 11_000).allowed(), "one token a second at 60 a minute");
        assertFalse(empty.take(60, 5_000).allowed(), "a request stamped before the last count refills nothing");
    }
}
