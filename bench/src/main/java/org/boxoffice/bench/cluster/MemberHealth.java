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
 * The members' readiness ({@code /observe/health/ready}) every half second, on a thread of its
 * own: what a Kubernetes Service would act on. A member is ready when it runs, the cluster is safe
 * (no partition migrating, every backup in place), PostgreSQL answers and the catalog is loaded.
 */
public final class MemberHealth implements AutoCloseable {

    /** One look at one member; {@code members} is the cluster size it sees (-1: no answer). */
    public record Sample(long atNanos, String member, boolean ready, boolean clusterSafe, int members) {
    }

    private static final long PERIOD_MILLIS = 500;

    private final Map<String, Integer> watched = new ConcurrentHashMap<>();
    private final List<Sample> samples = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    public MemberHealth() {
        thread = new Thread(this::loop, "member-health");
        thread.setDaemon(true);
        thread.start();
    }

    public void watch(String member, int httpPort) {
        watched.put(member, httpPort);
    }

    public void unwatch(String member) {
        watched.remove(member);
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
            return new Sample(System.nanoTime(), member, r.status() == 200,
                    data != null && data.path("clusterSafe").asBoolean(), data == null ? -1 : data.path("members").asInt(-1));
        } catch (IOException | RuntimeException e) {
            return new Sample(System.nanoTime(), member, false, false, -1);
        }
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
                synchronized (this) {
                    samples.add(s);
                }
            }
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
