package org.boxoffice.mapstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TransactionsTest {

    private static HikariDataSource db;

    @BeforeAll
    static void start() throws SQLException {
        db = TestDatabase.newDataSource(2);
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE tx_probe (n int PRIMARY KEY)");
        }
    }

    @AfterAll
    static void stop() {
        db.close();
    }

    @BeforeEach
    void empty() throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("TRUNCATE tx_probe");
        }
    }

    @Test
    void inTransaction_commitsEveryStatement_whenTheWorkReturns() throws SQLException {
        int result = Transactions.inTransaction(db, "probing", c -> insert(c, 1) + insert(c, 2));

        assertEquals(2, result);
        assertEquals(2, count());
    }

    @Test
    void inTransaction_rollsBackEveryStatementAndWrapsTheFailure_whenAStatementFails() throws SQLException {
        DatabaseException e = assertThrows(DatabaseException.class,
                () -> Transactions.inTransaction(db, "probing twice", c -> insert(c, 1) + insert(c, 1)));

        assertEquals("probing twice", e.getMessage());
        assertEquals(0, count());
    }

    @Test
    void inTransaction_rollsBackAndLeavesTheConnectionInAutocommit_whenTheWorkThrows() throws SQLException {
        try (Connection c = db.getConnection()) {
            assertThrows(IllegalStateException.class, () -> Transactions.inTransaction(c, t -> {
                insert(t, 1);
                throw new IllegalStateException("refused half-way");
            }));

            assertTrue(c.getAutoCommit());
            insert(c, 2); // on its own, committed at once
        }

        assertEquals(1, count());
    }

    @Test
    void committedIf_rollsBackAndAnswersNull_whenTheResultIsRefused() throws SQLException {
        Integer refused;
        Integer kept;
        try (Connection c = db.getConnection()) {
            refused = Transactions.committedIf(c, t -> insert(t, 1), r -> false);
            kept = Transactions.committedIf(c, t -> insert(t, 2), r -> r == 1);
            assertTrue(c.getAutoCommit());
        }

        assertNull(refused);
        assertEquals(1, kept);
        assertEquals(1, count());
    }

    @Test
    void inSnapshot_seesOneStateOfTheDatabase_andWritesNothing() throws SQLException {
        insertAlone(1);

        int[] seen = Transactions.inSnapshot(db, "reading", c -> {
            int first = count(c);
            insertAlone(2); // committed by another connection in between
            return new int[] {first, count(c)};
        });

        assertEquals(1, seen[0]);
        assertEquals(1, seen[1], "a second query of the snapshot sees what the first saw");
        assertThrows(DatabaseException.class, () -> Transactions.inSnapshot(db, "writing", c -> insert(c, 3)));
        assertEquals(2, count());
    }

    private static int insert(Connection c, int n) throws SQLException {
        try (Statement s = c.createStatement()) {
            return s.executeUpdate("INSERT INTO tx_probe VALUES (" + n + ")");
        }
    }

    private static void insertAlone(int n) throws SQLException {
        try (Connection c = db.getConnection()) {
            insert(c, n);
        }
    }

    private static int count() throws SQLException {
        try (Connection c = db.getConnection()) {
            return count(c);
        }
    }

    private static int count(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM tx_probe")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
