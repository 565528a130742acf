package org.boxoffice.app;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.boxoffice.app.TestApp.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The reverse-proxy settings of docs/kubernetes.md, as written there, in a real nginx (Debian's
 * package) in front of a real member: a member answers HTTP/1.0 with 505, so the proxy must speak
 * HTTP/1.1 to it, whatever its clients speak. nginx runs as the user running the tests, with its
 * prefix, configuration, pid, temp and log files in a temporary folder, and is stopped after the
 * tests. Skipped when {@code /usr/sbin/nginx} is not installed ({@code apt-get install nginx}).
 */
@ServerTest
class ReverseProxyTest {

    private static final Path NGINX = Path.of("/usr/sbin/nginx");
    private static final String SHOW = "echoes-berlin-1";
    private static TestApp app;
    private static Process nginx;
    private static Path prefix;
    private final URI member;

    ReverseProxyTest(URI uri) {
        this.member = uri;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        app = TestApp.serve(server);
        Main.listenerDefaults(server);
        server.addFeature(app.app.observe());
    }

    @AfterAll
    static void stop() throws Exception {
        if (nginx != null) {
            nginx.destroy(); // SIGTERM: nginx's fast shutdown
            if (!nginx.waitFor(10, TimeUnit.SECONDS)) {
                nginx.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        if (prefix != null) {
            try (Stream<Path> files = Files.walk(prefix)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void aMember_answersHttp10With505_inJson() throws Exception {
        String answer = raw(member.getPort(), "GET /v1/events HTTP/1.0\r\nHost: x\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 505"), answer);
        assertTrue(answer.contains("\"error\":\"HTTP_VERSION_NOT_SUPPORTED\""), answer);
    }

    @Test
    void throughNginx_asDocumented_aBuyerBrowsesHolds_andGetsErrorsAsJson() throws Exception {
        int port = nginx();
        TestApp.Http http = TestApp.Http.on(URI.create("http://127.0.0.1:" + port));

        TestApp.Http.Reply events = http.get("/v1/events", null);
        assertEquals(200, events.status(), events.body());
        assertTrue(events.json().get("events").size() > 0, events.body());

        TestApp.Http.Reply hold = http.post("/v1/shows/" + SHOW + "/holds", app.token("proxied-fan"),
                "{\"bestAvailable\":{\"quantity\":2}}", "Idempotency-Key", "proxied-1");
        assertEquals(201, hold.status(), hold.body());
        String holdId = hold.json().get("holdId").asText();
        TestApp.Http.Reply read = http.get("/v1/holds/" + holdId, app.token("proxied-fan"));
        assertEquals(200, read.status(), read.body());
        assertEquals(2, read.json().get("seatIds").size());

        assertError(http.get("/v1/shows/no-such-show", null), 404, "NOT_FOUND");
        assertError(http.post("/v1/shows/" + SHOW + "/holds", app.token("proxied-fan"), "{\"seatIds\":"), 400, "BAD_REQUEST");

        // what ApacheBench and many health checkers send: HTTP/1.0 to the proxy, HTTP/1.1 to the member
        String old = raw(port, "GET /v1/events HTTP/1.0\r\nHost: x\r\n\r\n");
        assertTrue(old.startsWith("HTTP/1.1 200"), old);
        assertTrue(old.contains("\"events\""), old);
    }

    /** Starts nginx with the docs' settings in front of the member (once), and returns its port. */
    private synchronized int nginx() throws Exception {
        assumeTrue(Files.isExecutable(NGINX), "nginx is not installed (" + NGINX + "): the reverse-proxy settings of"
                + " docs/kubernetes.md were not tried; apt-get install nginx");
        if (nginx != null) {
            return proxyPort;
        }
        prefix = Files.createTempDirectory("boxoffice-nginx");
        proxyPort = freePort();
        String documented = documentedBlock()
                .replace("server boxoffice:8080;", "server 127.0.0.1:" + member.getPort() + ";")
                .replace("listen 80;", "listen 127.0.0.1:" + proxyPort + ";");
        // one process, as the user running the tests, and every file of its own in the temp folder
        // (Debian's build otherwise writes to /var/lib/nginx and /var/log/nginx)
        String conf = """
                daemon off;
                master_process off;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log info;
                events { worker_connections 64; }
                http {
                    access_log %1$s/access.log;
                    client_body_temp_path %1$s/client_body;
                    proxy_temp_path %1$s/proxy;
                    fastcgi_temp_path %1$s/fastcgi;
                    uwsgi_temp_path %1$s/uwsgi;
                    scgi_temp_path %1$s/scgi;
                %2$s
                }
                """.formatted(prefix, documented);
        Path file = prefix.resolve("nginx.conf");
        Files.writeString(file, conf);
        nginx = new ProcessBuilder(NGINX.toString(), "-p", prefix.toString(), "-c", file.toString(),
                "-e", prefix.resolve("error.log").toString())
                .redirectErrorStream(true)
                .redirectOutput(prefix.resolve("nginx.out").toFile())
                .start();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            try (Socket s = new Socket("127.0.0.1", proxyPort)) {
                return proxyPort;
            } catch (IOException notYet) {
                if (!nginx.isAlive() || System.nanoTime() > deadline) {
                    throw new AssertionError("nginx did not start: " + Files.readString(prefix.resolve("nginx.out"))
                            + (Files.exists(prefix.resolve("error.log")) ? Files.readString(prefix.resolve("error.log")) : ""));
                }
                Thread.sleep(100);
            }
        }
    }

    private static int proxyPort;

    /** The nginx block of docs/kubernetes.md, as a reader copies it. */
    private static String documentedBlock() throws IOException {
        Path docs = Path.of("..").toAbsolutePath().normalize().resolve("docs/kubernetes.md");
        Matcher m = Pattern.compile("```nginx\n(.*?)```", Pattern.DOTALL).matcher(Files.readString(docs));
        assertTrue(m.find(), "docs/kubernetes.md has no nginx block");
        String block = m.group(1);
        assertTrue(block.contains("server boxoffice:8080;") && block.contains("listen 80;"), block);
        return block;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Sends {@code request} as it is and reads until the other side closes (HTTP/1.0 closes after one answer). */
    private static String raw(int port, String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            try {
                for (int n; (n = in.read(buf)) > 0; ) {
                    answer.write(buf, 0, n);
                }
            } catch (java.net.SocketException | java.net.SocketTimeoutException e) {
                // closed or silent: what came so far is the answer
            }
            return answer.toString(StandardCharsets.UTF_8);
        }
    }
}
