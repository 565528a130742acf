package org.boxoffice.domain;

/**
 * The referee (PostgreSQL) refused a transition because its seat rows no longer have the expected
 * versions: the grid's copy of the block is stale. The caller must drop its copy and reload.
 * A technical failure, not a business outcome.
 */
public class StaleInventoryException extends RuntimeException {
    public StaleInventoryException(String message) {
        super(message);
    }
}
