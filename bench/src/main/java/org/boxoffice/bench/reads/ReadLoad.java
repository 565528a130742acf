package org.boxoffice.bench.reads;

import org.HdrHistogram.Recorder;
import org.boxoffice.bench.http.HttpConnection;
import org.boxoffice.bench.http.HttpResponse;
import org.boxoffice.bench.load.Latency;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Drives GET requests over keep-alive connections, one platform thread per connection (as the
 * flash-sale bench and its HTTP ceiling do), either as fast as answers come back ({@link #closed})
 * or at a fixed total rate ({@link #paced}). Paced latency is counted from when a request was due,
 * not from when it left, so a server that falls behind shows it in its percentiles (no coordinated
 * omission). Statistics are kept per request kind, so a mix reports each endpoint on its own.
 */
public final class ReadLoad {

    /**
     * One request: what it is for (its kind in the results), its path, the ETag to send (or null),
     * and whether it accepts gzip as every browser does.
     */
    public record Request(String kind, String path, String ifNoneMatch, boolean gzip) {

        /** A request as a browser sends it: accepting gzip. */
        public Request(String kind, String path, String ifNoneMatch) {
            this(kind, path, ifNoneMatch, true);
        }
    }

    private static final String ACCEPT_GZIP = "Accept-Encoding: gzip, deflate, br";

    /** What a connection asks next; a source may remember answers (a fan's ETag). */
    public interface Source {
        Request next(int connection);

        default void answered(int connection, Request request, HttpResponse response) {
        }
    }

    /** One kind's outcome: completed requests per second, latency, status counts and mean body size. */
    public record KindResult(String kind, long requests, double perSecond, Latency latency, Map<Integer, Long> statuses,
                             long meanBodyBytes, long errors) {

        /** Share of the answers that were 304. */
        public double notModifiedShare() {
            return requests == 0 ? 0 : statuses.getOrDefault(304, 0L) / (double) requests;
        }
    }

    /** A run's outcome: its length and each kind's figures, plus all kinds together. */
    public record Result(double seconds, KindResult total, Map<String, KindResult> kinds) {
    }

    private static final class Stats {
        final Recorder latency = new Recorder(3);
        final LongAdder requests = new LongAdder();
        final LongAdder bytes = new LongAdder();
        final LongAdder errors = new LongAdder();
        final Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();

        void record(long micros, HttpResponse r) {
            latency.recordValue(micros);
            requests.increment();
            bytes.add(r.body().length);
            statuses.computeIfAbsent(r.status(), s -> new LongAdder()).increment();
        }

        KindResult result(String kind, double seconds) {
            long n = requests.sum();
            Map<Integer, Long> s = new TreeMap<>();
            statuses.forEach((k, v) -> s.put(k, v.sum()));
            return new KindResult(kind, n, n / seconds, Latency.of(latency.getIntervalHistogram()), s,
                    n == 0 ? 0 : bytes.sum() / n, errors.sum());
        }
    }

    private final String host;
    private final int port;
    private final int connections;

    public ReadLoad(String host, int port, int connections) {
        this.host = host;
        this.port = port;
        this.connections = connections;
    }

    /** Every connection sends its next request as soon as the last is answered. */
    public Result closed(Source source, Duration duration) throws InterruptedException {
        return run(source, duration, 0);
    }

    /** {@code perSecond} requests a second in all, spread evenly over the connections. */
    public Result paced(Source source, Duration duration, double perSecond) throws InterruptedException {
        return run(source, duration, perSecond);
    }

    private Result run(Source source, Duration duration, double perSecond) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        Map<String, Stats> kinds = new ConcurrentHashMap<>();
        Stats total = new Stats();
        long intervalNanos = perSecond > 0 ? (long) (connections * 1e9 / perSecond) : 0;
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < connections; i++) {
            int connection = i;
            threads.add(Thread.ofPlatform().name("reads-" + i).start(() -> {
                // connections start spread over one interval, so paced requests do not arrive in waves
                long due = start + (intervalNanos > 0 ? ThreadLocalRandom.current().nextLong(intervalNanos) : 0);
                try (HttpConnection c = new HttpConnection(host, port)) {
                    while (!stop.get()) {
                        if (intervalNanos > 0) {
                            long wait = due - System.nanoTime();
                            if (wait > 0) {
                                LockSupport.parkNanos(wait);
                                if (stop.get()) {
                                    break;
                                }
                            }
                        }
                        Request request = source.next(connection);
                        long sent = System.nanoTime();
                        long from = intervalNanos > 0 ? due : sent;
                        Stats stats = kinds.computeIfAbsent(request.kind(), k -> new Stats());
                        try {
                            HttpResponse r = c.send("GET", request.path(), null, request.ifNoneMatch(),
                                    request.gzip() ? ACCEPT_GZIP : null, null);
                            long micros = (System.nanoTime() - from) / 1_000;
                            stats.record(micros, r);
                            total.record(micros, r);
                            source.answered(connection, request, r);
                        } catch (IOException e) {
                            stats.errors.increment();
                            total.errors.increment();
                            LockSupport.parkNanos(1_000_000); // the connection reopens on the next request
                        }
                        due += intervalNanos;
                    }
                }
            }));
        }
        Thread.sleep(duration.toMillis());
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Map<String, KindResult> out = new TreeMap<>();
        kinds.forEach((k, s) -> out.put(k, s.result(k, seconds)));
        return new Result(seconds, total.result("all", seconds), out);
    }

    /** The same request every time. */
    public static Source always(Request r) {
        return c -> r;
    }

    /** The same request every time, as a browser sends it. */
    public static Source always(String kind, String path, String ifNoneMatch) {
        return always(new Request(kind, path, ifNoneMatch));
    }

    /** The given requests in turn, each connection starting at its own place. */
    public static Source rotating(List<Request> requests) {
        long[] counters = new long[4096];
        return c -> requests.get((int) ((counters[c & 4095]++ + c) % requests.size()));
    }
}
