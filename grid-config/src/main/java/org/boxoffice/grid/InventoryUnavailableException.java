package org.boxoffice.grid;

/**
 * The inventory cannot take writes right now: the referee is unreachable, the grid is below its
 * quorum, or claims on an area's last admissions kept meeting. Nothing was acknowledged; the
 * client may retry. Mapped to 503 by the app.
 */
public class InventoryUnavailableException extends RuntimeException {
    public InventoryUnavailableException(String message) {
        super(message);
    }

    public InventoryUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
