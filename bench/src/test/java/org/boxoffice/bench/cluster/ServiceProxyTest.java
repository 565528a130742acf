package org.boxoffice.bench.cluster;

import com.sun.net.httpserver.HttpServer;
import org.boxoffice.bench.http.HttpResponse;
import org.boxoffice.bench.http.NioHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServiceProxyTest {

    private static final int CONNECTIONS = 8;

    private final List<HttpServer> servers = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private final List<String> answers = new ArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(s -> s.stop(0));
    }

    @Test
    void spreadsConnectionsOverTheListedMembers_andEndsThemWithoutCuttingARequest() throws Exception {
        try (ServiceProxy proxy = new ServiceProxy(4)) {
            proxy.add(backend("a"));
            proxy.add(backend("b"));
            send(proxy, 400);

            assertEquals(List.of(), failures, "requests cut off");
            assertEquals(400, answers.size());
            assertTrue(answers.contains("a") && answers.contains("b"), "answered by " + Map.of(
                    "a", answers.stream().filter("a"::equals).count(), "b", answers.stream().filter("b"::equals).count()));
            Map<String, Long> requests = proxy.requests();
            assertEquals(400, requests.get("a") + requests.get("b"), "requests counted per member " + requests);
            // each connection lasts 2-5 requests, so the 8 connections were opened again and again
            assertTrue(proxy.connections().get("a") + proxy.connections().get("b") > 400 / 5, "connections " + proxy.connections());
        }
    }

    @Test
    void aMemberTakenOut_getsNoRequestsOnceEachOfItsConnectionsHadItsLast() throws Exception {
        try (ServiceProxy proxy = new ServiceProxy(1_000)) {
            proxy.add(backend("a"));
            proxy.add(backend("b"));
            send(proxy, 100);
            proxy.remove("a");
            // one more request per connection at most reaches a, and that one ends its connection
            send(proxy, 2 * CONNECTIONS);
            answers.clear();
            send(proxy, 100);

            assertEquals(List.of(), failures, "requests cut off");
            assertEquals(100, answers.stream().filter("b"::equals).count(), "answered by " + answers);
        }
    }

    @Test
    void followingReadiness_listsAMemberWhileItIsReady_andTakesItOutWhileItIsNot() throws Exception {
        Map<String, java.util.concurrent.atomic.AtomicBoolean> ready = Map.of("a", new java.util.concurrent.atomic.AtomicBoolean(true),
                "b", new java.util.concurrent.atomic.AtomicBoolean(false));
        try (ServiceProxy proxy = new ServiceProxy(3); MemberHealth health = new MemberHealth()) {
            Map<String, ServiceProxy.Backend> backends = Map.of("a", backend("a", ready.get("a")), "b", backend("b", ready.get("b")));
            health.follow(sample -> proxy.follow(backends.get(sample.member()), sample.ready()));
            backends.values().forEach(b -> health.watch(b.name(), b.port()));
            Thread.sleep(3 * MemberHealth.PERIOD_MILLIS);
            send(proxy, 60);
            assertEquals(60, answers.stream().filter("a"::equals).count(), "b is not ready: " + answers);

            ready.get("b").set(true);
            Thread.sleep(3 * MemberHealth.PERIOD_MILLIS);
            answers.clear();
            send(proxy, 200);
            assertTrue(answers.contains("b"), "b is listed once ready: " + answers.stream().distinct().toList());

            ready.get("a").set(false);
            Thread.sleep(3 * MemberHealth.PERIOD_MILLIS);
            // each connection to a ends after its next request
            send(proxy, 2 * CONNECTIONS);
            answers.clear();
            send(proxy, 100);
            assertEquals(100, answers.stream().filter("b"::equals).count(), "a is not ready: " + answers.stream().distinct().toList());
            assertEquals(List.of(), failures, "requests cut off");
        }
    }

    @Test
    void withNoMemberListed_connectionsAreRefused() throws Exception {
        try (ServiceProxy proxy = new ServiceProxy(10)) {
            send(proxy, 3);
            assertEquals(3, failures.size(), "failures " + failures);
            assertTrue(proxy.refused() >= 1);
        }
    }

    private ServiceProxy.Backend backend(String name) throws IOException {
        return backend(name, new java.util.concurrent.atomic.AtomicBoolean(true));
    }

    /** A member answering its name, and readiness 200 while {@code ready}, else 503. */
    private ServiceProxy.Backend backend(String name, java.util.concurrent.atomic.AtomicBoolean ready) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.createContext("/observe/health/ready", exchange -> {
            byte[] body = "{\"status\":\"UP\",\"checks\":[]}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(ready.get() ? 200 : 503, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/", exchange -> {
            byte[] body = name.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        servers.add(server);
        return new ServiceProxy.Backend(name, "127.0.0.1", server.getAddress().getPort());
    }

    /** {@code n} requests over {@link #CONNECTIONS} keep-alive connections through the proxy. */
    private void send(ServiceProxy proxy, int n) throws Exception {
        int[] done = new int[1];
        try (NioHttpClient client = new NioHttpClient("127.0.0.1", proxy.port(), CONNECTIONS, new NioHttpClient.Listener() {
            @Override
            public void completed(Object tag, HttpResponse response, long at) {
                done[0]++;
                answers.add(response.text());
            }

            @Override
            public void failed(Object tag, IOException error, long at) {
                done[0]++;
                failures.add(tag + ": " + error);
            }
        })) {
            int sent = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (done[0] < n && System.nanoTime() < deadline) {
                while (sent < n && client.hasIdle()) {
                    client.send(client.request("GET", "/x", null, null, null, null), sent++, false);
                }
                client.poll(TimeUnit.MILLISECONDS.toNanos(50));
            }
            assertEquals(n, done[0], "answered or failed");
        } catch (IOException e) {
            // with no member listed the client may fail to even open its connections
            failures.add("open: " + e);
            for (int i = failures.size(); i < n; i++) {
                failures.add("not sent");
            }
        }
    }
}
