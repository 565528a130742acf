package org.boxoffice.mapstore;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/** Builds the pooled {@link javax.sql.DataSource} every repository borrows its connections from. */
public final class DataSources {

    /** Names the pool in logs and JMX; also what PostgreSQL shows as application_name. */
    public static final String POOL_NAME = "boxoffice-pg";

    private DataSources() {
    }

    /**
     * A fixed-size HikariCP pool in autocommit mode. The repositories' hot path is one statement
     * per call, which is atomic on its own, so autocommit saves the BEGIN/COMMIT round trips.
     * The caller owns the pool and closes it. Thread-safe.
     */
    public static HikariDataSource pooled(DbSettings settings) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(POOL_NAME);
        config.setJdbcUrl(settings.jdbcUrl());
        config.setUsername(settings.user());
        config.setPassword(settings.password());
        config.setMaximumPoolSize(settings.poolSize());
        config.setMinimumIdle(settings.poolSize());
        config.setAutoCommit(true);
        // A write-through store waiting longer than this for a connection is holding its partition
        // hostage; failing lets the grid reject the claim and move on.
        config.setConnectionTimeout(5_000);
        config.addDataSourceProperty("ApplicationName", POOL_NAME);
        // Catalog saves send batches; let the driver fold them into multi-row INSERTs.
        config.addDataSourceProperty("reWriteBatchedInserts", "true");
        return new HikariDataSource(config);
    }
}
