package org.boxoffice.mapstore;

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
        return Flyway.configure()
                .dataSource(dataSource)
                .locations(LOCATION)
                .load()
                .migrate()
                .migrationsExecuted;
    }
}
