package org.boxoffice.grid.member;

/**
 * A member found the cluster it joined writing to another database than its own: it left before
 * owning any partition. Two referees under one grid could each accept a claim the other never sees.
 */
public final class RefereeMismatchException extends RuntimeException {
    public RefereeMismatchException(String message) {
        super(message);
    }
}
