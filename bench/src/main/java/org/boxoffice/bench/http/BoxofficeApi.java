package org.boxoffice.bench.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;

/**
 * The set-up calls the bench makes on Boxoffice before and after a run (tokens, shows, readiness),
 * over {@link HttpConnection}. Not on the measured path. Thread-safe: every call opens its own
 * connection or uses one per worker.
 */
public final class BoxofficeApi {

    private final String host;
    private final int port;

    public BoxofficeApi(String host, int port) {
        this.host = host;
        this.port = port;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public HttpConnection connect() {
        return new HttpConnection(host, port);
    }

    /**
     * Waits until {@code /observe/health/ready} answers 200.
     *
     * @param alive false once the process behind the URL has died: stop waiting then
     */
    public void awaitReady(Duration timeout, BooleanSupplier alive) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!alive.getAsBoolean()) {
                throw new IllegalStateException("the service exited before it was ready");
            }
            try (HttpConnection c = connect()) {
                HttpResponse r = c.get("/observe/health/ready", null);
                if (r.status() == 200) {
                    return;
                }
                last = "HTTP " + r.status() + " " + r.text();
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("the service at " + host + ":" + port + " was not ready within "
                + timeout.toSeconds() + " s (last: " + last + ")");
    }

    /** A dev token ({@code POST /v1/dev/tokens}); the service must run with dev tokens on. */
    public static String token(HttpConnection c, String accountId, boolean admin) throws IOException {
        String body = "{\"accountId\":\"" + accountId + "\"" + (admin ? ",\"roles\":[\"admin\"]" : "") + "}";
        HttpResponse r = c.post("/v1/dev/tokens", null, body);
        if (r.status() == 404) {
            throw new IllegalStateException("the service issues no dev tokens (set BOXOFFICE_AUTH_DEVTOKENS=true)");
        }
        return r.expect(201, "dev token for " + accountId).json().path("token").asText();
    }

    public String adminToken() {
        try (HttpConnection c = connect()) {
            return token(c, "bench-admin", true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One token per account, fetched over {@code parallelism} connections; in the accounts' order. */
    public List<String> tokens(List<String> accountIds, int parallelism) throws InterruptedException {
        String[] out = new String[accountIds.size()];
        overConnections(out.length, parallelism, "fetching buyer tokens",
                (c, i) -> out[i] = token(c, accountIds.get(i), false));
        return Arrays.asList(out);
    }

    /** One call per index in {@code [0, count)}, spread over {@code parallelism} connections of their own. */
    private void overConnections(int count, int parallelism, String what, Call call) throws InterruptedException {
        int workers = Math.max(1, Math.min(parallelism, count));
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                int first = w;
                futures.add(pool.submit(() -> {
                    try (HttpConnection c = connect()) {
                        for (int i = first; i < count; i += workers) {
                            call.on(c, i);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(what + " failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** One request on a worker's connection. */
    @FunctionalInterface
    private interface Call {
        void on(HttpConnection c, int index) throws IOException;
    }

    /** Turns the show's waiting room on, admitting {@code ratePerSecond} buyers a second. */
    public void openWaitingRoom(String adminToken, String showId, double ratePerSecond) {
        try (HttpConnection c = connect()) {
            c.send("PUT", "/v1/admin/shows/" + showId + "/queue", adminToken, null, null,
                    "{\"mode\":\"ON\",\"admissionRate\":" + ratePerSecond + "}").expect(200, "waiting room of " + showId);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A place in a waiting room: the queue token and the position the room gave. */
    public record QueuePlace(String queueToken, long position) {
    }

    /**
     * Each token's account joins the show's waiting room ({@code POST /v1/shows/{id}/queue}), over
     * {@code parallelism} connections; returns the places in the order of {@code tokens}.
     */
    public List<QueuePlace> joinQueue(String showId, List<String> tokens, int parallelism) throws InterruptedException {
        QueuePlace[] out = new QueuePlace[tokens.size()];
        overConnections(tokens.size(), parallelism, "joining the waiting room", (c, i) -> {
            JsonNode j = c.post("/v1/shows/" + showId + "/queue", tokens.get(i), null)
                    .expect(200, "joining the queue of " + showId).json();
            out[i] = new QueuePlace(j.path("queueToken").asText(), j.path("position").asLong());
        });
        return List.of(out);
    }

    /** Creates a show; returns the service's answer ({@code showId}, {@code seatCount}, {@code blocks}, ...). */
    public JsonNode createShow(String adminToken, ObjectNode request) {
        try (HttpConnection c = connect()) {
            HttpResponse r = c.post("/v1/admin/shows", adminToken, request.toString());
            if (r.status() == 422 && r.text().contains("UNKNOWN_EVENT")) {
                throw new IllegalStateException("the service has no event " + request.path("eventId").asText()
                        + ": keep the demo catalog seeded (BOXOFFICE_DEMO_SEED=true) or pass --event");
            }
            return r.expect(201, "create show").json();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code GET /v1/shows/{showId}}. */
    public JsonNode show(String showId) {
        try (HttpConnection c = connect()) {
            return c.get("/v1/shows/" + showId, null).expect(200, "show " + showId).json();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
