package org.boxoffice.bench.probe;

import org.boxoffice.bench.http.HttpResponse;
import org.boxoffice.bench.http.NioHttpClient;
import org.boxoffice.bench.load.Latency;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The most requests per second this machine serves through the same web server and the same load
 * generator when the handler does nothing: the ceiling every system's hold rate sits under. On a
 * machine where client, server and database share two cores, a target above this ceiling cannot
 * be met by any server code. Its CPU per request (server and generator) is the machine's floor:
 * what one request costs before any work is done.
 *
 * <p>Closed loop over {@code connections} keep-alive connections of the stampede's own
 * {@link NioHttpClient}: every answer sends the next request at once.
 */
public final class HttpCeiling {

    /**
     * @param requestsPerSecond completed answers of the expected status (200, or 409 for refusals) per second over the measured interval
     * @param requests          those answers
     * @param otherAnswers      answers of any other status (not counted in the rate; their CPU is in {@code cpuSeconds})
     * @param cpuSeconds        CPU seconds per process group over the interval (and {@code wall})
     */
    public record Result(String path, int connections, double seconds, double requestsPerSecond, Latency latency,
                         long requests, long otherAnswers, Map<String, Double> cpuSeconds) {

        public double serverMicrosPerRequest() {
            return micros("server");
        }

        public double generatorMicrosPerRequest() {
            return micros("load generator");
        }

        public double machineMicrosPerRequest() {
            return micros(CpuMeter.MACHINE);
        }

        /** CPU microseconds of one process group per counted answer. */
        public double micros(String group) {
            Double cpu = cpuSeconds == null ? null : cpuSeconds.get(group);
            return cpu == null || requests == 0 ? 0 : cpu * 1e6 / requests;
        }
    }

    private HttpCeiling() {
    }

    public static Result measure(String host, int port, String path, int connections, Duration duration, CpuMeter meter)
            throws IOException {
        return run(host, port, path, connections, duration, meter, 0);
    }

    /**
     * The empty handler at an offered rate instead of as fast as it answers: requests leave at even
     * intervals of {@code 1 / perSecond}, whatever the answers do. A server's CPU per request depends
     * on its load (at its ceiling one wake-up serves many requests; at a few thousand a second each
     * request pays its own), so a handler's cost is only comparable with the floor at the same rate.
     */
    public static Result paced(String host, int port, String path, int connections, double perSecond, Duration duration,
                               CpuMeter meter) throws IOException {
        if (!(perSecond > 0)) {
            throw new IllegalArgumentException("rate must be positive");
        }
        return run(host, port, path, connections, duration, meter, perSecond);
    }

    /**
     * Refusals at their own ceiling: the same closed loop over the same connections, each request
     * the next of {@code requests} (built on the probe's own client, cycled), counting the answers
     * with status {@code expected} (409 for a hold attempt on a sold-out show). Its server CPU per
     * answer is the refusal's cost measured the way the empty handler's floor is: many requests per
     * wake-up, so the two compare like for like.
     *
     * @param requests builds the requests to cycle through, once, on the probe's client
     */
    public static Result closedLoop(String host, int port, String label, java.util.function.Function<NioHttpClient, List<byte[]>> requests,
                                    int expected, int connections, Duration duration, CpuMeter meter) throws IOException {
        return run(host, port, label, requests, expected, connections, duration, meter, 0);
    }

    private static Result run(String host, int port, String path, int connections, Duration duration, CpuMeter meter,
                              double perSecond) throws IOException {
        return run(host, port, path, client -> List.of(client.request("GET", path, null, null, null, null)), 200,
                connections, duration, meter, perSecond);
    }

    private static Result run(String host, int port, String path, java.util.function.Function<NioHttpClient, List<byte[]>> requests,
                              int expected, int connections, Duration duration, CpuMeter meter, double perSecond) throws IOException {
        Histogram latency = new Histogram(3);
        long[] ok = {0};
        long[] other = {0};
        try (NioHttpClient client = new NioHttpClient(host, port, connections, new NioHttpClient.Listener() {
            @Override
            public void completed(Object tag, HttpResponse response, long at) {
                latency.recordValue(Math.max(0, at - (Long) tag) / 1_000);
                if (response.status() == expected) {
                    ok[0]++;
                } else {
                    other[0]++;
                }
            }

            @Override
            public void failed(Object tag, IOException error, long at) {
                // counted by omission: only answers of the expected status make the ceiling
            }
        })) {
            List<byte[]> toSend = requests.apply(client);
            int next = 0;
            CpuMeter.Sample before = meter.sample();
            long start = System.nanoTime();
            long end = start + duration.toNanos();
            long now;
            double gap = perSecond > 0 ? 1e9 / perSecond : 0;
            long sentCount = 0;
            while ((now = System.nanoTime()) < end) {
                if (perSecond > 0) {
                    long due;
                    while ((due = start + (long) (sentCount * gap)) <= now && client.hasIdle()) {
                        client.send(toSend.get(next), due, false);
                        next = (next + 1) % toSend.size();
                        sentCount++;
                    }
                    client.poll(Math.max(1, Math.min(end, start + (long) (sentCount * gap)) - System.nanoTime()));
                    continue;
                }
                while (client.hasIdle()) {
                    client.send(toSend.get(next), now, false);
                    next = (next + 1) % toSend.size();
                }
                client.poll(end - now);
            }
            long sent = ok[0];
            // let the last answers come back so the CPU they cost is counted with them
            long drain = System.nanoTime() + 1_000_000_000L;
            while (client.inFlight() > 0 && System.nanoTime() < drain) {
                client.poll(10_000_000L);
            }
            CpuMeter.Sample after = meter.sample();
            double seconds = (System.nanoTime() - start) / 1e9;
            return new Result(path, connections, seconds, sent / ((end - start) / 1e9), Latency.of(latency), ok[0], other[0],
                    CpuMeter.between(before, after));
        }
    }
}
