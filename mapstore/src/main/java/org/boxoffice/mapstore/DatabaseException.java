package org.boxoffice.mapstore;

/**
 * The database failed for a technical reason (unreachable, pool exhausted, a constraint the
 * caller broke). Unchecked so callers on the grid's store path fail the operation and move on;
 * a stale grid copy is reported as {@link org.boxoffice.domain.StaleInventoryException} instead.
 */
public class DatabaseException extends RuntimeException {
    public DatabaseException(String message, Throwable cause) {
        super(message, cause);
    }
}
