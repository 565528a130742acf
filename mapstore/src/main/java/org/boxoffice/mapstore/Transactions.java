package org.boxoffice.mapstore;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Predicate;
import javax.sql.DataSource;

/**
 * One transaction on one connection, the way every repository here runs one: autocommit off,
 * the work, commit (or roll back when the work throws, or when the caller's check refuses its
 * result), autocommit back on, so a connection always goes back to the pool as it came. The
 * repositories call it instead of writing that sequence themselves.
 */
final class Transactions {

    /** Work done inside a transaction, on its connection. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /** Work done inside a transaction that returns nothing. */
    @FunctionalInterface
    interface Steps {
        void run(Connection c) throws SQLException;
    }

    private Transactions() {
    }

    /**
     * Runs {@code work} in one transaction on a pooled connection and returns what it returned;
     * commits if it returns, rolls back if it throws. A failure of the database is a
     * {@link DatabaseException} saying {@code what} was being done.
     */
    static <T> T inTransaction(DataSource dataSource, String what, Work<T> work) {
        try (Connection c = dataSource.getConnection()) {
            return inTransaction(c, work);
        } catch (SQLException e) {
            throw new DatabaseException(what, e);
        }
    }

    /** {@link #inTransaction(DataSource, String, Work)} for work that returns nothing. */
    static void inTransaction(DataSource dataSource, String what, Steps steps) {
        inTransaction(dataSource, what, c -> {
            steps.run(c);
            return null;
        });
    }

    /**
     * Runs {@code work} on one snapshot of the database (repeatable read, read only) on a pooled
     * connection: every query of it sees the same committed state. Nothing is written; the
     * transaction is rolled back at the end.
     */
    static <T> T inSnapshot(DataSource dataSource, String what, Work<T> work) {
        try (Connection c = dataSource.getConnection()) {
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            c.setReadOnly(true);
            try {
                return run(c, work, result -> false);
            } finally {
                c.setReadOnly(false);
                c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            }
        } catch (SQLException e) {
            throw new DatabaseException(what, e);
        }
    }

    /**
     * Runs {@code work} in one transaction on {@code c} and returns what it returned; commits if it
     * returns, rolls back if it throws. Afterwards {@code c} is in autocommit again.
     */
    static <T> T inTransaction(Connection c, Work<T> work) throws SQLException {
        return run(c, work, result -> true);
    }

    /**
     * Runs {@code work} in one transaction on {@code c}: commits and returns what it returned if
     * {@code keep} accepts that, else rolls back and returns null; rolls back if it throws.
     * Afterwards {@code c} is in autocommit again.
     */
    static <T> T committedIf(Connection c, Work<T> work, Predicate<? super T> keep) throws SQLException {
        boolean[] kept = {false};
        T result = run(c, work, r -> kept[0] = keep.test(r));
        return kept[0] ? result : null;
    }

    private static <T> T run(Connection c, Work<T> work, Predicate<? super T> commit) throws SQLException {
        c.setAutoCommit(false);
        try {
            T result = work.run(c);
            if (commit.test(result)) {
                c.commit();
            } else {
                c.rollback();
            }
            return result;
        } catch (SQLException | RuntimeException | Error e) {
            try {
                c.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }
}
