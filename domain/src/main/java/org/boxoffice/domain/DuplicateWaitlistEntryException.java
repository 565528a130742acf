package org.boxoffice.domain;

/**
 * The referee refused a second live waitlist entry for one account and show. Raised from inside
 * the grid queue's store, where an exception is the only way to refuse an item, so that concurrent
 * joins of one account (on any member) end with exactly one entry.
 */
public class DuplicateWaitlistEntryException extends RuntimeException {
    public DuplicateWaitlistEntryException(String message) {
        super(message);
    }
}
