package org.boxoffice.bench.probe;

import org.boxoffice.bench.http.HttpConnection;
import org.boxoffice.bench.http.HttpResponse;
import org.boxoffice.bench.load.Latency;
import org.HdrHistogram.Recorder;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The most requests per second this machine serves through the same web server and the same load
 * generator when the handler does nothing: the ceiling every system's hold rate sits under. On a
 * machine where client, server and database share two cores, a target above this ceiling cannot
 * be met by any server code.
 */
public final class HttpCeiling {

    /** @param requestsPerSecond completed 200s per second over the measured interval */
    public record Result(String path, int connections, double seconds, double requestsPerSecond, Latency latency) {
    }

    private HttpCeiling() {
    }

    public static Result measure(String host, int port, String path, int connections, Duration duration)
            throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder ok = new LongAdder();
        Recorder latency = new Recorder(3);
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < connections; i++) {
            threads.add(Thread.ofPlatform().name("ceiling-" + i).start(() -> {
                try (HttpConnection c = new HttpConnection(host, port)) {
                    while (!stop.get()) {
                        long t0 = System.nanoTime();
                        HttpResponse r = c.get(path, null);
                        latency.recordValue((System.nanoTime() - t0) / 1_000);
                        if (r.status() == 200) {
                            ok.increment();
                        }
                    }
                } catch (IOException e) {
                    // the run ends with the first failure on this connection
                }
            }));
        }
        Thread.sleep(duration.toMillis());
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Result(path, connections, seconds, ok.sum() / seconds, Latency.of(latency.getIntervalHistogram()));
    }
}
