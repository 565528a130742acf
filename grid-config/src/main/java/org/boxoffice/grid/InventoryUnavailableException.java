package org.boxoffice.grid;

/**
 * The inventory cannot take writes right now: the referee is unreachable, or the grid is below
 * its quorum. Nothing was acknowledged; the client may retry. Mapped to 503 by the app.
 */
public class InventoryUnavailableException extends RuntimeException {
    public InventoryUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
