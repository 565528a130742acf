package org.boxoffice.domain;

/**
 * A general-admission area of a show (a standing floor): sold by count, not seat by seat.
 *
 * @param capacity   how many admissions the area has in all
 * @param priceCents the price of one admission
 * @param stripes    how many parts its capacity is split into (see {@link AdmissionStripe})
 */
public record AdmissionArea(String showId, String name, int capacity, long priceCents, int stripes) {

    /** Area names: 1-16 letters or digits, like section names. */
    public static final String NAME_PATTERN = "[A-Za-z0-9]{1,16}";
    public static final int MAX_CAPACITY = 1_000_000;
    public static final int MAX_STRIPES = 64;

    public AdmissionArea {
        if (name == null || !name.matches(NAME_PATTERN)) {
            throw new IllegalArgumentException("area names are 1-16 letters or digits");
        }
        if (capacity < 0 || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("capacity is 0 to " + MAX_CAPACITY);
        }
        if (priceCents < 0) {
            throw new IllegalArgumentException("price is not negative");
        }
        if (stripes < 1 || stripes > MAX_STRIPES) {
            throw new IllegalArgumentException("stripes are 1 to " + MAX_STRIPES);
        }
    }

    /**
     * How many stripes an area of {@code capacity} gets unless told: one per 25 admissions, at
     * least 1, at most 16. A small area stays in few stripes (a claim rarely has to look in many),
     * a big one spreads its claims over 16 partitions.
     */
    public static int defaultStripes(int capacity) {
        return Math.max(1, Math.min(16, capacity / 25));
    }
}
