package org.boxoffice.domain;

import java.util.Optional;

/**
 * How a fan is reached besides their page: their phone number, optional. Messages written after a
 * change use the new number. Thread-safe.
 */
public interface ContactRepository {

    Optional<PhoneNumber> phone(String accountId);

    void setPhone(String accountId, PhoneNumber phone, long now);

    /** Forgets the account's number; false if it had none. */
    boolean removePhone(String accountId);

    /**
     * Writes a notice, by page and by the fan's channel, for every waitlist offer that lapses after
     * {@code now} and no later than {@code until}, unless it was written already (by this member or
     * another). Returns how many notices it wrote.
     */
    int noteLapsingOffers(long now, long until);
}
