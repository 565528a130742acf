package org.boxoffice.bench.probe;

import org.boxoffice.bench.http.HttpResponse;
import org.boxoffice.bench.http.NioHttpClient;
import org.boxoffice.bench.load.Latency;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.time.Duration;
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
     * @param requestsPerSecond completed 200s per second over the measured interval
     * @param cpuSeconds        CPU seconds per process group over the interval (and {@code wall})
     */
    public record Result(String path, int connections, double seconds, double requestsPerSecond, Latency latency,
                         long requests, Map<String, Double> cpuSeconds) {

        public double serverMicrosPerRequest() {
            return micros("server");
        }

        public double generatorMicrosPerRequest() {
            return micros("load generator");
        }

        public double machineMicrosPerRequest() {
            return micros(CpuMeter.MACHINE);
        }

        private double micros(String group) {
            Double cpu = cpuSeconds == null ? null : cpuSeconds.get(group);
            return cpu == null || requests == 0 ? 0 : cpu * 1e6 / requests;
        }
    }

    private HttpCeiling() {
    }

    public static Result measure(String host, int port, String path, int connections, Duration duration, CpuMeter meter)
            throws IOException {
        Histogram latency = new Histogram(3);
        long[] ok = {0};
        try (NioHttpClient client = new NioHttpClient(host, port, connections, new NioHttpClient.Listener() {
            @Override
            public void completed(Object tag, HttpResponse response, long at) {
                latency.recordValue(Math.max(0, at - (Long) tag) / 1_000);
                if (response.status() == 200) {
                    ok[0]++;
                }
            }

            @Override
            public void failed(Object tag, IOException error, long at) {
                // counted by omission: only 200s make the ceiling
            }
        })) {
            byte[] request = client.request("GET", path, null, null, null, null);
            CpuMeter.Sample before = meter.sample();
            long start = System.nanoTime();
            long end = start + duration.toNanos();
            long now;
            while ((now = System.nanoTime()) < end) {
                while (client.hasIdle()) {
                    client.send(request, now, false);
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
            return new Result(path, connections, seconds, sent / ((end - start) / 1e9), Latency.of(latency), ok[0],
                    CpuMeter.between(before, after));
        }
    }
}
