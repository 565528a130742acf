package org.boxoffice.grid;

import org.boxoffice.domain.AdmissionStripe;

/**
 * A change asked of one stripe of a general-admission area; deterministic like {@link BlockCommand}:
 * time and ids come in as fields, so a backup re-running it reaches the same value.
 */
public sealed interface StripeCommand {

    /** The stripe's outcome: the new value (null: unchanged) and how many admissions the command moved. */
    AdmissionStripe.Taken decide(AdmissionStripe current);

    /** Whether what the command moves goes back on sale (see {@link SoldOutMarks}). */
    default boolean givesBack() {
        return false;
    }

    /**
     * Takes up to {@code wanted} admissions for a hold of {@code holdQuantity} in all, and nothing if
     * fewer than {@code atLeast} are free (with {@code atLeast == wanted}: all or nothing).
     */
    record Take(String holdId, String accountId, int wanted, int holdQuantity, int atLeast, long expiresAt, long now,
                long graceMillis) implements StripeCommand {
        @Override
        public AdmissionStripe.Taken decide(AdmissionStripe current) {
            if (!current.holds(holdId) && current.free(now, graceMillis) < atLeast) {
                return new AdmissionStripe.Taken(null, 0);
            }
            return current.take(holdId, accountId, wanted, holdQuantity, expiresAt, now, graceMillis);
        }
    }

    /** Gives back what a hold took from the stripe (released, or a claim rolled back). */
    record Release(String holdId, long now) implements StripeCommand {
        @Override
        public boolean givesBack() {
            return true;
        }

        @Override
        public AdmissionStripe.Taken decide(AdmissionStripe current) {
            AdmissionStripe next = current.release(holdId, now);
            return new AdmissionStripe.Taken(next, next == null ? 0 : next.change().quantity());
        }
    }

    /** Ends the parts of lapsed holds (the sweeper's work). */
    record Expire(long now, long graceMillis) implements StripeCommand {
        @Override
        public boolean givesBack() {
            return true;
        }

        @Override
        public AdmissionStripe.Taken decide(AdmissionStripe current) {
            AdmissionStripe next = current.expire(now, graceMillis);
            return new AdmissionStripe.Taken(next, next == null ? 0 : next.change().ended().size());
        }
    }

    /** Sells what a hold holds here (its payment was captured); moves 0 if it has nothing here or it lapsed. */
    record Confirm(String holdId, long now, long graceMillis) implements StripeCommand {
        @Override
        public AdmissionStripe.Taken decide(AdmissionStripe current) {
            AdmissionStripe next = current.confirm(holdId, now, graceMillis);
            return new AdmissionStripe.Taken(next, next == null ? 0 : next.change().quantity());
        }
    }

    /** Extends what a hold holds here to {@code expiresAt} (its payment started); moves 0 if it lapsed. */
    record Extend(String holdId, long expiresAt, long now, long graceMillis) implements StripeCommand {
        @Override
        public AdmissionStripe.Taken decide(AdmissionStripe current) {
            AdmissionStripe next = current.extend(holdId, expiresAt, now, graceMillis);
            return new AdmissionStripe.Taken(next, next == null ? 0 : next.change().quantity());
        }
    }

    /** Gives back {@code quantity} admissions sold to a hold here (a cancelled or refused sale). */
    record GiveBack(String holdId, int quantity, long now) implements StripeCommand {
        @Override
        public boolean givesBack() {
            return true;
        }

        @Override
        public AdmissionStripe.Taken decide(AdmissionStripe current) {
            AdmissionStripe next = current.giveBack(holdId, quantity, now);
            return new AdmissionStripe.Taken(next, next == null ? 0 : quantity);
        }
    }
}
