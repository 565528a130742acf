package org.boxoffice.app.ops;

import com.zaxxer.hikari.HikariDataSource;
import org.boxoffice.domain.HoldPolicy;
import org.boxoffice.mapstore.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

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

    @Test
    void inACluster_onlyTheCheckingMemberReadsTheDatabase_andEveryMemberReportsWhatItFound() {
        Map<String, Long> findings = new ConcurrentHashMap<>();
        AtomicBoolean oldest = new AtomicBoolean(true);
        // the other member's database refuses every connection: it must not need one for the checks
        DataSource unreachable = (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{DataSource.class}, (proxy, method, args) -> {
                    throw new SQLException("the member that does not check must not read the database");
                });
        InvariantChecker checking = new InvariantChecker(db, new OpsMetrics(), oldest::get, findings);
        InvariantChecker other = new InvariantChecker(unreachable, new OpsMetrics(), () -> false, findings);
        try {
            checking.tick();
            assertEquals(InvariantChecker.CHECKS.keySet(), findings.keySet(), "every kind is shared");
            assertTrue(findings.values().stream().allMatch(count -> count == 0), findings.toString());

            findings.put("double_sold", 2L);   // as the checking member writes what it found
            other.tick();
            assertEquals(2L, other.violations().get("double_sold"));
            assertEquals(0L, other.violations().get("held_without_hold"));

            // the expiry lag too: probed by the checking member alone, reported by every member
            checking.lagTick();
            assertEquals(0L, findings.get(InvariantChecker.EXPIRY_LAG_FINDING));
            findings.put(InvariantChecker.EXPIRY_LAG_FINDING, 1_500L);
            other.lagTick();
            assertEquals(1.5, other.expiryLagSeconds(), 1e-9);

            // the oldest member left: the one that checked no longer does, and reports what the new one finds
            oldest.set(false);
            findings.put("double_sold", 0L);
            findings.put("hold_disagrees", 1L);
            checking.tick();
            assertEquals(1L, checking.violations().get("hold_disagrees"));
            assertEquals(0L, checking.violations().get("double_sold"));
            checking.lagTick();
            assertEquals(1.5, checking.expiryLagSeconds(), 1e-9);
        } finally {
            checking.close();
            other.close();
        }
    }

    private static OffsetDateTime at(long epochMillis) {
        return OffsetDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
    }
}
