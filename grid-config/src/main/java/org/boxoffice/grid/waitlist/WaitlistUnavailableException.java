package org.boxoffice.grid.waitlist;

/** The waitlist queue or its store could not be written (grid or database trouble); nothing changed. */
public class WaitlistUnavailableException extends RuntimeException {
    public WaitlistUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
