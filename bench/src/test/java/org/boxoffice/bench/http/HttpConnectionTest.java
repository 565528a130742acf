package org.boxoffice.bench.http;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class HttpConnectionTest {

    /** Answers each request on one connection with the next canned response. */
    private static Thread serve(ServerSocket server, List<String> responses, StringBuilder requests) {
        Thread t = new Thread(() -> {
            try (Socket s = server.accept()) {
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                for (String response : responses) {
                    StringBuilder head = new StringBuilder();
                    while (!head.toString().endsWith("\r\n\r\n")) {
                        head.append((char) in.read());
                    }
                    String h = head.toString();
                    int length = h.contains("Content-Length: ") ? Integer.parseInt(
                            h.substring(h.indexOf("Content-Length: ") + 16, h.indexOf("\r\n", h.indexOf("Content-Length: ")))) : 0;
                    requests.append(h).append(new String(in.readNBytes(length), StandardCharsets.UTF_8));
                    out.write(response.getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        t.start();
        return t;
    }

    @Test
    void readsLengthChunkedAndBodilessResponses_onOneKeptAliveConnection() throws Exception {
        StringBuilder requests = new StringBuilder();
        try (ServerSocket server = new ServerSocket(0)) {
            Thread t = serve(server, List.of(
                    "HTTP/1.1 201 Created\r\nContent-Length: 11\r\ncontent-type: application/json\r\n\r\n{\"ok\":true}",
                    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nETag: \"v7\"\r\n\r\n4\r\nabcd\r\n3;x=y\r\nefg\r\n0\r\n\r\n",
                    "HTTP/1.1 304 Not Modified\r\nETag: \"v7\"\r\n\r\n",
                    "HTTP/1.1 204 No Content\r\n\r\n"), requests);
            try (HttpConnection c = new HttpConnection("127.0.0.1", server.getLocalPort())) {
                HttpResponse created = c.post("/v1/shows/s/holds", "tok", "{\"seatIds\":[\"A-1-1\"]}");
                assertEquals(201, created.status());
                assertEquals(true, created.json().path("ok").asBoolean());
                HttpResponse chunked = c.get("/v1/shows/s/availability", null);
                assertEquals("abcdefg", chunked.text());
                assertEquals("\"v7\"", chunked.etag());
                assertEquals(304, c.get("/v1/shows/s/availability", "\"v7\"").status());
                assertEquals(204, c.delete("/v1/holds/H1", "tok").status());
            }
            t.join();
        }
        String sent = requests.toString();
        assertEquals(true, sent.contains("Authorization: Bearer tok\r\n"));
        assertEquals(true, sent.contains("If-None-Match: \"v7\"\r\n"));
        assertEquals(true, sent.endsWith("\r\n\r\n"));
        assertEquals(true, sent.contains("{\"seatIds\":[\"A-1-1\"]}"));
    }
}
