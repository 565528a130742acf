package org.boxoffice.bench;


import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a bench run keeps around it: the options, the results folder, the notes for the report, the
 * processes and databases to close at the end (or on Ctrl-C).
 */
final class RunEnvironment {

    private final BenchOptions o;
    private final Path out;
    private final List<String> notes = new ArrayList<>();
    private final Deque<AutoCloseable> resources = new ArrayDeque<>();

    RunEnvironment(BenchOptions options) {
        this.o = options;
        this.out = options.out != null ? options.out
                : Path.of("bench", "results", DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now()));
    }

    BenchOptions options() {
        return o;
    }

    /** The results folder. */
    Path out() {
        return out;
    }

    /** Lines for the report's notes, in the order the run adds them. */
    List<String> notes() {
        return notes;
    }

    /** What {@link #closeAll()} closes, last opened first. */
    Deque<AutoCloseable> resources() {
        return resources;
    }

    Database openDatabase(Path work) {
        Database db;
        if (o.dbUrl != null) {
            db = Database.external(o.dbUrl, o.dbUser, o.dbPassword);
        } else if (o.url == null) {
            FlashSaleBench.log("starting PostgreSQL (embedded) in " + work);
            db = Database.embedded(work.resolve("postgres"));
        } else {
            notes.add("no --db-url with --url: baselines and invariant checks skipped");
            return null;
        }
        resources.push(db);
        return db;
    }

    Path jcmd() {
        Path sibling = o.java.toAbsolutePath().resolveSibling("jcmd");
        return Files.isExecutable(sibling) ? sibling : Path.of("jcmd");
    }

    synchronized void closeAll() {
        while (!resources.isEmpty()) {
            AutoCloseable r = resources.pop();
            try {
                r.close();
            } catch (Exception e) {
                System.err.println("bench: closing " + r + ": " + e);
            }
        }
    }

    /** {@code bytes} random bytes in hex: a secret, or a name no other run on this machine picks. */
    static String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("bench: could not delete " + dir + ": " + e);
        }
    }
}
