package org.boxoffice.domain;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Waitlist entries as the durable referee records them. Two kinds of callers:
 *
 * <ul>
 * <li>the grid queue's store ({@code waitlist@<showId>}), which writes an item before the queue
 *     holds it in memory and reads the line back after a restart: {@link #enqueue}, {@link #dequeue},
 *     {@link #queued}, {@link #queuedItems}. Item ids are the queue's own, ascending in arrival
 *     order, so they are the line's order;</li>
 * <li>the offer process and the API, which move entries between states. Every transition is
 *     conditional on the entry's current state, so concurrent callers (two members during a
 *     partition migration, a leave racing an offer) agree: one wins, the others learn {@code false}.</li>
 * </ul>
 * Thread-safe.
 */
public interface WaitlistRepository {

    // ------------------------------------------------------------------ the grid queue's store

    /**
     * Records {@code entry} as WAITING under queue item {@code itemId}. If the entry already exists
     * and is still in line (a repair putting it back into the queue), only its item id moves.
     *
     * @throws DuplicateWaitlistEntryException if the account already has another live entry for the show
     * @throws IllegalStateException           if the entry exists but has left the line
     */
    void enqueue(long itemId, WaitlistEntry entry);

    /** The queue dropped {@code itemId}: an entry still in line under it is marked REMOVED. */
    void dequeue(String showId, long itemId);

    /** The entry filed under {@code itemId} (the one in line, else the latest), or empty. */
    Optional<WaitlistEntry> queued(String showId, long itemId);

    Map<Long, WaitlistEntry> queued(String showId, Collection<Long> itemIds);

    /** Item ids of the entries in line, ascending (first come first). */
    List<Long> queuedItems(String showId);

    // ------------------------------------------------------------------ reads

    /** The entries in line (WAITING or OFFERING), first come first. */
    List<WaitlistEntry> line(String showId);

    /** The account's live entry for the show, else its latest one; empty if it never joined. */
    Optional<WaitlistStanding> standing(String showId, String accountId);

    /** The show's entries with an offer started or open (OFFERING, OFFERED). */
    List<WaitlistStanding> offers(String showId);

    /** The account's OFFERED entries, all shows, oldest offer first. */
    List<WaitlistStanding> offersOf(String accountId);

    /** Shows with entries in line or offered. */
    List<String> showsWithLiveEntries();

    /** How many entries wait in each show's line ({@link WaitlistEntry.State#inLine}), for the shows that have any. */
    Map<String, Integer> lineLengths();

    // ------------------------------------------------------------------ transitions (conditional)

    /** WAITING to OFFERING with the hold the offer will use; false if the entry was not WAITING. */
    boolean beginOffer(long entryId, String holdId, long now);

    /**
     * OFFERING (with {@code holdId}) to OFFERED, and the offer mail and the notice for the fan's open
     * page ({@link MailOutbox.Message.Kind#OFFER_MADE}) into their outboxes, in one transaction; false
     * if the entry was not offering with that hold.
     */
    boolean offered(long entryId, String holdId, List<String> seatIds, long expiresAt, long now);

    /** OFFERING (with {@code holdId}) back to WAITING, keeping its place; false if it was not. */
    boolean abandonOffer(long entryId, String holdId, long now);

    /** Ends the entry in {@code to} if it is in one of {@code from}; false otherwise. */
    boolean end(long entryId, Collection<WaitlistEntry.State> from, WaitlistEntry.State to, String reason, long now);

    /** Sales closed: every entry of the show in line becomes CLOSED. Returns how many. */
    int close(String showId, long now);
}
