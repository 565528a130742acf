package org.boxoffice.app;

import com.hazelcast.core.DistributedObject;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.boxoffice.app.holds.Rehearsal;
import org.boxoffice.grid.GridMaps;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A starting member's rehearsal, through the real wiring and its own HTTP port: it sells private
 * shows to itself and reads public answers, readiness waits for it, and it leaves nothing behind:
 * not a row in PostgreSQL, not a seat of the fans' shows, not a map in the grid, not a show in the
 * catalog.
 */
@ServerTest
class RehearsalTest {

    private static TestApp app;
    private final URI uri;
    private final TestApp.Http http;

    RehearsalTest(URI uri) {
        this.uri = uri;
        this.http = TestApp.Http.on(uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server);
    }

    @Test
    void aRehearsal_sellsPrivateShows_readinessWaitsForIt_andNothingOfItRemains() throws Exception {
        Map<String, Long> before = rows();
        String seatMapTag = http.get("/v1/shows/mahler-5-1/availability", null).headers().firstValue("ETag").orElseThrow();
        assertEquals(200, http.get("/observe/health/ready", null).status());

        // Main says a rehearsal is due before its web server listens: no probe sees the member ready in between
        app.app.rehearsalDue();
        TestApp.Http.Reply due = http.get("/observe/health/ready", null);
        assertEquals(503, due.status(), due.body());
        assertTrue(due.body().contains("\"rehearsed\":false"), due.body());

        Rehearsal rehearsal = app.app.rehearse(uri, Duration.ofSeconds(8));
        boolean sawNotReady = false;
        long deadline = System.currentTimeMillis() + 30_000;
        while (!rehearsal.done() && System.currentTimeMillis() < deadline) {
            TestApp.Http.Reply ready = http.get("/observe/health/ready", null);
            if (ready.status() == 503) {
                sawNotReady = true;
                assertTrue(ready.body().contains("\"rehearsed\":false"), ready.body());
            }
            Thread.sleep(100);
        }
        assertTrue(rehearsal.done(), "the rehearsal ends by its limit");
        assertTrue(sawNotReady, "readiness is down while the member rehearses");
        TestApp.Http.Reply ready = http.get("/observe/health/ready", null);
        for (long until = System.currentTimeMillis() + 5_000; ready.status() != 200 && System.currentTimeMillis() < until; ) {
            Thread.sleep(100);
            ready = http.get("/observe/health/ready", null);
        }
        assertEquals(200, ready.status(), ready.body());
        assertTrue(ready.body().contains("\"rehearsed\":true"), ready.body());

        Rehearsal.Result result = rehearsal.result();
        assertTrue(result.holds() > 0, result.toString());
        assertTrue(result.refusals() > 0, result.toString());
        assertTrue(result.reads() > 0, result.toString());
        assertTrue(result.errors() * 10 <= result.holds(), result.toString());

        assertEquals(before, rows(), "the rehearsal wrote nothing to PostgreSQL");
        assertEquals(seatMapTag, http.get("/v1/shows/mahler-5-1/availability", null).headers().firstValue("ETag").orElseThrow(),
                "the fans' seats did not move");
        for (DistributedObject o : app.app.hazelcast().getDistributedObjects()) {
            assertFalse(o.getName().startsWith(GridMaps.REHEARSAL_PREFIX), "left behind: " + o.getName());
        }
        assertTrue(app.app.directory().shows().stream().noneMatch(s -> s.showId().startsWith("~")));
        TestApp.Http.Reply events = http.get("/v1/events", null);
        assertEquals(200, events.status());
        assertFalse(events.body().contains("rehearsal"), events.body());
        assertEquals(404, http.get("/v1/shows/~rehearsal-x-0", null).status());
    }

