package org.boxoffice.app;

import com.fasterxml.jackson.databind.JsonNode;
import org.boxoffice.app.http.Json;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/** A client of a server-sent event stream, read on a thread of its own; events arrive in {@link #events}. */
final class EventStream implements AutoCloseable {

    /** One server-sent event. */
    record Event(String id, String name, JsonNode data) {
    }

    final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    final HttpResponse<InputStream> response;
    private final Thread reader;

    EventStream(URI base, String path) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        response = client.send(HttpRequest.newBuilder(base.resolve(path)).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofInputStream());
        reader = Thread.ofVirtual().start(this::read);
    }

    private void read() {
        try (var lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String id = null;
            String name = null;
            StringBuilder data = new StringBuilder();
            for (String line; (line = lines.readLine()) != null; ) {
                if (line.isEmpty()) {
                    if (!data.isEmpty()) {
                        events.add(new Event(id, name, Json.MAPPER.readTree(data.toString())));
                    }
                    id = null;
                    name = null;
                    data.setLength(0);
                } else if (line.startsWith("id:")) {
                    id = line.substring(3).trim();
                } else if (line.startsWith("event:")) {
                    name = line.substring(6).trim();
                } else if (line.startsWith("data:")) {
                    data.append(line.substring(5));
                }
            }
        } catch (Exception e) {
            // the stream was closed
        }
    }

    Event next(Duration within) throws InterruptedException {
        Event e = events.poll(within.toMillis(), TimeUnit.MILLISECONDS);
        assertNotNull(e, "no event within " + within);
        return e;
    }

    @Override
    public void close() throws Exception {
        response.body().close();
        reader.interrupt();
    }
}
