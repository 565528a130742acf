package org.boxoffice.mapstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
    void start_afterTheOwningJvmWasKilled_stopsItsOrphanedServer_andKeepsTheData() throws Exception {
        Path data = dir.resolve("postgres");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process owner = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                KilledOwner.class.getName(), data.toString())
                .redirectErrorStream(true).start();
        long orphanPid;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(owner.getInputStream()))) {
            String line;
            while ((line = out.readLine()) != null && !line.startsWith("READY")) {
                // skip the child's log lines
            }
            assertTrue(line != null, "the owner JVM died before it was ready");
            orphanPid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
            owner.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        assertTrue(ProcessHandle.of(orphanPid).isPresent(), "the server should outlive its killed owner");

        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0)) {
            assertEquals(List.of(new Venue("v-crash", "Campo Pequeno", "Lisbon")), venues(db));
        }
        assertFalse(ProcessHandle.of(orphanPid).map(ProcessHandle::isAlive).orElse(false));
    }

    /** Runs in a child JVM that the test kills with SIGKILL, so no shutdown hook runs. */
    public static final class KilledOwner {
        public static void main(String[] args) throws InterruptedException {
            EmbeddedDatabase db = EmbeddedDatabase.start(Path.of(args[0]), 0);
            saveVenue(db, new Venue("v-crash", "Campo Pequeno", "Lisbon"));
            System.out.println("READY");
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
