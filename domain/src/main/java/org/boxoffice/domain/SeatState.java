package org.boxoffice.domain;

import java.util.Objects;

/**
 * The state of one seat of one show. A transition is a method on the source state returning the
 * target state, so an illegal transition (confirming an available seat, say) does not compile.
 *
 * <pre>
 * AVAILABLE --hold--> HELD --confirm--> SOLD --cancel--> AVAILABLE
 * HELD --release / expire--> AVAILABLE;  any --block--> BLOCKED --unblock--> AVAILABLE
 * </pre>
 */
public sealed interface SeatState {

    /** The status name used by the API and the database. */
    Status status();

    /** Whether this seat may be claimed at {@code now} (available, or held by a lapsed hold). */
    default boolean claimable(long now, long graceMillis) {
        return false;
    }

    /** Admin block from any state but SOLD (a sold seat is cancelled first). */
    default Blocked block() {
        return new Blocked();
    }

    enum Status { AVAILABLE, HELD, SOLD, BLOCKED }

    record Available() implements SeatState {
        public Held hold(String holdId, String accountId, long expiresAt) {
            return new Held(holdId, accountId, expiresAt);
        }

        @Override
        public Status status() {
            return Status.AVAILABLE;
        }

        @Override
        public boolean claimable(long now, long graceMillis) {
            return true;
        }
    }

    /**
     * Held by {@code holdId} for {@code accountId} until {@code expiresAt} (epoch millis). Lazy
     * expiry: once {@code expiresAt + grace} has passed the seat counts as available, whether or
     * not the sweeper has written the release yet.
     */
    record Held(String holdId, String accountId, long expiresAt) implements SeatState {
        public Held {
            Objects.requireNonNull(holdId, "holdId");
            Objects.requireNonNull(accountId, "accountId");
        }

        public boolean lapsed(long now, long graceMillis) {
            return HoldPolicy.lapsed(expiresAt, graceMillis, now);
        }

        public Sold confirm(long bookingId) {
            return new Sold(bookingId);
        }

        public Held extendTo(long newExpiresAt) {
            return new Held(holdId, accountId, newExpiresAt);
        }

        public Available release() {
            return new Available();
        }

        public Available expire() {
            return new Available();
        }

        @Override
        public Status status() {
            return Status.HELD;
        }

        @Override
        public boolean claimable(long now, long graceMillis) {
            return lapsed(now, graceMillis);
        }
    }

    record Sold(long bookingId) implements SeatState {
        public Available cancel() {
            return new Available();
        }

        @Override
        public Status status() {
            return Status.SOLD;
        }

        @Override
        public Blocked block() {
            throw new IllegalStateException("a sold seat is cancelled before it is blocked");
        }
    }

    record Blocked() implements SeatState {
        public Available unblock() {
            return new Available();
        }

        @Override
        public Status status() {
            return Status.BLOCKED;
        }
    }
}
