package org.boxoffice.grid;

/**
 * What the grid last learned of a general-admission area's shortage, one entry per area in
 * {@link GridMaps#SOLD_OUT_MARKS}: at {@code epoch}, the area had only {@code left} admissions (free,
 * or kept by claims in flight that may give them back), and that stays true until {@code until}
 * unless something gives admissions back, which replaces the mark with a new epoch and no count.
 *
 * @param epoch a random number each give-back draws anew: a mark is written only over the epoch its
 *              count started from ({@link SoldOutMarks#mark})
 * @param left  the admissions the area had at most; {@link #NO_COUNT} if nothing is known
 * @param until the first moment the count may be wrong without a give-back: the earliest lapse of a
 *              hold that kept some, or sooner ({@link SoldOutMarks#TRUST_MILLIS})
 */
public record SoldOutMark(long epoch, int left, long until) {

    /** {@link #left} of a mark that says nothing. */
    public static final int NO_COUNT = -1;

    /** A mark that says nothing at epoch {@code epoch}: what a give-back leaves. */
    static SoldOutMark cleared(long epoch) {
        return new SoldOutMark(epoch, NO_COUNT, 0);
    }

    /** Whether, at {@code now}, this mark says the area has fewer than {@code quantity} admissions left. */
    boolean fewerThan(int quantity, long now) {
        return left != NO_COUNT && left < quantity && now < until;
    }
}
