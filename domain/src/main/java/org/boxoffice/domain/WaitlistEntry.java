package org.boxoffice.domain;

import java.util.Objects;

/**
 * One fan's place on a show's waitlist, as it stands in the show's grid queue: who, how many
 * adjacent seats in which section (null: any), or how many admissions to which general-admission
 * area, when they joined and where the offer mail goes.
 *
 * <p>Immutable. The grid queue finds an item to remove by comparing serialized values, so an entry
 * read back from the queue must be passed back unchanged.
 *
 * @param entryId   cluster-unique id (a flake id), never reused
 * @param section   the section the fan wants, or null for any
 * @param joinedAt  epoch millis
 * @param recipient the address offer mails go to
 * @param area      the general-admission area whose admissions the fan waits for, or null: seats
 */
public record WaitlistEntry(long entryId, String showId, String accountId, int quantity, String section,
                            long joinedAt, String recipient, String area) {

    /** The most seats one entry may wait for. */
    public static final int MAX_QUANTITY = 10;

    public WaitlistEntry {
        Objects.requireNonNull(showId);
        Objects.requireNonNull(accountId);
        Objects.requireNonNull(recipient);
        if (quantity < 1 || quantity > MAX_QUANTITY) {
            throw new IllegalArgumentException("a waitlist entry asks for 1 to " + MAX_QUANTITY + " seats");
        }
        if (area != null && section != null) {
            throw new IllegalArgumentException("a waitlist entry waits for seats of a section or admissions to an area");
        }
    }

    /** An entry waiting for seats. */
    public WaitlistEntry(long entryId, String showId, String accountId, int quantity, String section, long joinedAt,
                         String recipient) {
        this(entryId, showId, accountId, quantity, section, joinedAt, recipient, null);
    }

    /** Whether the entry waits for admissions to an area (sold by count) rather than for seats. */
    public boolean byCount() {
        return area != null;
    }

    /**
     * Where an entry is in its life.
     *
     * <pre>
     * WAITING --offer starts--> OFFERING --seats held for it--> OFFERED --checked out--> BOOKED
     *    |  ^                      |                               |------lapsed-------> EXPIRED
     *    |  '---hold refused-------'                               '--released/left----> DECLINED
     *    |------left------------------------------------------------------------------> LEFT
     *    |------sales closed------------------------------------------------------------> CLOSED
     *    '------account limit reached when offered--------------------------------------> REFUSED
     * </pre>
     * REMOVED: taken out of the grid queue without any of these decisions (defensive; not expected).
     */
    public enum State {
        WAITING, OFFERING, OFFERED, BOOKED, EXPIRED, DECLINED, LEFT, CLOSED, REFUSED, REMOVED;

        /** Still in the line (an OFFERING entry keeps its place until its offer is made). */
        public boolean inLine() {
            return this == WAITING || this == OFFERING;
        }

        /** Counts as the account's one entry for the show. */
        public boolean live() {
            return inLine() || this == OFFERED;
        }
    }
}
