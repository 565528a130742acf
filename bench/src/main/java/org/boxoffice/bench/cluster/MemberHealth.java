package org.boxoffice.bench.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.bench.http.HttpConnection;
import org.boxoffice.bench.http.HttpResponse;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The members' readiness ({@code /observe/health/ready}) every {@value #PERIOD_MILLIS} ms, on a
 * thread of its own: what a Kubernetes Service acts on, as kube-proxy follows a Service's endpoints.
 * A member is ready when it serves now: it runs with its quorum, PostgreSQL answers, the catalog is
 * loaded and its start-up rehearsal (if any) is done. Whether the next member may go is another
 * question ({@code /observe/health/safe}, {@link #safe}).
 *
 * <p>A follower ({@link #follow}) hears every look as it is taken: the bench's Service stand-in
 * lists a member while its last look found it ready and takes it out at the first look that did not.
 */
public final class MemberHealth implements AutoCloseable {

    /**
     * One look at one member; {@code members} is the cluster size it sees (-1: no answer), or
     * {@link #UNWATCHED}: the member was taken out of the Service then and is not looked at any more.
     */
    public record Sample(long atNanos, String member, boolean ready, int members) {

        public static final int UNWATCHED = -2;

        static Sample unwatched(String member) {
            return new Sample(System.nanoTime(), member, false, UNWATCHED);
        }

        public boolean unwatched() {
            return members == UNWATCHED;
        }
    }

    static final long PERIOD_MILLIS = 250;
    private final List<java.util.function.Consumer<Sample>> followers = new java.util.concurrent.CopyOnWriteArrayList<>();

    private final Map<String, Integer> watched = new ConcurrentHashMap<>();
    private final List<Sample> samples = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    public MemberHealth() {
        thread = new Thread(this::loop, "member-health");
        thread.setDaemon(true);
        thread.start();
    }

    /** Hears every look from now on, on the watching thread. */
    public void follow(java.util.function.Consumer<Sample> follower) {
        followers.add(follower);
    }

    public void watch(String member, int httpPort) {
        watched.put(member, httpPort);
    }

    public void unwatch(String member) {
        watched.remove(member);
        synchronized (this) {
            samples.add(Sample.unwatched(member));
        }
    }

    public synchronized List<Sample> samples() {
        return List.copyOf(samples);
    }

    /** Asks one member now. */
    public static Sample ask(String member, int port) {
        try (HttpConnection c = new HttpConnection("127.0.0.1", port)) {
            HttpResponse r = c.get("/observe/health/ready", null);
            JsonNode data = null;
            for (JsonNode check : r.json().path("checks")) {
                if (check.path("data").has("members")) {
                    data = check.path("data");
                }
            }
            return new Sample(System.nanoTime(), member, r.status() == 200, data == null ? -1 : data.path("members").asInt(-1));
        } catch (IOException | RuntimeException e) {
            return new Sample(System.nanoTime(), member, false, -1);
        }
    }

    /** Whether the member says the next member may go ({@code /observe/health/safe}: nothing migrating, backups in sync). */
    public static boolean safe(int port) {
        try (HttpConnection c = new HttpConnection("127.0.0.1", port)) {
            return c.get("/observe/health/safe", null).status() == 200;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Waits until one member says the cluster is safe; the wait's end in nanoTime.
     *
     * @throws IllegalStateException after {@code timeoutMillis}
     */
    public static long awaitSafe(int port, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (System.nanoTime() < deadline) {
            if (safe(port)) {
                return System.nanoTime();
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the cluster was not safe within " + timeoutMillis + " ms");
    }

    /**
     * Waits until every listed member answers with {@code test} true; the wait's end in nanoTime.
     *
     * @throws IllegalStateException after {@code timeoutMillis}
     */
    public static long await(Map<String, Integer> members, Predicate<Sample> test, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (System.nanoTime() < deadline) {
            boolean all = true;
            for (Map.Entry<String, Integer> m : members.entrySet()) {
                all &= test.test(ask(m.getKey(), m.getValue()));
            }
            if (all) {
                return System.nanoTime();
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("members " + members.keySet() + " not as expected within " + timeoutMillis + " ms");
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }

    private void loop() {
        while (running) {
            for (Map.Entry<String, Integer> m : Map.copyOf(watched).entrySet()) {
                Sample s = ask(m.getKey(), m.getValue());
                if (!watched.containsKey(m.getKey())) {
                    continue; // unwatched while it was asked: a member on its way out
                }
                synchronized (this) {
                    samples.add(s);
                }
                followers.forEach(f -> f.accept(s));
            }
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
