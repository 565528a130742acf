package org.boxoffice.mapstore;

import com.hazelcast.spi.exception.SilentException;
import org.boxoffice.domain.StaleInventoryException;

/**
 * The referee's refusal of a stale grid copy's change, as the MapStores hand it to Hazelcast. A
 * MapStore can refuse a write only by throwing, and Hazelcast logs what an entry operation throws
 * as SEVERE; but a stale copy is a normal path (a rebalancing or a resize moved a row behind the
 * grid's back: the caller drops the copy, it reloads, the change is asked again). So the refusal is
 * marked {@link SilentException}, which the member's operation logs at FINEST only, and stays a
 * {@link StaleInventoryException} for the caller, which turns it into a value.
 */
final class StaleCopyException extends StaleInventoryException implements SilentException {

    private StaleCopyException(StaleInventoryException refused) {
        super(refused.getMessage());
    }

    /** Runs one write of a MapStore; a stale copy's refusal leaves it as a {@link StaleCopyException}. */
    static void refusedQuietly(Runnable write) {
        try {
            write.run();
        } catch (StaleCopyException e) {
            throw e;
        } catch (StaleInventoryException e) {
            throw new StaleCopyException(e);
        }
    }
}
