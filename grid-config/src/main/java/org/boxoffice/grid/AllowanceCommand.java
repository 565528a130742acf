package org.boxoffice.grid;

import org.boxoffice.domain.AccountAllowance;

/** A change asked of one account's allowance in one show; deterministic like {@link BlockCommand}. */
public sealed interface AllowanceCommand {

    AccountAllowance.Decision decide(AccountAllowance current);

    record Reserve(String holdId, int seats, long expiresAt, long now, long graceMillis, int max)
            implements AllowanceCommand {
        @Override
        public AccountAllowance.Decision decide(AccountAllowance current) {
            return current.reserve(holdId, seats, expiresAt, now, graceMillis, max);
        }
    }

    record Release(String holdId) implements AllowanceCommand {
        @Override
        public AccountAllowance.Decision decide(AccountAllowance current) {
            return new AccountAllowance.Decision.Reserved(current.release(holdId));
        }
    }

    record Confirm(String holdId) implements AllowanceCommand {
        @Override
        public AccountAllowance.Decision decide(AccountAllowance current) {
            return new AccountAllowance.Decision.Reserved(current.confirm(holdId));
        }
    }

    record Extend(String holdId, long expiresAt) implements AllowanceCommand {
        @Override
        public AccountAllowance.Decision decide(AccountAllowance current) {
            return new AccountAllowance.Decision.Reserved(current.extend(holdId, expiresAt));
        }
    }

    record CancelSale(int seats) implements AllowanceCommand {
        @Override
        public AccountAllowance.Decision decide(AccountAllowance current) {
            return new AccountAllowance.Decision.Reserved(current.cancelSale(seats));
        }
    }
}
