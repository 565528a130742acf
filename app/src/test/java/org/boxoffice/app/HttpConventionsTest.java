package org.boxoffice.app;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.boxoffice.app.TestApp.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HTTP's method and header conventions (RFC 9110, RFC 6750) through the real wiring: HEAD wherever
 * GET answers, 405 with Allow, OPTIONS, WWW-Authenticate on 401, If-None-Match lists and *, gzip,
 * and 415 for a body that is not JSON in UTF-8.
 */
@ServerTest
class HttpConventionsTest {

    private static final String SHOW = "mahler-5-1";
    private static TestApp app;
    private final URI uri;
    private final TestApp.Http http;
    private final HttpClient client = HttpClient.newHttpClient();

    HttpConventionsTest(URI uri) {
        this.uri = uri;
        this.http = TestApp.Http.on(uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server);
        Main.listenerDefaults(server);
        server.addFeature(app.app.observe());
    }

    @Test
    void head_answersWhereverGetDoes_withItsHeadersAndNoBody() throws Exception {
        for (String path : new String[] {"/v1/events", "/v1/shows/" + SHOW, "/v1/shows/" + SHOW + "/availability",
                "/v1/shows/" + SHOW + "/seats", "/openapi", "/observe/metrics", "/observe/health/ready", "/", "/js/api.js"}) {
            // HEAD must describe the representation a GET gets; a seat map may move on between two
            // requests (the member repaints it from the grid), so compare against GETs on both sides
            // of the HEAD and try again if those two differ
            HttpResponse<String> get = null;
            String head = null;
            for (int attempt = 0; attempt < 5; attempt++) {
                HttpResponse<String> before = send("GET", path, null);
                head = head(path, "");
                get = send("GET", path, null);
                if (java.util.Objects.equals(before.headers().firstValue("ETag"), get.headers().firstValue("ETag"))) {
                    break;
                }
                Thread.sleep(200);
            }
            assertEquals("HTTP/1.1 " + get.statusCode(), statusLine(head).substring(0, 12), path);
            assertEquals(get.headers().firstValue("Content-Type").orElse(null), header(head, "content-type"), path);
            assertEquals(get.headers().firstValue("ETag").orElse(null), header(head, "etag"), path);
            if (!path.equals("/observe/metrics")) {     // Helidon's own, streamed: it declares 0 (docs/api.md)
                assertEquals(Integer.toString(get.body().getBytes(StandardCharsets.UTF_8).length),
                        header(head, "content-length"), path + ": HEAD declares the length GET sends");
            }
        }
        assertTrue(head("/v1/shows/no-such-show", "").startsWith("HTTP/1.1 404"));
    }

    @Test
    void aKnownPathWithAnotherMethod_is405WithAllow_andOptionsListsTheMethods() throws Exception {
        HttpResponse<String> put = send("PUT", "/v1/shows/" + SHOW + "/holds", "{}");
        assertEquals(405, put.statusCode(), put.body());
        assertEquals("POST, OPTIONS", put.headers().firstValue("Allow").orElse(null));
        assertTrue(put.body().contains("METHOD_NOT_ALLOWED"), put.body());
        HttpResponse<String> deleteDoc = send("DELETE", "/openapi", null);
        assertEquals(405, deleteDoc.statusCode(), deleteDoc.body());
        assertEquals("GET, HEAD, OPTIONS", deleteDoc.headers().firstValue("Allow").orElse(null));
        HttpResponse<String> options = send("OPTIONS", "/v1/holds/H1", null);
        assertEquals(204, options.statusCode());
        assertEquals("DELETE, GET, HEAD, OPTIONS", options.headers().firstValue("Allow").orElse(null));
        assertTrue(options.headers().firstValue("Access-Control-Allow-Origin").isEmpty(), "no CORS is configured");
        HttpResponse<String> streamHead = send("HEAD", "/v1/shows/" + SHOW + "/events", null);
        assertEquals(405, streamHead.statusCode());
        assertEquals("GET, OPTIONS", streamHead.headers().firstValue("Allow").orElse(null));
        assertError(http.get("/v1/nothing/here", null), 404, "NOT_FOUND");
    }

    @Test
    void unauthorized_carriesABearerChallenge_withInvalidTokenForABadOne() {
        String body = "{\"seatIds\":[\"STALLS-20-1\"]}";
        TestApp.Http.Reply none = http.post("/v1/shows/" + SHOW + "/holds", null, body);
        assertEquals(401, none.status());
        assertEquals("Bearer realm=\"boxoffice\"", none.headers().firstValue("WWW-Authenticate").orElse(null));
        TestApp.Http.Reply bad = http.post("/v1/shows/" + SHOW + "/holds", "not-a-jwt", body);
        assertEquals(401, bad.status());
        assertEquals("Bearer realm=\"boxoffice\", error=\"invalid_token\"",
                bad.headers().firstValue("WWW-Authenticate").orElse(null));
        TestApp.Http.Reply basic = http.post("/v1/shows/" + SHOW + "/holds", null, body, "Authorization", "Basic YTpi");
        assertEquals(401, basic.status());
        assertEquals("Bearer realm=\"boxoffice\", error=\"invalid_request\"",
                basic.headers().firstValue("WWW-Authenticate").orElse(null));
    }

