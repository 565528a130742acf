package org.boxoffice.bench.http;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NioHttpClientTest {

    private static NioHttpClient.Parsed parse(String response) throws IOException {
        byte[] b = response.getBytes(StandardCharsets.ISO_8859_1);
        return NioHttpClient.parse(b, b.length, false);
    }

    @Test
    void parse_waitsForTheWholeBody_thenReadsLengthChunkedAndBodilessAnswers() throws IOException {
        assertNull(parse("HTTP/1.1 201 Created\r\nContent-Length: 11\r\n"));
        assertNull(parse("HTTP/1.1 201 Created\r\nContent-Length: 11\r\n\r\n{\"ok\""));
        NioHttpClient.Parsed created = parse("HTTP/1.1 201 Created\r\ncontent-length: 11\r\nX: y\r\n\r\n{\"ok\":true}");
        assertEquals(201, created.status());
        assertEquals("{\"ok\":true}", new String(created.body(), StandardCharsets.UTF_8));

        assertNull(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n3;x=y\r\nefg\r\n"));
        NioHttpClient.Parsed chunked = parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nETag: \"v7\"\r\n\r\n"
                + "4\r\nabcd\r\n3;x=y\r\nefg\r\n0\r\n\r\n");
        assertEquals("abcdefg", new String(chunked.body(), StandardCharsets.UTF_8));
        assertEquals("\"v7\"", chunked.etag());

        NioHttpClient.Parsed notModified = parse("HTTP/1.1 304 Not Modified\r\nETag: \"v7\"\r\n\r\n");
        assertEquals(304, notModified.status());
        assertArrayEquals(new byte[0], notModified.body());
        assertTrue(parse("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n").close());
    }

    @Test
    void send_answersEveryRequestOnItsConnection_andReopensAConnectionTheServerClosed() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            List<String> requests = new ArrayList<>();
            Thread t = new Thread(() -> {
                try {
                    // first connection: one answer, then the server closes it
                    try (Socket s = server.accept()) {
                        requests.add(readRequest(s.getInputStream()));
                        write(s.getOutputStream(), "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi");
                    }
                    // the client reopens for the second request
                    try (Socket s = server.accept()) {
                        requests.add(readRequest(s.getInputStream()));
                        write(s.getOutputStream(), "HTTP/1.1 409 Conflict\r\nContent-Length: 3\r\n\r\n{x}");
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            t.start();
            List<String> answers = new ArrayList<>();
            try (NioHttpClient client = new NioHttpClient("127.0.0.1", server.getLocalPort(), 1, new NioHttpClient.Listener() {
                @Override
                public void completed(Object tag, HttpResponse response, long at) {
                    answers.add(tag + ":" + response.status() + ":" + response.text());
                }

                @Override
                public void failed(Object tag, IOException error, long at) {
                    answers.add(tag + ":failed");
                }
            })) {
                client.send(client.request("GET", "/a", "tok", null, null, null), "first", false);
                while (answers.size() < 1) {
                    client.poll(100_000_000L);
                }
                assertTrue(client.hasIdle());
                client.send(client.request("POST", "/b", null, null, "Queue-Pass: p", "{}"), "second", false);
                while (answers.size() < 2) {
                    client.poll(100_000_000L);
                }
                assertEquals(1, client.reconnects());
            }
            t.join();
            assertEquals(List.of("first:200:hi", "second:409:{x}"), answers);
            assertTrue(requests.get(0).startsWith("GET /a HTTP/1.1\r\n"));
            assertTrue(requests.get(0).contains("Authorization: Bearer tok\r\n"));
            assertTrue(requests.get(1).contains("Queue-Pass: p\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"));
        }
    }

    private static String readRequest(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            head.append((char) in.read());
        }
        String h = head.toString();
        int i = h.indexOf("Content-Length: ");
        int length = i < 0 ? 0 : Integer.parseInt(h.substring(i + 16, h.indexOf("\r\n", i)));
        return h + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    private static void write(OutputStream out, String response) throws IOException {
        out.write(response.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }
}
