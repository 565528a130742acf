package org.boxoffice.bench.probe;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HttpCeilingTest {

    @Test
    void closedLoop_cyclesThroughItsRequests_andCountsOnlyTheExpectedStatus() throws Exception {
        AtomicLong refused = new AtomicLong();
        AtomicLong other = new AtomicLong();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/holds", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            boolean refuse = new String(body, StandardCharsets.UTF_8).contains("taken");
            (refuse ? refused : other).incrementAndGet();
            byte[] answer = refuse ? "{\"error\":\"SEATS_UNAVAILABLE\"}".getBytes(StandardCharsets.UTF_8) : new byte[0];
            exchange.sendResponseHeaders(refuse ? 409 : 201, answer.length == 0 ? -1 : answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(4));
        server.start();
        try {
            CpuMeter meter = new CpuMeter(Map.of("server", () -> List.of(ProcessHandle.current())));
            HttpCeiling.Result r = HttpCeiling.closedLoop("127.0.0.1", server.getAddress().getPort(), "POST /holds",
                    client -> List.of(
                            client.request("POST", "/holds", "t1", null, null, "{\"seatIds\":[\"taken\"]}"),
                            client.request("POST", "/holds", "t2", null, null, "{\"seatIds\":[\"taken\"]}"),
                            client.request("POST", "/holds", "t3", null, null, "{\"seatIds\":[\"free\"]}")),
                    409, 4, Duration.ofSeconds(2), meter);

            assertTrue(r.requests() > 10, "answers counted: " + r.requests());
            // two of every three requests are refused: the count of 409s and of the rest follow the cycle
            assertEquals(refused.get(), r.requests());
            assertEquals(other.get(), r.otherAnswers());
            assertTrue(Math.abs(r.requests() - 2 * r.otherAnswers()) <= 8,
                    r.requests() + " refusals against " + r.otherAnswers() + " others");
            assertTrue(r.requestsPerSecond() > 0);
            assertTrue(r.serverMicrosPerRequest() > 0, "this process's CPU is the server's here");
        } finally {
            server.stop(0);
        }
    }
}
