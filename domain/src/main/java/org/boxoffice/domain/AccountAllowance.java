package org.boxoffice.domain;

import java.util.ArrayList;
import java.util.List;

/**
 * How many seats one account has in one show: its active holds (each with its expiry, so lapsed
 * holds stop counting without anyone writing) and its bought seats. Immutable; every change
 * returns a new value. Enforces {@link HoldPolicy#maxPerAccount()}.
 */
public record AccountAllowance(List<HoldEntry> holds, int soldSeats) {

    public record HoldEntry(String holdId, int seats, long expiresAt) {
    }

    public sealed interface Decision {
        record Reserved(AccountAllowance next) implements Decision {
        }

        /** @param remaining how many more seats the account could take now */
        record Rejected(Rejection reason, int remaining) implements Decision {
        }
    }

    public AccountAllowance {
        holds = List.copyOf(holds);
    }

    public static AccountAllowance empty() {
        return new AccountAllowance(List.of(), 0);
    }

    /** Seats counted against the limit at {@code now}: active holds plus sales. */
    public int seatsInUse(long now, long graceMillis) {
        return soldSeats + active(now, graceMillis).stream().mapToInt(HoldEntry::seats).sum();
    }

    /** Reserves {@code seats} for a new hold if the account stays within {@code max}. Idempotent per hold id. */
    public Decision reserve(String holdId, int seats, long expiresAt, long now, long graceMillis, int max) {
        List<HoldEntry> live = active(now, graceMillis);
        if (live.stream().anyMatch(h -> h.holdId().equals(holdId))) {
            return new Decision.Reserved(new AccountAllowance(live, soldSeats));
        }
        int inUse = soldSeats + live.stream().mapToInt(HoldEntry::seats).sum();
        if (inUse + seats > max) {
            return new Decision.Rejected(Rejection.ACCOUNT_LIMIT, Math.max(0, max - inUse));
        }
        List<HoldEntry> next = new ArrayList<>(live);
        next.add(new HoldEntry(holdId, seats, expiresAt));
        return new Decision.Reserved(new AccountAllowance(next, soldSeats));
    }

    /** Forgets a hold (released, failed or expired). */
    public AccountAllowance release(String holdId) {
        return new AccountAllowance(holds.stream().filter(h -> !h.holdId().equals(holdId)).toList(), soldSeats);
    }

    /** Moves a hold's seats to the account's bought seats. */
    public AccountAllowance confirm(String holdId) {
        int seats = holds.stream().filter(h -> h.holdId().equals(holdId)).mapToInt(HoldEntry::seats).sum();
        return new AccountAllowance(release(holdId).holds(), soldSeats + seats);
    }

    /** Gives back seats of a cancelled booking. */
    public AccountAllowance cancelSale(int seats) {
        return new AccountAllowance(holds, Math.max(0, soldSeats - seats));
    }

    /** Moves a hold's expiry. */
    public AccountAllowance extend(String holdId, long expiresAt) {
        return new AccountAllowance(holds.stream()
                .map(h -> h.holdId().equals(holdId) ? new HoldEntry(holdId, h.seats(), expiresAt) : h)
                .toList(), soldSeats);
    }

    private List<HoldEntry> active(long now, long graceMillis) {
        return holds.stream().filter(h -> !HoldPolicy.lapsed(h.expiresAt(), graceMillis, now)).toList();
    }
}
