package org.boxoffice.mapstore;

import java.util.Objects;

/**
 * Where the database is and how many connections to keep open to it.
 *
 * @param poolSize connections in the pool; size it to the stores that can be in flight at once
 *                 (one per partition thread doing a write-through store, plus the app's own reads)
 */
public record DbSettings(String jdbcUrl, String user, String password, int poolSize) {

    public DbSettings {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(user, "user");
        password = password == null ? "" : password;
        if (poolSize < 1) {
            throw new IllegalArgumentException("poolSize must be positive: " + poolSize);
        }
    }

    @Override
    public String toString() {
        return "DbSettings[" + jdbcUrl + " as " + user + ", pool " + poolSize + "]";
    }
}
