package org.boxoffice.k8s;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Renders an overlay with {@code kubectl kustomize}, once per test run.
 *
 * <p>kubectl is required. On a developer machine without it the manifest tests are skipped
 * (a JUnit assumption); under CI ({@code CI=true}) its absence fails them, so a CI machine
 * that lost its kubectl cannot pass by checking nothing.
 */
final class Kustomize {

    /** How CI gets kubectl: Debian's package, whose kubectl 1.20 embeds kustomize v2.0.3. */
    static final String INSTALL_COMMAND = "apt-get install -y kubernetes-client";

    private static final long TIMEOUT_SECONDS = 120;
    private static final Map<String, Manifests> RENDERED = new ConcurrentHashMap<>();

    private Kustomize() {
    }

    /** The parsed output of {@code kubectl kustomize overlays/<name>}. */
    static Manifests overlay(String name) {
        return RENDERED.computeIfAbsent(name, n -> Manifests.parse(render(k8sDir().resolve("overlays").resolve(n))));
    }

    private static String render(Path dir) {
        Path kubectl = kubectl().orElseGet(Kustomize::missingKubectl);
        try {
            Path out = Files.createTempFile("kustomize-", ".yaml");
            Path err = Files.createTempFile("kustomize-", ".err");
            try {
                Process process = new ProcessBuilder(kubectl.toString(), "kustomize", dir.toString())
                        .redirectOutput(out.toFile())
                        .redirectError(err.toFile())
                        .start();
                if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    fail("kubectl kustomize " + dir + " did not finish within " + TIMEOUT_SECONDS + " s");
                }
                if (process.exitValue() != 0) {
                    fail("kubectl kustomize " + dir + " failed with exit code " + process.exitValue() + ":\n"
                            + Files.readString(err, StandardCharsets.UTF_8));
                }
                return Files.readString(out, StandardCharsets.UTF_8);
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not run " + kubectl, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while rendering " + dir, e);
        }
    }

    private static Path missingKubectl() {
        String message = "kubectl is not on the PATH; the Kubernetes manifests cannot be rendered. Install it with `"
                + INSTALL_COMMAND + "` (Debian).";
        if (onCi()) {
            fail(message + " CI=true: CI must install it before running the tests.");
        }
        Assumptions.abort(message + " Skipping the manifest tests on this machine (CI does not skip them).");
        throw new AssertionError("unreachable");
    }

    private static Optional<Path> kubectl() {
        return onPath("kubectl");
    }

    /** An executable named {@code name} on the PATH. */
    static Optional<Path> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        return Stream.of(path.split(File.pathSeparator))
                .filter(entry -> !entry.isBlank())
                .map(entry -> Path.of(entry, name))
                .filter(Files::isExecutable)
                .findFirst();
    }

    static boolean onCi() {
        return "true".equalsIgnoreCase(System.getenv("CI")) || "true".equalsIgnoreCase(System.getProperty("CI"));
    }

    static Path k8sDir() {
        // set by the module's Surefire configuration; the working directory is the fallback
        return Path.of(System.getProperty("boxoffice.k8s.dir", "")).toAbsolutePath();
    }
}
