package org.boxoffice.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A JVM the bench starts (the service, the baseline server) with its output in a log file. Closing
 * it asks it to shut down (SIGTERM, so its shutdown hooks run) and waits; a process that does not
 * stop within half a minute is killed. Only ever signals the process it started.
 */
final class ChildProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path log;

    private ChildProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    static ChildProcess start(String name, List<String> command, Map<String, String> environment, Path log)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        Files.writeString(log, "# " + String.join(" ", command) + "\n");
        return new ChildProcess(name, builder.start(), log);
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    Path log() {
        return log;
    }

    /** The last lines of the log, for an error message. */
    String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() {
        close(30);
    }

    /**
     * Asks the process to stop and waits up to {@code seconds} before killing it (a JVM writing an
     * AOT cache on its way out needs longer than the usual half minute).
     */
    void close(int seconds) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                System.err.println("bench: " + name + " (pid " + process.pid() + ") did not stop in " + seconds + " s; killing it");
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** Kills the process at once (SIGKILL on Unix: no shutdown hook runs) and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** A TCP port free right now on loopback. */
    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
