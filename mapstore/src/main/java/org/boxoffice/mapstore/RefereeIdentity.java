package org.boxoffice.mapstore;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Which database a member's referee is: the identity drawn when its schema was made (V14), with
 * the database's name and server for people reading an error.
 */
public final class RefereeIdentity {

    private RefereeIdentity() {
    }

    /** For example {@code 7c9e…-41d2 (database boxoffice on 127.0.0.1:5432)}. */
    public static String of(DataSource dataSource) {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("""
                     SELECT id::text, current_database(), coalesce(host(inet_server_addr()), 'local socket'),
                            coalesce(inet_server_port(), 0)
                     FROM referee""")) {
            if (!rs.next()) {
                throw new IllegalStateException("the referee table is empty: the migrations did not run");
            }
            return rs.getString(1) + " (database " + rs.getString(2) + " on " + rs.getString(3) + ":" + rs.getInt(4) + ")";
        } catch (SQLException e) {
            throw new DatabaseException("could not read the referee's identity", e);
        }
    }

}
