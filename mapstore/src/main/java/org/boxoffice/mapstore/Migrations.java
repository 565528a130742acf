package org.boxoffice.mapstore;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/** Brings a database's schema up to date with the scripts under {@code db/migration}. */
public final class Migrations {

    public static final String LOCATION = "classpath:db/migration";

    private Migrations() {
    }

    /**
     * Applies the pending migrations, each in its own transaction; safe to call on every start and
     * from several members at once (Flyway serializes them with an advisory lock). Flyway holds
     * two connections at once, so a pool must allow at least two.
     *
     * @return how many migrations were applied now
     */
    public static int migrate(DataSource dataSource) {
        return flyway(dataSource, LOCATION).migrate().migrationsExecuted;
    }

    /**
     * Flyway over the scripts at {@code locations}, configured as every start runs it. Validation
     * lets two things pass: versioned migrations newer than the scripts (a newer release migrated
     * the database: Flyway's default), and repeatable migrations the scripts no longer have (a
     * release renamed or dropped an {@code R__} file; what it created stays until a versioned
     * migration drops it). A changed versioned migration still fails the start.
     */
    static Flyway flyway(DataSource dataSource, String... locations) {
        return Flyway.configure()
                .dataSource(dataSource)
                .locations(locations)
                .ignoreMigrationPatterns("*:future", "repeatable:missing")
                .load();
    }

    /**
     * The version of the latest migration applied to the database, as a number: 10 for
     * {@code V10__...} (a dotted version reads as its first part); 0 if none was applied or the
     * history cannot be read. One query of Flyway's history table; no class-path scan.
     */
    public static double appliedVersion(DataSource dataSource) {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT version FROM flyway_schema_history WHERE success AND version IS NOT NULL "
                     + "ORDER BY installed_rank DESC LIMIT 1")) {
            if (!rs.next()) {
                return 0;
            }
            String version = rs.getString(1);
            int dot = version.indexOf('.');
            return Double.parseDouble(dot < 0 ? version : version.substring(0, dot));
        } catch (SQLException | NumberFormatException e) {
            return 0;
        }
    }
}
