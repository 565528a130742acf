package org.boxoffice.grid.waitlist;

import com.hazelcast.collection.IQueue;
import com.hazelcast.core.HazelcastInstance;
import org.boxoffice.domain.DuplicateWaitlistEntryException;
import org.boxoffice.domain.WaitlistEntry;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The shows' waitlist queues. {@code waitlist@<showId>}: the text after {@code @} is the partition
 * key, so a show's line lives on the same partition as the show's waiting room. Item order is
 * arrival order at that one partition, which makes it the line's first-come-first-served order.
 *
 * <p>Every change goes through the queue's store first (mapstore's WaitlistQueueStore): an entry is in
 * PostgreSQL before it is in the queue, and a store that refuses it (the account already waits)
 * fails the offer. Thread-safe.
 */
public final class Waitlists {

    /** Hazelcast looks queue configs up by the name before {@code @}. */
    public static final String CONFIG_NAME = "waitlist";
    private static final String PREFIX = CONFIG_NAME + "@";

    private final HazelcastInstance hz;

    public Waitlists(HazelcastInstance hz) {
        this.hz = hz;
    }

    public static String queueName(String showId) {
        return PREFIX + showId;
    }

    /** The show id of a waitlist queue's name. */
    public static String showIdOf(String queueName) {
        int at = queueName.indexOf('@');
        if (at < 0 || !queueName.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a waitlist queue: " + queueName);
        }
        return queueName.substring(at + 1);
    }

    public IQueue<WaitlistEntry> queue(String showId) {
        return hz.getQueue(queueName(showId));
    }

    /**
     * Puts {@code entry} at the back of its show's line.
     *
     * @return false if the account already has a live entry for the show (the referee said so)
     * @throws WaitlistUnavailableException if the line or its store cannot be written now
     */
    public boolean join(WaitlistEntry entry) {
        try {
            return queue(entry.showId()).offer(entry);
        } catch (RuntimeException e) {
            if (causedBy(e, DuplicateWaitlistEntryException.class)) {
                return false;
            }
            throw new WaitlistUnavailableException("the waitlist of " + entry.showId() + " cannot be written now", e);
        }
    }

    /** Takes entries out of the line (they were offered seats, left, or ended otherwise). */
    public void remove(String showId, List<WaitlistEntry> entries) {
        if (!entries.isEmpty()) {
            // removeAll, not remove: remove(Object) does not load items the queue keeps only in its store
            queue(showId).removeAll(entries);
        }
    }

    /** The line as the queue holds it, first come first (items it keeps only in its store are loaded). */
    public List<WaitlistEntry> line(String showId) {
        List<WaitlistEntry> out = new ArrayList<>(queue(showId));
        out.removeIf(Objects::isNull);
        return out;
    }

    static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
