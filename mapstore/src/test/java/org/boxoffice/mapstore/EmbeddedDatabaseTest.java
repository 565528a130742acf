package org.boxoffice.mapstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.DriverManager;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.boxoffice.domain.Venue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each test runs its own server on its own directory: what is tested is the directory's lifecycle. */
class EmbeddedDatabaseTest {

    @TempDir
    Path dir;

    @Test
    void start_onTheSameDirectoryAgain_findsTheDataCommittedBefore() {
        Path data = dir.resolve("postgres");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0)) {
            saveVenue(db, new Venue("v1", "Coliseu", "Lisbon"));
        }

        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0)) {
            assertEquals(List.of(new Venue("v1", "Coliseu", "Lisbon")), venues(db));
            assertTrue(db.jdbcUrl().startsWith("jdbc:postgresql://localhost:" + db.port() + "/boxoffice"));
        }
    }

    @Test
    void start_removesAStalePidFile_whosePidBelongsToAnotherProcess() throws IOException {
        Path data = dir.resolve("postgres");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0)) {
            saveVenue(db, new Venue("v1", "Coliseu", "Lisbon"));
        }
        // after a reboot the recorded pid may be anyone's. Not this JVM's: PostgreSQL ignores its
        // own ancestors' pids, and this JVM is the server's grandparent.
        Process someoneElse = new ProcessBuilder("sleep", "60").start();
        try {
            Files.writeString(data.resolve("postmaster.pid"), someoneElse.pid() + "\n" + data + "\n");

            try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0)) {
                assertEquals(1, venues(db).size());
            }
            assertTrue(someoneElse.isAlive(), "an unrelated process must be left alone");
        } finally {
            someoneElse.destroy();
        }
    }

    @Test
    void theServer_endsWithItsJvm_evenAfterKill9_andTheDataIsKept() throws Exception {
        Path data = dir.resolve("postgres");
        Process owner = owner(data);
        long serverPid;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(owner.getInputStream()))) {
            awaitReady(out);
            serverPid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
            assertTrue(ProcessHandle.of(serverPid).isPresent());
            owner.destroyForcibly().waitFor(30, TimeUnit.SECONDS);    // SIGKILL: no hook, no close()
        }
        // the watchdog notices within a second; a minute is only the bound of a stuck machine
        ProcessHandle.of(serverPid).ifPresent(p -> p.onExit().completeOnTimeout(p, 60, TimeUnit.SECONDS).join());
        assertFalse(ProcessHandle.of(serverPid).map(ProcessHandle::isAlive).orElse(false),
                "PostgreSQL must not outlive the JVM that started it");

        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0)) {
            assertEquals(List.of(new Venue("v-crash", "Campo Pequeno", "Lisbon")), venues(db));
        }
    }

    @Test
    void theServer_endsWithItsJvm_whenTheWholeProcessGroupIsKilled() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setsid")), "needs setsid");
        Path data = dir.resolve("postgres");
        // the owner leads a process group of its own, as a service started from a terminal or a CI step
        Process owner = owner(data, "/usr/bin/setsid");
        long serverPid;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(owner.getInputStream()))) {
            String line = awaitReady(out);
            serverPid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
            long jvm = Long.parseLong(line.substring("READY".length()).trim());
            String stat = Files.readString(Path.of("/proc", Long.toString(jvm), "stat"));
            long group = Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[2]);
            assertEquals(jvm, group, "the owner leads its own process group");
            assertEquals(0, new ProcessBuilder("kill", "-s", "KILL", "--", "-" + group).inheritIO().start().waitFor(),
                    "kill -9 -" + group);
            owner.waitFor(30, TimeUnit.SECONDS);
            ProcessHandle.of(jvm).ifPresent(p -> p.onExit().completeOnTimeout(p, 30, TimeUnit.SECONDS).join());
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (ProcessHandle.of(serverPid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertFalse(ProcessHandle.of(serverPid).map(ProcessHandle::isAlive).orElse(false),
                "PostgreSQL must be gone within 5 s of a kill of its service's whole process group; watchdogs: "
                        + ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(data.toString()))
                        .map(p -> p.pid() + " " + p.info().commandLine().orElse("")).toList());
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0)) {
            assertEquals(List.of(new Venue("v-crash", "Campo Pequeno", "Lisbon")), venues(db));
        }
    }

    /** A child JVM that starts the server on {@code data} ({@link KilledOwner}), its command after {@code prefix}. */
    private static Process owner(Path data, String... prefix) throws IOException {
        List<String> command = new java.util.ArrayList<>(List.of(prefix));
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), KilledOwner.class.getName(), data.toString()));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** The owner's READY line, its log lines before it skipped. */
    private static String awaitReady(BufferedReader out) throws IOException {
        String line;
        while ((line = out.readLine()) != null && !line.startsWith("READY")) {
            // skip the child's log lines
        }
        assertTrue(line != null, "the owner JVM died before it was ready");
        return line;
    }

    @Test
    void theServer_isPrivate_passwordsOnly_noSocket_andTheServiceIsNoSuperuser() throws Exception {
        Path data = dir.resolve("postgres");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0)) {
            saveVenue(db, new Venue("v1", "Coliseu", "Lisbon"));
            assertEquals("rw-------", PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(EmbeddedDatabase.secretsFile(data))));
            assertEquals("rw-------", PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(EmbeddedDatabase.logFile(data))));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(data)));
            assertFalse(Files.exists(Path.of("/tmp/.s.PGSQL." + db.port())), "no Unix socket in the shared temp folder");
            try (java.sql.Connection admin = db.adminConnection(); java.sql.Statement st = admin.createStatement()) {
                assertEquals("", show(st, "unix_socket_directories"), "no Unix socket anywhere");
            }

            for (String[] credentials : new String[][] {{db.user(), ""}, {db.user(), "wrong"}, {"postgres", ""},
                    {"postgres", db.password()}}) {
                java.sql.SQLException refused = assertThrows(java.sql.SQLException.class,
                        () -> DriverManager.getConnection(db.jdbcUrl(), credentials[0], credentials[1]).close(),
                        credentials[0] + " without its password");
                assertTrue(Set.of("28P01", "08004").contains(refused.getSQLState()), refused.getMessage());
            }
            try (HikariDataSource ds = DataSources.pooled(db.settings(1));
                 java.sql.Connection c = ds.getConnection(); java.sql.Statement st = c.createStatement()) {
                assertEquals(EmbeddedDatabase.APP_ROLE, c.getMetaData().getUserName());
                try (java.sql.ResultSet rs = st.executeQuery("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")) {
                    rs.next();
                    assertFalse(rs.getBoolean(1), "the service connects as a role without superuser rights");
                }
                java.sql.SQLException denied = assertThrows(java.sql.SQLException.class,
                        () -> st.execute("COPY (SELECT 1) TO PROGRAM 'true'"));
                assertEquals("42501", denied.getSQLState(), denied.getMessage());
            }
        }
    }

    @Test
    void aDirectoryFromBeforePasswords_isConverted_andKeepsItsData() throws Exception {
        Path data = dir.resolve("postgres");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0)) {
            saveVenue(db, new Venue("v-old", "Tivoli", "Lisbon"));
            try (java.sql.Connection c = db.adminConnection(EmbeddedDatabase.DATABASE); java.sql.Statement st = c.createStatement()) {
                // as an older version left it: everything the superuser's
                st.execute("ALTER TABLE venues OWNER TO postgres");
                st.execute("ALTER DATABASE boxoffice OWNER TO postgres");
            }
        }
        // ... with trust for everyone and no passwords file
        Files.writeString(data.resolve("pg_hba.conf"), "host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n");
        Files.delete(EmbeddedDatabase.secretsFile(data));

        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0)) {
            assertEquals(List.of(new Venue("v-old", "Tivoli", "Lisbon")), venues(db), "the service's role owns the data now");
            java.sql.SQLException refused = assertThrows(java.sql.SQLException.class,
                    () -> DriverManager.getConnection(db.jdbcUrl(), "postgres", "").close());
            assertTrue(Set.of("28P01", "08004").contains(refused.getSQLState()),
                    "passwords are required from now on: " + refused.getMessage());
        }
    }

    /** Runs in a child JVM that the test kills with SIGKILL, so no shutdown hook runs. */
    public static final class KilledOwner {
        public static void main(String[] args) throws InterruptedException {
            EmbeddedDatabase db = EmbeddedDatabase.start(Path.of(args[0]), 0);
            saveVenue(db, new Venue("v-crash", "Campo Pequeno", "Lisbon"));
            System.out.println("READY " + ProcessHandle.current().pid());
            System.out.flush();
            Thread.sleep(TimeUnit.MINUTES.toMillis(5));
        }
    }

    @Test
    void server_isADurableReferee_fsyncAndSynchronousCommitOn() throws Exception {
        try (EmbeddedDatabase db = EmbeddedDatabase.start(dir.resolve("postgres"), 0);
             HikariDataSource ds = DataSources.pooled(db.settings(1));
             java.sql.Connection c = ds.getConnection();
             java.sql.Statement st = c.createStatement()) {
            // zonky passes -F (fsync off) to the postmaster: a committed hold would not survive a power cut
            assertEquals("on", show(st, "fsync"));
            assertEquals("on", show(st, "synchronous_commit"));
            assertEquals("on", show(st, "full_page_writes"));
        }
    }

    private static String show(java.sql.Statement st, String setting) throws java.sql.SQLException {
        try (java.sql.ResultSet rs = st.executeQuery("SHOW " + setting)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static void saveVenue(EmbeddedDatabase db, Venue venue) {
        try (HikariDataSource ds = DataSources.pooled(db.settings(2))) {
            Migrations.migrate(ds);
            new PostgresCatalogRepository(ds).saveVenue(venue);
        }
    }

    private static List<Venue> venues(EmbeddedDatabase db) {
        try (HikariDataSource ds = DataSources.pooled(db.settings(1))) {
            return new PostgresCatalogRepository(ds).venues();
        }
    }
}
