package org.boxoffice.mapstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A benchmark's server counts every statement; a server started without the setting answers nothing. */
class StatementTotalsTest {

    @TempDir
    Path dir;

    @Test
    void withStatementStatistics_aStatementRunByTheServiceRoleIsCountedWithItsCallsAndTime() throws Exception {
        try (EmbeddedDatabase db = EmbeddedDatabase.start(dir.resolve("pg"), 0, EmbeddedDatabase.STATEMENT_STATISTICS)) {
            long before = calls(db.statementTotals(), "boxoffice_probe");
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                 Statement s = c.createStatement()) {
                for (int i = 0; i < 5; i++) {
                    s.execute("SELECT 1 AS boxoffice_probe");
                }
            }
            List<EmbeddedDatabase.StatementTotals> after = db.statementTotals();
            assertEquals(before + 5, calls(after, "boxoffice_probe"), "five calls of the probe: " + after);
            assertTrue(after.stream().filter(t -> t.query().contains("boxoffice_probe")).allMatch(t -> t.millis() >= 0));
        }
    }

    @Test
    void ofOneDatabase_onlyItsStatementsAreCounted() throws Exception {
        try (EmbeddedDatabase db = EmbeddedDatabase.start(dir.resolve("pg"), 0, EmbeddedDatabase.STATEMENT_STATISTICS)) {
            String other = db.createDatabase("other_db");
            try (Connection c = DriverManager.getConnection(other, db.user(), db.password()); Statement s = c.createStatement()) {
                s.execute("SELECT 2 AS boxoffice_elsewhere");
            }
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password()); Statement s = c.createStatement()) {
                s.execute("SELECT 3 AS boxoffice_here");
            }
            List<EmbeddedDatabase.StatementTotals> there = db.statementTotals("other_db");
            assertEquals(1, calls(there, "boxoffice_elsewhere"), "the other database's probe: " + there);
            assertEquals(0, calls(there, "boxoffice_here"), "nothing of the first database: " + there);
            assertEquals(1, calls(db.statementTotals(), "boxoffice_here"));
        }
    }

    @Test
    void withoutTheSetting_nothingIsCountedAndNothingIsInstalled() {
        try (EmbeddedDatabase db = EmbeddedDatabase.start(dir.resolve("pg"), 0)) {
            assertEquals(List.of(), db.statementTotals());
        }
    }

    private static long calls(List<EmbeddedDatabase.StatementTotals> totals, String marker) {
        return totals.stream().filter(t -> t.query().contains(marker)).mapToLong(EmbeddedDatabase.StatementTotals::calls).sum();
    }
}
