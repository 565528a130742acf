package org.boxoffice.domain;

import java.util.ArrayList;
import java.util.List;

/**
 * One part of a general-admission area's capacity: a count that claims take from, one grid entry
 * (and one referee row) each, so that an area's buyers do not all queue on one number. Immutable;
 * every change returns a new value at the next {@code version}, carrying the {@link Change} the
 * referee applies.
 *
 * <p>Lazy expiry as for seats: a part of a lapsed hold ({@link HoldPolicy#lapsed}) no longer counts
 * against the capacity; the next change of the stripe ends it in the referee too.
 *
 * @param capacity the admissions this stripe may give out in all (sold, held and free)
 * @param sold     admissions of confirmed holds
 * @param parts    what each live hold took from this stripe
 * @param version  the referee row's version this value is at
 * @param change   what the change that made this value did (null for a value read from the referee)
 */
public record AdmissionStripe(String showId, String area, int stripe, int capacity, int sold, List<Part> parts,
                              long version, Change change) {

    /** What one hold took from this stripe. */
    public record Part(String holdId, String accountId, int quantity, long expiresAt) {
    }

    /**
     * TAKE, RELEASE and EXPIRE move held admissions; EXTEND lengthens a hold's part (payment started);
     * CONFIRM sells a hold's part; RETURN gives sold admissions back (a cancelled or refused sale).
     */
    public enum Kind { TAKE, RELEASE, EXPIRE, CONFIRM, EXTEND, RETURN }

    /**
     * A change of the stripe, as the referee applies it.
     *
     * @param quantity     TAKE: the admissions taken from this stripe; CONFIRM, RETURN: sold or given back
     * @param holdQuantity TAKE: the admissions the whole hold takes (its parts on all stripes)
     * @param ended        the holds whose parts on this stripe end with this change (released or lapsed)
     * @param more         TAKE: the takes of other holds decided right after this one and stored with it,
     *                     in order ({@link #combinedWith}); empty for every other change
     */
    public record Change(Kind kind, String holdId, String accountId, int quantity, int holdQuantity, long expiresAt,
                         long at, List<String> ended, List<Take> more) {
        public Change {
            ended = List.copyOf(ended);
            more = List.copyOf(more);
        }

        public Change(Kind kind, String holdId, String accountId, int quantity, int holdQuantity, long expiresAt,
                      long at, List<String> ended) {
            this(kind, holdId, accountId, quantity, holdQuantity, expiresAt, at, ended, List.of());
        }

        /** The admissions this change takes from the stripe: its own and those of the takes stored with it. */
        public int taken() {
            int taken = kind == Kind.TAKE ? quantity : 0;
            for (Take t : more) {
                taken += t.quantity();
            }
            return taken;
        }
    }

    /** Another hold's take, stored with a TAKE change (see {@link Change#more}). */
    public record Take(String holdId, String accountId, int quantity, int holdQuantity, long expiresAt, long at) {
    }

    /** A claim's outcome on this stripe: the new value (null: unchanged) and the admissions taken. */
    public record Taken(AdmissionStripe next, int quantity) {
    }

    public AdmissionStripe {
        parts = List.copyOf(parts);
    }

    /** A stripe nobody has taken from. */
    public static AdmissionStripe fresh(String showId, String area, int stripe, int capacity) {
        return new AdmissionStripe(showId, area, stripe, capacity, 0, List.of(), 0, null);
    }

    /** Admissions counted against the capacity by the referee: sold, and every part not yet ended. */
    public int taken() {
        int taken = sold;
        for (Part p : parts) {
            taken += p.quantity();
        }
        return taken;
    }

    /** Admissions free at {@code now}: the capacity less the sold ones and the parts of holds that have not lapsed. */
    public int free(long now, long graceMillis) {
        int free = capacity - sold;
        for (Part p : parts) {
            if (!HoldPolicy.lapsed(p.expiresAt(), graceMillis, now)) {
                free -= p.quantity();
            }
        }
        return Math.max(0, free);
    }

    /**
     * Takes up to {@code wanted} admissions for hold {@code holdId}, as many as are free (ending
     * lapsed parts on the way). Asked again for a hold that already has a part here (a retried
     * claim), takes nothing more and answers that part's quantity.
     */
    public Taken take(String holdId, String accountId, int wanted, int holdQuantity, long expiresAt, long now,
                      long graceMillis) {
        for (Part p : parts) {
            if (p.holdId().equals(holdId)) {
                return new Taken(null, p.quantity());
            }
        }
        int n = Math.min(wanted, free(now, graceMillis));
        if (n <= 0) {
            return new Taken(null, 0);
        }
        List<Part> kept = new ArrayList<>(parts.size() + 1);
        List<String> ended = new ArrayList<>();
        for (Part p : parts) {
            if (HoldPolicy.lapsed(p.expiresAt(), graceMillis, now)) {
                ended.add(p.holdId());
            } else {
                kept.add(p);
            }
        }
        kept.add(new Part(holdId, accountId, n, expiresAt));
        return new Taken(new AdmissionStripe(showId, area, stripe, capacity, sold, kept, version + 1,
                new Change(Kind.TAKE, holdId, accountId, n, holdQuantity, expiresAt, now, ended)), n);
    }

    /**
     * This TAKE and {@code later}, a TAKE decided on this value, as one change: {@code later}'s
     * stripe at this value's version, its take (and those stored with it) added to this change's, the
     * parts both ended ended. The referee applies it as one write, so the takes a stripe decides one
     * after another while the write before them is in flight share one round trip: all are stored,
     * or none.
     *
     * @throws IllegalArgumentException if either is not a TAKE, or {@code later} was not decided on this value
     */
    public AdmissionStripe combinedWith(AdmissionStripe later) {
        if (change == null || change.kind() != Kind.TAKE || later.change() == null || later.change().kind() != Kind.TAKE
                || later.version() != version + 1 || !later.showId().equals(showId) || !later.area().equals(area)
                || later.stripe() != stripe) {
            throw new IllegalArgumentException("only a TAKE decided on this TAKE's value combines with it");
        }
        Change l = later.change();
        List<String> ended = new ArrayList<>(change.ended());
        ended.addAll(l.ended());
        List<Take> more = new ArrayList<>(change.more());
        more.add(new Take(l.holdId(), l.accountId(), l.quantity(), l.holdQuantity(), l.expiresAt(), l.at()));
        more.addAll(l.more());
        return new AdmissionStripe(showId, area, stripe, later.capacity(), later.sold(), later.parts(), version,
                new Change(Kind.TAKE, change.holdId(), change.accountId(), change.quantity(), change.holdQuantity(),
                        change.expiresAt(), change.at(), ended, more));
    }

    /** Gives back what hold {@code holdId} took here (released, or a claim rolled back); null if it has nothing here. */
    public AdmissionStripe release(String holdId, long now) {
        List<Part> kept = new ArrayList<>(parts.size());
        Part found = null;
        for (Part p : parts) {
            if (p.holdId().equals(holdId)) {
                found = p;
            } else {
                kept.add(p);
            }
        }
        if (found == null) {
            return null;
        }
        return new AdmissionStripe(showId, area, stripe, capacity, sold, kept, version + 1,
                new Change(Kind.RELEASE, holdId, found.accountId(), found.quantity(), 0, 0, now, List.of(holdId)));
    }

    /** Ends the parts of lapsed holds; null if none has lapsed. */
    public AdmissionStripe expire(long now, long graceMillis) {
        List<Part> kept = new ArrayList<>(parts.size());
        List<String> ended = new ArrayList<>();
        for (Part p : parts) {
            if (HoldPolicy.lapsed(p.expiresAt(), graceMillis, now)) {
                ended.add(p.holdId());
            } else {
                kept.add(p);
            }
        }
        if (ended.isEmpty()) {
            return null;
        }
        return new AdmissionStripe(showId, area, stripe, capacity, sold, kept, version + 1,
                new Change(Kind.EXPIRE, null, null, 0, 0, 0, now, ended));
    }

    /**
     * Sells hold {@code holdId}'s part here: its admissions count as sold for good. Null if the hold
     * has no part here, or its part has lapsed (the money came too late for it).
     */
    public AdmissionStripe confirm(String holdId, long now, long graceMillis) {
        Part found = part(holdId);
        if (found == null || HoldPolicy.lapsed(found.expiresAt(), graceMillis, now)) {
            return null;
        }
        List<Part> kept = new ArrayList<>(parts);
        kept.remove(found);
        return new AdmissionStripe(showId, area, stripe, capacity, sold + found.quantity(), kept, version + 1,
                new Change(Kind.CONFIRM, holdId, found.accountId(), found.quantity(), 0, 0, now, List.of()));
    }

    /**
     * Extends hold {@code holdId}'s part here to {@code expiresAt} (never shortens it). Null if the
     * hold has no part here or its part has lapsed: a lapsed hold is not brought back.
     */
    public AdmissionStripe extend(String holdId, long expiresAt, long now, long graceMillis) {
        Part found = part(holdId);
        if (found == null || HoldPolicy.lapsed(found.expiresAt(), graceMillis, now)) {
            return null;
        }
        List<Part> kept = new ArrayList<>(parts.size());
        for (Part p : parts) {
            kept.add(p == found ? new Part(p.holdId(), p.accountId(), p.quantity(), Math.max(p.expiresAt(), expiresAt)) : p);
        }
        return new AdmissionStripe(showId, area, stripe, capacity, sold, kept, version + 1,
                new Change(Kind.EXTEND, holdId, found.accountId(), found.quantity(), 0, Math.max(found.expiresAt(), expiresAt),
                        now, List.of()));
    }

    /**
     * Gives back {@code quantity} admissions sold to hold {@code holdId} (its booking was cancelled, or
     * its sale refused). This copy counts its sales, not whose they are: the referee alone knows whether
     * the hold's part here is still sold, and refuses the change if it is not (a second return).
     * Null if this stripe has fewer sold than that.
     */
    public AdmissionStripe giveBack(String holdId, int quantity, long now) {
        if (quantity <= 0 || quantity > sold) {
            return null;
        }
        return new AdmissionStripe(showId, area, stripe, capacity, sold - quantity, parts, version + 1,
                new Change(Kind.RETURN, holdId, null, quantity, 0, 0, now, List.of()));
    }

    private Part part(String holdId) {
        for (Part p : parts) {
            if (p.holdId().equals(holdId)) {
                return p;
            }
        }
        return null;
    }

    /** Whether hold {@code holdId} has a part here. */
    public boolean holds(String holdId) {
        for (Part p : parts) {
            if (p.holdId().equals(holdId)) {
                return true;
            }
        }
        return false;
    }
}
