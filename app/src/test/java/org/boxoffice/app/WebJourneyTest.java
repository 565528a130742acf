package org.boxoffice.app;

import io.helidon.webserver.WebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The fan's web app in a real browser. Starts the service as production wires it (a fresh
 * database with the demo catalog, one grid member, the real routing with the web app and its
 * event stream) on a free port, then runs the Playwright journeys of {@code src/test/web}
 * ({@code node --test journeys.test.mjs}: headless Debian Chromium) against it and passes when
 * they all pass. Screenshots of each step go to {@code target/web-tests/screenshots/}, the
 * runner's output to {@code target/web-tests/output.log}.
 *
 * <p>Needs {@code node} (18.19+; {@code npm} too when {@code node_modules} is missing),
 * {@code /usr/bin/chromium} (or {@code CHROMIUM}) and the two fonts the pages are measured with
 * (Debian's {@code fonts-liberation} and {@code fonts-dejavu-core}: the journeys show Chromium those
 * fonts and no others, so the outcome does not depend on the fonts a machine happens to have).
 * Without them the test is skipped on a developer machine and fails in CI ({@code CI=true}), where
 * {@code .ci/run} installs them. Run {@code mvn test -Dtest=WebJourneyTest
 * -Dweb.seatmap=../docs/seatmap.png -Dweb.docs=../docs} to refresh the docs' screenshots.
 */
class WebJourneyTest {

    private static final Path WEB_TESTS = Path.of("src/test/web").toAbsolutePath();
    private static final Path OUT = Path.of("target/web-tests").toAbsolutePath();
    private static final long TIME_LIMIT_SECONDS = 1200;
    /** The fonts that harness.mjs pins, by the Debian package that installs each. */
    private static final Map<String, Path> FONTS = Map.of(
            "fonts-liberation", Path.of("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"),
            "fonts-dejavu-core", Path.of("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"));

    private static TestApp app;
    private static WebServer server;

    @BeforeAll
    static void start() throws Exception {
        String missing = missingTools();
        if (missing != null) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("the browser tests cannot run: " + missing + " (.ci/run installs node, npm, chromium and the fonts)");
            }
            Assumptions.abort("browser tests skipped: " + missing);
        }
        app = TestApp.start();
        server = WebServer.builder()
                .host("127.0.0.1")
                .port(0)
                .addFeature(app.app.observe())
                .routing(app.app::routing)
                .build()
                .start();
        app.app.serving(server.port()); // as Main does: the payment provider's webhooks come here
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.stop();
        }
        if (app != null) {
            app.close();
        }
    }

    @Test
    void fanJourneys_passInHeadlessChromium() throws Exception {
        Path screenshots = Files.createDirectories(OUT.resolve("screenshots"));
        try (var old = Files.newDirectoryStream(screenshots, "*.png")) {
            for (Path png : old) {
                Files.delete(png); // an earlier run's pictures would pass for this run's
            }
        }
        Path log = OUT.resolve("output.log");
        List<String> command = new ArrayList<>(List.of("node", "--test", "--test-reporter=spec"));
        // -Dweb.journeys=<regex> runs only the journeys whose names match (while working on one page)
        String only = System.getProperty("web.journeys");
        if (only != null && !only.isBlank()) {
            command.add("--test-name-pattern=" + only);
        }
        command.add("journeys.test.mjs");
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(WEB_TESTS.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        env.put("BASE_URL", "http://127.0.0.1:" + server.port());
        env.put("SCREENSHOTS", OUT.resolve("screenshots").toString());
        env.putIfAbsent("CHROMIUM", "/usr/bin/chromium");
        String seatmap = System.getProperty("web.seatmap");
        if (seatmap != null && !seatmap.isBlank()) {
            env.put("SEATMAP_PNG", Path.of(seatmap).toAbsolutePath().normalize().toString());
        }
        String docs = System.getProperty("web.docs");
        if (docs != null && !docs.isBlank()) {
            env.put("DOCS_PNG", Path.of(docs).toAbsolutePath().normalize().toString());
        }
        Process node = pb.start();
        boolean finished = node.waitFor(TIME_LIMIT_SECONDS, TimeUnit.SECONDS);
        if (!finished) {
            node.descendants().forEach(ProcessHandle::destroyForcibly);
            node.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String output = Files.readString(log);
        System.out.println(output);
        if (!finished) {
            fail("the browser journeys did not finish within " + TIME_LIMIT_SECONDS + " s:\n" + tail(output));
        }
        assertEquals(0, node.exitValue(), "browser journeys failed (screenshots in " + OUT.resolve("screenshots")
                + "):\n" + tail(output));
    }

    /** What is missing to run the browser tests, or null; installs the npm packages if npm can. */
    private static String missingTools() throws InterruptedException {
        String chromium = System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium");
        if (!Files.isExecutable(Path.of(chromium))) {
            return chromium + " is not installed";
        }
        List<String> fonts = FONTS.entrySet().stream().filter(f -> !Files.isReadable(f.getValue())).map(Map.Entry::getKey).sorted().toList();
        if (!fonts.isEmpty()) {
            return "the font packages " + String.join(", ", fonts) + " are not installed";
        }
        String version = run(WEB_TESTS, "node", "--version");
        if (version == null) {
            return "node is not installed";
        }
        if (!nodeIsRecentEnough(version.trim())) {
            return "node " + version.trim() + " is too old (18.19 or newer)";
        }
        List<String> modules = List.of("playwright-core", "@axe-core/playwright");
        if (!modules.stream().allMatch(m -> Files.isDirectory(WEB_TESTS.resolve("node_modules").resolve(m)))) {
            run(WEB_TESTS, "npm", "ci", "--no-audit", "--no-fund");
            for (String m : modules) {
                if (!Files.isDirectory(WEB_TESTS.resolve("node_modules").resolve(m))) {
                    return m + " is not installed (npm ci in " + WEB_TESTS + " failed)";
                }
            }
        }
        return null;
    }

    static boolean nodeIsRecentEnough(String version) {
        String[] parts = version.replaceFirst("^v", "").split("\\.");
        try {
            int major = Integer.parseInt(parts[0]);
            int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return major > 18 || (major == 18 && minor >= 19);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Runs a command to its end; its output, or null if it cannot start or fails. */
    private static String run(Path dir, String... command) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(List.of(command)).directory(dir.toFile()).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            return p.waitFor() == 0 ? new String(out) : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static String tail(String output) {
        List<String> lines = new ArrayList<>(output.lines().toList());
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
    }
}