    /**
     * A member joining a serving one rehearses on its private stage as a lite member: no partition
     * moves to it and no rehearsal map appears in the cluster while it rehearses; once it has
     * ended, the member owns partitions. It writes nothing.
     */
    @Test
    void aJoiningMember_rehearsesOnItsOwnStage_ownsNoPartitionUntilWarm_andLeavesNothing() throws Exception {
        Map<String, Long> before = rows();
        java.util.List<String> created = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        java.util.UUID listener = app.app.hazelcast().addDistributedObjectListener(new com.hazelcast.core.DistributedObjectListener() {
            @Override
            public void distributedObjectCreated(com.hazelcast.core.DistributedObjectEvent event) {
                created.add(String.valueOf(event.getObjectName()));
            }

            @Override
            public void distributedObjectDestroyed(com.hazelcast.core.DistributedObjectEvent event) {
            }
        });
        try (TestApp second = TestApp.joiningToRehearse(app)) {
            com.hazelcast.core.HazelcastInstance hz2 = second.app.hazelcast();
            long joined = System.currentTimeMillis() + 10_000;   // the first member hears of the join a moment later
            while (app.app.hazelcast().getCluster().getMembers().size() < 2 && System.currentTimeMillis() < joined) {
                Thread.sleep(20);
            }
            assertEquals(2, app.app.hazelcast().getCluster().getMembers().size());
            assertTrue(hz2.getCluster().getLocalMember().isLiteMember(), "joined as a lite member");
            Rehearsal rehearsal = second.app.rehearse(uri, Duration.ofSeconds(4));
            long deadline = System.currentTimeMillis() + 30_000;
            int liteWhileRehearsing = 0;
            while (!rehearsal.done() && System.currentTimeMillis() < deadline) {
                if (hz2.getCluster().getLocalMember().isLiteMember()) {
                    assertEquals(0, ownedBy(app.app.hazelcast(), hz2.getCluster().getLocalMember()));
                    liteWhileRehearsing++;
                }
                Thread.sleep(50);
            }
            assertTrue(rehearsal.done());
            assertTrue(liteWhileRehearsing > 20, "a lite member, owning nothing, while it rehearsed: " + liteWhileRehearsing);
            Rehearsal.Result result = rehearsal.result();
            assertTrue(result.holds() > 0 && result.errors() * 10 <= result.holds(), result.toString());
            assertFalse(hz2.getCluster().getLocalMember().isLiteMember(), "a data member once rehearsed");
            for (long until = System.currentTimeMillis() + 30_000; ownedBy(app.app.hazelcast(),
                    hz2.getCluster().getLocalMember()) == 0 && System.currentTimeMillis() < until; ) {
                Thread.sleep(100);
            }
            assertTrue(ownedBy(app.app.hazelcast(), hz2.getCluster().getLocalMember()) > 0, "partitions moved to it");
            for (TestApp member : java.util.List.of(app, second)) {
                for (DistributedObject o : member.app.hazelcast().getDistributedObjects()) {
                    assertFalse(o.getName().startsWith(GridMaps.REHEARSAL_PREFIX), "in the cluster: " + o.getName());
                }
            }
        } finally {
            app.app.hazelcast().removeDistributedObjectListener(listener);
        }
        assertTrue(created.stream().noneMatch(n -> n.startsWith(GridMaps.REHEARSAL_PREFIX)), created.toString());
        assertEquals(before, rows(), "the rehearsal wrote nothing to PostgreSQL");
    }

    private static long ownedBy(com.hazelcast.core.HazelcastInstance hz, com.hazelcast.cluster.Member member) {
        return hz.getPartitionService().getPartitions().stream().filter(p -> member.equals(p.getOwner())).count();
    }

    /** The rehearsal's tokens are signed with a key of its own: the service refuses them, however many at once. */
    @Test
    void tokensOfTheRehearsalsAuthenticator_areRefusedByTheService_inParallel() throws Exception {
        String tag = http.get("/v1/shows/mahler-5-1/availability", null).headers().firstValue("ETag").orElseThrow();
        org.boxoffice.app.auth.Authenticator own = Rehearsal.ownAuthenticator(System::currentTimeMillis);
        java.util.List<java.util.concurrent.Callable<Integer>> sends = new java.util.ArrayList<>();
        for (int i = 0; i < 32; i++) {
            String token = own.issue(i % 2 == 0 ? "~rehearsal-x-" + i : "alice", java.util.Set.of("admin"),
                    Duration.ofMinutes(1));
            sends.add(() -> http.post("/v1/shows/mahler-5-1/holds", token, "{\"seatIds\":[\"STALLS-1-1\"]}").status());
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(16);
        try {
            for (java.util.concurrent.Future<Integer> f : pool.invokeAll(sends)) {
                assertEquals(401, f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(tag, http.get("/v1/shows/mahler-5-1/availability", null).headers().firstValue("ETag").orElseThrow(),
                "nothing was held");
    }

    @Test
    void freshBlocks_goIntoARehearsalMapOnly() {
        org.boxoffice.domain.Show show = app.app.directory().find("mahler-5-1").orElseThrow();
        assertThrows(IllegalStateException.class, () -> app.app.inventory().putFresh(show));
    }

    private static Map<String, Long> rows() throws Exception {
        Map<String, Long> out = new LinkedHashMap<>();
        try (Connection c = app.dataSource.getConnection(); Statement st = c.createStatement()) {
            for (String q : new String[]{"SELECT count(*) FROM holds", "SELECT count(*) FROM seat_transitions",
                    "SELECT count(*) FROM seats WHERE state <> 'AVAILABLE'", "SELECT count(*) FROM shows",
                    "SELECT count(*) FROM seat_events"}) {
                try (ResultSet rs = st.executeQuery(q)) {
                    rs.next();
                    out.put(q, rs.getLong(1));
                }
            }
        }
        return out;
    }
}
