package org.boxoffice.app.fault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Executors;

/**
 * A small JSON-over-HTTP client for the fault tests: one {@link HttpClient} (HTTP/1.1, pooled
 * connections, so a killed member's connections break like a real load balancer's would), every
 * call with its own timeout. Transport failures are thrown as {@link IOException}: the caller
 * decides what an unknown outcome means.
 */
final class Http implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();

    /** A whole answer. */
    record Reply(int status, String body) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new IllegalStateException("not JSON (" + status + "): " + abbreviate(body), e);
            }
        }

        /** The {@code error} code of a JSON error body, or "" when there is none. */
        String code() {
            try {
                JsonNode n = JSON.readTree(body);
                return n != null && n.hasNonNull("error") ? n.get("error").asText() : "";
            } catch (IOException e) {
                return "";
            }
        }

        @Override
        public String toString() {
            return status + " " + abbreviate(body);
        }
    }

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .executor(Executors.newVirtualThreadPerTaskExecutor())
            .build();

    Reply get(URI base, String path, String token, Duration timeout) throws IOException {
        return send(request(base, path, token, timeout).GET().build());
    }

    /** A GET asking for {@code accept} (the metrics endpoint answers Prometheus text for text/plain). */
    Reply getAccepting(URI base, String path, String accept, Duration timeout) throws IOException {
        return send(request(base, path, null, timeout).header("Accept", accept).GET().build());
    }

    Reply post(URI base, String path, String token, String body, String idempotencyKey, Duration timeout)
            throws IOException {
        HttpRequest.Builder b = request(base, path, token, timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (idempotencyKey != null) {
            b.header("Idempotency-Key", idempotencyKey);
        }
        return send(b.build());
    }

    Reply delete(URI base, String path, String token, Duration timeout) throws IOException {
        return send(request(base, path, token, timeout).DELETE().build());
    }

    /** Any method, with a JSON body or none, and extra headers as name, value pairs. */
    Reply call(String method, URI base, String path, String token, String body, Duration timeout, String... headers)
            throws IOException {
        HttpRequest.Builder b = request(base, path, token, timeout).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return send(b.build());
    }

    /** A call that must work (setup, verification): transport failures become unchecked. */
    Reply must(IoCall call) {
        try {
            return call.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FunctionalInterface
    interface IoCall {
        Reply run() throws IOException;
    }

    private static HttpRequest.Builder request(URI base, String path, String token, Duration timeout) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout);
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return b;
    }

    private Reply send(HttpRequest request) throws IOException {
        try {
            HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    static String abbreviate(String s) {
        if (s == null) {
            return "";
        }
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }

    static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
