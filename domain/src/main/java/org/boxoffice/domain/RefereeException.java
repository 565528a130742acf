package org.boxoffice.domain;

/**
 * The referee (PostgreSQL) failed for a technical reason: unreachable, out of connections, or a
 * value or constraint it refused. Thrown by the repositories behind this package's ports, and by
 * the grid's write-through store, whose caller then gets it in place of the change it asked for;
 * nothing was changed. Unchecked, so a caller on the store path fails its operation and moves on;
 * a stale grid copy is a {@link StaleInventoryException} instead. A technical failure, not a
 * business outcome: the web layer answers it in one place.
 */
public class RefereeException extends RuntimeException {
    public RefereeException(String message, Throwable cause) {
        super(message, cause);
    }
}
