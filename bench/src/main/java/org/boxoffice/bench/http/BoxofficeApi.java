package org.boxoffice.bench.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
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

    /** Gives account {@code i} (by its token) the phone number {@code phones.get(i)}, over {@code parallelism} connections. */
    public void phones(List<String> tokens, List<String> phones, int parallelism) throws InterruptedException {
        overConnections(tokens.size(), parallelism, "setting the buyers' phone numbers",
                (c, i) -> c.send("PUT", "/v1/accounts/me/phone", tokens.get(i), null, null,
                        "{\"phone\":\"" + phones.get(i) + "\"}").expect(200, "phone number " + i));
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

    /**
     * Turns the show's waiting room on, admitting {@code ratePerSecond} buyers a second, its door asking
     * a proof of work of {@code challengeDifficulty} key derivations on average (0: none).
     */
    public void openWaitingRoom(String adminToken, String showId, double ratePerSecond, int challengeDifficulty) {
        try (HttpConnection c = connect()) {
            c.send("PUT", "/v1/admin/shows/" + showId + "/queue", adminToken, null, null,
                    "{\"mode\":\"ON\",\"admissionRate\":" + ratePerSecond + ",\"challengeDifficulty\":"
                            + challengeDifficulty + "}").expect(200, "waiting room of " + showId);
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
            JsonNode j = join(c, showId, tokens.get(i), fanAddress(i)).expect(200, "joining the queue of " + showId).json();
            out[i] = new QueuePlace(j.path("queueToken").asText(), j.path("position").asLong());
        });
        return List.of(out);
    }

    /**
     * Joins a waiting room through its door as a fan's browser does, from {@code address} (sent as
     * {@code X-Forwarded-For}, which the bench's service trusts): asks for a challenge, solves it and
     * joins with the solution; joins without one when the room asks none.
     */
    /** How many times a fan asks a busy door again. */
    private static final int BUSY_TRIES = 30;

    public static HttpResponse join(HttpConnection c, String showId, String token, String address) throws IOException {
        String from = "X-Forwarded-For: " + address;
        HttpResponse challenge = c.send("GET", "/v1/challenge?showId=" + showId, token, null, from, null);
        // a busy door (the member's issuing budget) says when to ask again, as a browser is told
        for (int tries = 1; challenge.status() == 429 && tries < BUSY_TRIES; tries++) {
            long seconds = Math.max(1, challenge.json().path("retryAfterSeconds").asLong(1));
            try {
                Thread.sleep(seconds * 1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting at the door", e);
            }
            challenge = c.send("GET", "/v1/challenge?showId=" + showId, token, null, from, null);
        }
        String solution = null;
        if (challenge.status() == 200) {
            solution = ChallengeSolver.solve(challenge.json());
        } else if (challenge.status() != 409) {
            challenge.expect(200, "a challenge for " + showId);
        }
        return c.send("POST", "/v1/shows/" + showId + "/queue", token, null,
                solution == null ? from : from + "\r\nChallenge-Solution: " + solution, null);
    }

    /** A client address of its own for the {@code i}th fan (fans reach the service from many networks). */
    public static String fanAddress(int i) {
        return "10." + ((i >> 16) & 255) + "." + ((i >> 8) & 255) + "." + (i & 255);
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

    /** {@code POST /v1/admin/shows/{showId}/areas}: a general-admission area of {@code capacity} at 59.00, the service's own stripes. */
    public void createArea(String adminToken, String showId, String area, int capacity) {
        try (HttpConnection c = connect()) {
            c.post("/v1/admin/shows/" + showId + "/areas", adminToken,
                    "{\"name\":\"" + area + "\",\"capacity\":" + capacity + ",\"price\":\"59.00\"}").expect(201, "create area");
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
