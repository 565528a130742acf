package org.boxoffice.app.ops;

import com.zaxxer.hikari.HikariDataSource;
import org.boxoffice.domain.HoldPolicy;
import org.boxoffice.mapstore.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The invariant checker's SQL says what {@link HoldPolicy} says, on a real PostgreSQL. */
class InvariantCheckerTest {

    private static final long EXPIRES_AT = 1_764_800_000_123L;
    private static final long[] GRACES = {0, 1, 999, 1_000, 5_000, 60_000};
    private static final long[] AROUND = {-1_000, -1, 0, 1, 1_000};

    private static HikariDataSource db;

    @BeforeAll
    static void database() {
        db = TestDatabase.newDataSource(1);
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @Test
    void theLapseRuleInSql_agreesWithHoldPolicy_onEitherSideOfTheMomentAHoldLapses() throws SQLException {
        String sql = "SELECT " + InvariantChecker.lapsed("?::timestamptz", "?::bigint", "?::timestamptz") + ", "
                + "(EXTRACT(EPOCH FROM " + InvariantChecker.lapsesAt("?::timestamptz", "?::bigint") + ") * 1000)::bigint";
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (long grace : GRACES) {
                for (long delta : AROUND) {
                    long now = HoldPolicy.lapsesAt(EXPIRES_AT, grace) + delta;
                    ps.setObject(1, at(EXPIRES_AT));
                    ps.setLong(2, grace);
                    ps.setObject(3, at(now));
                    ps.setObject(4, at(EXPIRES_AT));
                    ps.setLong(5, grace);
                    try (ResultSet rs = ps.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals(HoldPolicy.lapsed(EXPIRES_AT, grace, now), rs.getBoolean(1),
                                "grace " + grace + " ms, " + delta + " ms from the lapse");
                        assertEquals(HoldPolicy.lapsesAt(EXPIRES_AT, grace), rs.getLong(2), "grace " + grace + " ms");
                    }
                }
            }
        }
    }

    @Test
    void theChecksAndTheLagProbe_runOnTheSchema_andFindNothingOnAnEmptyDatabase() {
        InvariantChecker checker = new InvariantChecker(db, new OpsMetrics());
        try {
            assertTrue(checker.checkNow().values().stream().allMatch(count -> count == 0), checker.checkNow().toString());
            assertEquals(0.0, checker.expiryLagNow());
        } finally {
            checker.close();
        }
    }

    private static OffsetDateTime at(long epochMillis) {
        return OffsetDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
    }
}