    @Test
    void ifNoneMatch_withAListOrStar_answers304_andLargeJsonGoesGzipped() throws IOException {
        String path = "/v1/shows/" + SHOW + "/availability";
        String etag = http.get(path, null).headers().firstValue("ETag").orElseThrow();
        assertEquals(304, http.get(path, null, "If-None-Match", "\"other\", " + etag).status());
        assertEquals(304, http.get(path, null, "If-None-Match", "W/" + etag).status());
        assertEquals(304, http.get(path, null, "If-None-Match", "*").status());
        String gz = head("/v1/shows/" + SHOW + "/seats", "Accept-Encoding: gzip\r\n");
        assertEquals("gzip", header(gz, "content-encoding"), gz);
    }

    @Test
    void aBodyThatIsNotJsonInUtf8_is415() throws Exception {
        String t = app.token("media-1");
        String body = "{\"seatIds\":[\"STALLS-21-1\"]}";
        String path = "/v1/shows/" + SHOW + "/holds";
        HttpResponse<String> text = send("POST", path, body, "text/plain", t);
        assertEquals(415, text.statusCode(), text.body());
        assertTrue(text.body().contains("UNSUPPORTED_MEDIA_TYPE"), text.body());
        HttpResponse<String> latin1 = send("POST", path, body, "application/json; charset=ISO-8859-1", t);
        assertEquals(415, latin1.statusCode(), latin1.body());
        HttpResponse<String> utf8 = send("POST", path, body, "application/json; charset=\"UTF-8\"", t);
        assertEquals(201, utf8.statusCode(), utf8.body());
    }

