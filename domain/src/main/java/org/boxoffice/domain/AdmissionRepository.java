package org.boxoffice.domain;

import java.util.List;
import java.util.Optional;

/**
 * The durable referee for general admission. Implemented on PostgreSQL, whose stripe rows refuse
 * any admission beyond their capacity and whose stripes always add up to their area's capacity.
 */
public interface AdmissionRepository {

    /** Creates an area with its stripes, the capacity spread evenly; false if the show has an area of that name already. */
    boolean createArea(AdmissionArea area, long at);

    /** The outcome of a change of an area's capacity. */
    sealed interface Resize {
        /** The capacity is set. */
        record Done(int taken) implements Resize {
        }

        /** Refused: {@code taken} admissions are held or sold, more than the new capacity. */
        record BelowTaken(int taken) implements Resize {
        }

        record NoArea() implements Resize {
        }
    }

    /** Sets an area's capacity, never below what is taken; the stripes changed move to new versions. */
    Resize resize(String showId, String area, int capacity);

    /** A show's areas, by name. */
    List<AdmissionArea> areas(String showId);

    /** One stripe as the referee has it, with its live holds' parts; empty if there is no such stripe. */
    Optional<AdmissionStripe> loadStripe(String showId, String area, int stripe);

    /**
     * Applies {@code next.change()} in one transaction, at the version the grid's copy was at.
     *
     * @throws StaleInventoryException if the stripe row has moved on, or the change would take it
     *                                 beyond its capacity: nothing is written then
     */
    void apply(AdmissionStripe next);

    /** Moves up to {@code want} unclaimed admissions of capacity from one stripe to another; returns how many moved. */
    int move(String showId, String area, int from, int to, int want);

    /** Admissions taken in an area (held, lapsed but not yet ended, sold), by the referee's stripe rows. */
    int taken(String showId, String area);

    /**
     * An area as the referee has it at one moment (one snapshot of every stripe).
     *
     * @param free     admissions no hold keeps: unclaimed, or kept by a part of a hold that has lapsed
     * @param inFlight admissions kept by claims that are not settled: parts of a hold that has fewer
     *                 admissions than it asked for (a claim still taking, or giving back what it took),
     *                 or of a hold released but not yet ended on every stripe. Each either becomes part
     *                 of a whole hold or goes back on sale within a claim's time.
     * @param versions each stripe's version, by stripe number
     */
    record Remaining(int free, int inFlight, List<Long> versions) {
        public Remaining {
            versions = List.copyOf(versions);
        }

        /** What a buyer may still get: the free admissions and those claims in flight may give back. */
        public int left() {
            return free + inFlight;
        }
    }

    /**
     * What an area has left at {@code now}, as of one snapshot. A part counts as lapsed by
     * {@link HoldPolicy#lapsed}'s rule under a grace of {@code graceMillis}: from its hold's expiry
     * plus the grace on, that moment included.
     */
    Remaining remaining(String showId, String area, long now, long graceMillis);

    /** Stripes that still count a part of a hold that lapsed before {@code lapsedBefore} (reconciliation). */
    List<StripeId> stripesWithHoldsLapsedBefore(long lapsedBefore);

    record StripeId(String showId, String area, int stripe) {
    }

    /** What a hold's part on one stripe is now: held (ACTIVE), given back (ENDED) or SOLD. */
    enum PartStatus { ACTIVE, ENDED, SOLD }

    /** One stripe's part of a hold, as the referee has it. */
    record HoldPart(int stripe, int quantity, PartStatus status) {
    }

    /** The parts of hold {@code holdId} on every stripe, by stripe (none for a hold of seats). */
    List<HoldPart> parts(String holdId);
}
