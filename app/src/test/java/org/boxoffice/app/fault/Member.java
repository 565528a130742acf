package org.boxoffice.app.fault;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One Boxoffice process ({@code java -jar app/target/boxoffice.jar}): its own JVM, HTTP port and
 * grid port, stdout and stderr in one log file under the test's directory.
 */
final class Member {

    final String name;
    final int httpPort;
    final int gridPort;
    final URI base;
    final Path log;
    private final Process process;
    private final long startedAt;

    private Member(String name, int httpPort, int gridPort, Path log, Process process) {
        this.name = name;
        this.httpPort = httpPort;
        this.gridPort = gridPort;
        this.base = URI.create("http://127.0.0.1:" + httpPort + "/");
        this.log = log;
        this.process = process;
        this.startedAt = System.nanoTime();
    }

    /** Starts the process; returns at once (see {@link #awaitReady}). */
    static Member start(String name, Path jar, Path dir, int httpPort, int gridPort, List<String> jvmOptions,
                        Map<String, String> env) {
        try {
            Files.createDirectories(dir);
            Path log = dir.resolve(name + ".log");
            List<String> command = new ArrayList<>();
            command.add(javaExecutable());
            command.addAll(jvmOptions);
            command.add("-jar");
            command.add(jar.toString());
            ProcessBuilder pb = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            pb.environment().putAll(env);
            Files.writeString(log, "=== " + name + " started " + java.time.Instant.now() + ": "
                    + String.join(" ", command) + "\n", StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            return new Member(name, httpPort, gridPort, log, pb.start());
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name, e);
        }
    }

    /** The JDK running this test. */
    static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    boolean alive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    /** The readiness answer, or null when the member does not answer at all. */
    Http.Reply readiness(Http http) {
        try {
            return http.get(base, "/observe/health/ready", null, Duration.ofSeconds(3));
        } catch (IOException e) {
            return null;
        }
    }

    /** Members this one sees in the cluster (from the readiness details), or -1. */
    int members(Http http) {
        Http.Reply r = readiness(http);
        if (r == null) {
            return -1;
        }
        try {
            JsonNode n = r.json();
            for (JsonNode check : n.path("checks")) {
                for (String details : new String[]{"data", "details"}) {
                    if (check.path(details).has("members")) {
                        return check.path(details).path("members").asInt();
                    }
                }
            }
        } catch (RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /**
     * Waits until {@code GET /observe/health/ready} answers 200 (member joined with its quorum,
     * PostgreSQL answering, catalog loaded, rehearsed), the member sees {@code members} members,
     * and the cluster is safe ({@code /observe/health/safe}: no migration, backups in sync), so a
     * test may take the next member away.
     *
     * @return how long it took from now
     */
    Duration awaitReady(Http http, int members, Duration timeout) {
        long t0 = System.nanoTime();
        awaitServing(http, members, timeout);
        awaitSafe(http, timeout.minusNanos(System.nanoTime() - t0));
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /**
     * Waits until {@code GET /observe/health/ready} answers 200 and the member sees {@code members}
     * members: it serves (partitions may still be moving).
     *
     * @return how long it took from now
     */
    Duration awaitServing(Http http, int members, Duration timeout) {
        long t0 = System.nanoTime();
        long deadline = t0 + timeout.toNanos();
        Http.Reply last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited with " + process.exitValue() + " before it was ready\n"
                        + tail(60));
            }
            last = readiness(http);
            if (last != null && last.status() == 200 && (members <= 0 || members(http) == members)) {
                return Duration.ofNanos(System.nanoTime() - t0);
            }
            FaultRig.sleep(250);
        }
        throw new AssertionError(name + " not ready with " + members + " members after " + timeout.toSeconds()
                + " s; last readiness: " + last + "\n" + tail(60));
    }

    /** Waits until {@code GET /observe/health/safe} answers 200: the next member may go. */
    void awaitSafe(Http http, Duration timeout) {
        long deadline = System.nanoTime() + Math.max(0, timeout.toNanos());
        Http.Reply last = null;
        do {
            try {
                last = http.get(base, "/observe/health/safe", null, Duration.ofSeconds(3));
                if (last.status() == 200) {
                    return;
                }
            } catch (IOException e) {
                last = null;
            }
            FaultRig.sleep(250);
        } while (System.nanoTime() < deadline);
        throw new AssertionError(name + ": cluster not safe after " + timeout.toSeconds() + " s; last answer: " + last
                + "\n" + tail(60));
    }

    /** Waits until the member's log has a line containing {@code text}. */
    void awaitLog(String text, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited with " + process.exitValue() + "\n" + tail(60));
            }
            try {
                if (Files.readString(log, StandardCharsets.ISO_8859_1).contains(text)) {
                    return;
                }
            } catch (IOException e) {
                // not written yet
            }
            FaultRig.sleep(200);
        }
        throw new AssertionError(name + " did not log '" + text + "' within " + timeout.toSeconds() + " s\n" + tail(60));
    }

    /** Lines of the member's log that contain {@code text}. */
    long logLines(String text) {
        try {
            return Files.readAllLines(log, StandardCharsets.ISO_8859_1).stream().filter(l -> l.contains(text)).count();
        } catch (IOException e) {
            return 0;
        }
    }

    /** Seconds since the process was started. */
    double age() {
        return (System.nanoTime() - startedAt) / 1e9;
    }

    /** SIGKILL: no shutdown hook, no graceful leave, no partition hand-over. */
    void kill() {
        process.destroyForcibly();
        waitExit(Duration.ofSeconds(30));
    }

    /**
     * SIGSTOP: the member stops answering but closes nothing, as a member on a node that died or
     * behind a cut link looks to the others (no reset, no FIN): only missing heartbeats tell.
     */
    void freeze() {
        signal("STOP");
    }

    /** SIGCONT after {@link #freeze()}: the member goes on where it stopped, unaware of the time that passed. */
    void thaw() {
        signal("CONT");
    }

    private void signal(String name) {
        try {
            Process p = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
            if (p.waitFor() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * SIGTERM: the shutdown hook stops the web server, leaves the cluster gracefully (handing its
     * partitions over) and closes the pool. Falls back to SIGKILL after {@code timeout}.
     *
     * @return how long the graceful stop took
     */
    Duration stop(Duration timeout) {
        long t0 = System.nanoTime();
        process.destroy();
        if (!waitExit(timeout)) {
            process.destroyForcibly();
            waitExit(Duration.ofSeconds(30));
            throw new AssertionError(name + " did not stop within " + timeout.toSeconds() + " s of SIGTERM\n" + tail(60));
        }
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /** For clean-up: stops the process whatever state it is in. */
    void destroyQuietly() {
        if (process.isAlive()) {
            try {
                signal("CONT"); // a frozen member would keep SIGTERM pending
            } catch (RuntimeException e) {
                // it exited meanwhile
            }
            process.destroy();
            if (!waitExit(Duration.ofSeconds(20))) {
                process.destroyForcibly();
                waitExit(Duration.ofSeconds(10));
            }
        }
    }

    private boolean waitExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The last {@code lines} lines of the member's log. */
    String tail(int lines) {
        return FaultRig.tail(log, lines);
    }

    @Override
    public String toString() {
        return name + "(http " + httpPort + ", grid " + gridPort + ", pid " + process.pid() + ")";
    }
}
