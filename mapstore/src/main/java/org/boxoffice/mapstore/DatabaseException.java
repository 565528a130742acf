package org.boxoffice.mapstore;

import org.boxoffice.domain.RefereeException;

/**
 * The database failed for a technical reason (unreachable, pool exhausted, a constraint the
 * caller broke): the {@link RefereeException} this module throws, with the JDBC failure as its
 * cause. Callers above the mapstore catch the domain's type; this class keeps its name because its
 * instances cross members (a store failing on another member, during a rolling upgrade too).
 */
public class DatabaseException extends RefereeException {
    public DatabaseException(String message, Throwable cause) {
        super(message, cause);
    }
}