    @Test
    void everyAnswer_isNosniff_everyClientError_isNoStore_andTheWebAppCarriesItsPolicy() throws Exception {
        for (String path : new String[] {"/", "/index.html", "/js/app.js", "/js/challenge-worker.js", "/css/app.css", "/gate/",
                "/gate/sw.js", "/js/qr-worker.js", "/js/vendor/jsQR.js"}) {
            HttpResponse<String> page = send("GET", path, null);
            assertEquals(200, page.statusCode(), path);
            String policy = page.headers().firstValue("Content-Security-Policy").orElse("");
            for (String directive : new String[] {"default-src 'none'", "script-src 'self'", "style-src 'self'",
                    "connect-src 'self'", "worker-src 'self'", "frame-ancestors 'none'"}) {
                assertTrue(policy.contains(directive), path + ": " + directive + " in " + policy);
            }
            assertTrue(!policy.contains("unsafe-"), path + ": nothing inline, no eval: " + policy);
            assertEquals("no-referrer", page.headers().firstValue("Referrer-Policy").orElse(null), path);
            assertEquals("nosniff", page.headers().firstValue("X-Content-Type-Options").orElse(null), path);
        }
        HttpResponse<String> api = send("GET", "/v1/events", null);
        assertEquals("nosniff", api.headers().firstValue("X-Content-Type-Options").orElse(null));
        String t = app.token("headers-1");
        List<HttpResponse<String>> refusals = List.of(
                send("GET", "/no/such/page.js", null),
                send("GET", "/v1/nothing/here", null),
                send("GET", "/v1/shows/no-such-show", null),
                send("GET", "/v1/shows/bad%20id", null),
                send("PUT", "/openapi", "{}"),
                send("POST", "/v1/shows/" + SHOW + "/holds", "{}", "text/plain", t),
                send("POST", "/v1/shows/" + SHOW + "/holds", "{}", "application/json", null),
                send("POST", "/v1/shows/" + SHOW + "/holds", "{\"seatIds\":[\"NO-SUCH-SEAT\"]}", "application/json", t));
        for (HttpResponse<String> r : refusals) {
            String what = r.request().method() + " " + r.uri() + " -> " + r.statusCode();
            assertTrue(r.statusCode() >= 400 && r.statusCode() < 500, what);
            assertEquals("no-store", r.headers().firstValue("Cache-Control").orElse(null), what);
            assertEquals("nosniff", r.headers().firstValue("X-Content-Type-Options").orElse(null), what);
        }
        String unreadable = rawAnswer("GE:T / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(unreadable.startsWith("HTTP/1.1 400"), unreadable);
        assertEquals("no-store", header(unreadable, "cache-control"), unreadable);
        assertEquals("nosniff", header(unreadable, "x-content-type-options"), unreadable);
    }

    @Test
    void anAcceptThatAllowsNothingTheEndpointProduces_is406_andTheUsualOnesWork() {
        for (String accept : new String[] {"text/html", "application/xml, text/*", "application/json;q=0",
                "application/problem+json", "image/*"}) {
            TestApp.Http.Reply r = http.get("/v1/events", null, "Accept", accept);
            assertError(r, 406, "NOT_ACCEPTABLE");
            assertEquals("no-store", r.headers().firstValue("Cache-Control").orElse(null));
        }
        for (String accept : new String[] {"*/*", "application/*", "application/json", "APPLICATION/JSON; charset=utf-8",
                "text/html, application/json;q=0.1", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", ""}) {
            assertEquals(200, http.get("/v1/events", null, "Accept", accept).status(), accept);
        }
        assertEquals(200, http.get("/v1/events", null).status(), "no Accept at all");
        assertError(http.get("/openapi", null, "Accept", "application/json"), 406, "NOT_ACCEPTABLE");
        for (String accept : new String[] {"application/yaml", "*/*", "application/*",
                "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}) {
            assertEquals(200, http.get("/openapi", null, "Accept", accept).status(), accept);
        }
        assertError(http.get("/v1/no/such/thing", null, "Accept", "text/html"), 404, "NOT_FOUND");
    }

    @Test
    void theDocument_stylesAndScripts_goGzipped_andRevalidateWithTheirETag() throws Exception {
        for (String path : new String[] {"/openapi", "/css/app.css", "/js/seatmap.js", "/js/app.js", "/"}) {
            HttpResponse<byte[]> plain = client.send(HttpRequest.newBuilder(uri.resolve(path)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            HttpResponse<byte[]> gz = client.send(HttpRequest.newBuilder(uri.resolve(path))
                    .header("Accept-Encoding", "gzip, deflate").build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, gz.statusCode(), path);
            assertEquals("gzip", gz.headers().firstValue("Content-Encoding").orElse(null), path);
            assertEquals("Accept-Encoding", gz.headers().firstValue("Vary").orElse(null), path);
            assertTrue(gz.body().length < plain.body().length / 2, path + ": " + gz.body().length + " of " + plain.body().length);
            try (java.util.zip.GZIPInputStream in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(gz.body()))) {
                assertTrue(java.util.Arrays.equals(plain.body(), in.readAllBytes()), path + ": the same bytes, gzipped");
            }
            assertEquals("no-cache", gz.headers().firstValue("Cache-Control").orElse(null), path);
            for (HttpResponse<byte[]> copy : List.of(plain, gz)) {
                String etag = copy.headers().firstValue("ETag").orElseThrow();
                HttpResponse<byte[]> again = client.send(HttpRequest.newBuilder(uri.resolve(path))
                        .header("If-None-Match", etag).build(), HttpResponse.BodyHandlers.ofByteArray());
                assertEquals(304, again.statusCode(), path + " " + etag);
                assertEquals(0, again.body().length, path);
            }
        }
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        return send(method, path, body, body == null ? null : "application/json", null);
    }

    private HttpResponse<String> send(String method, String path, String body, String type, String token)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri.resolve(path)).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (type != null) {
            b.header("Content-Type", type);
        }
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * The head of the answer to {@code HEAD path}, as sent on the wire. A second request follows on
     * the same connection: its answer must start right after the first one's headers, which proves
     * that the HEAD answer carried no body.
     */
    private String head(String path, String headers) throws IOException {
        try (Socket s = new Socket(uri.getHost(), uri.getPort())) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(("HEAD " + path + " HTTP/1.1\r\nHost: localhost\r\n" + headers + "\r\n"
                    + "GET /observe/health/live HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            String first = readHead(in);
            String next = readHead(in);
            assertTrue(next.startsWith("HTTP/1.1 200"), path + ": HEAD sent a body: " + first + next);
            return first;
        }
    }

    /** The head of the answer to {@code request}, sent as it is over a socket. */
    private String rawAnswer(String request) throws IOException {
        try (Socket s = new Socket(uri.getHost(), uri.getPort())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            return readHead(s.getInputStream());
        }
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        while (sb.length() < 4 || !sb.substring(sb.length() - 4).equals("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            sb.append((char) b);
        }
        return sb.toString();
    }

    private static String statusLine(String answer) {
        return answer.substring(0, answer.indexOf("\r\n"));
    }

    private static String header(String answer, String name) {
        for (String line : answer.substring(0, answer.indexOf("\r\n\r\n")).split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }
}
