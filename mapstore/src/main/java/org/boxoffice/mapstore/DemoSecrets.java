package org.boxoffice.mapstore;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Base64;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * A demo's own secrets, generated on its first start and kept in its database (migration V15): the
 * first member to ask for a setting's secret writes 32 random bytes, and every member after it, on
 * this start or any later one, reads the same value. Thread-safe.
 */
public final class DemoSecrets {

    private static final SecureRandom RANDOM = new SecureRandom();
    private final DataSource dataSource;

    public DemoSecrets(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource);
    }

    /** The secret of setting {@code name} (for example {@code boxoffice.auth.secret}), created if it has none yet. */
    public String secret(String name) {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        String fresh = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO demo_secrets (name, secret) VALUES (?, ?) ON CONFLICT (name) DO NOTHING")) {
                ps.setString(1, name);
                ps.setString(2, fresh);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT secret FROM demo_secrets WHERE name = ?")) {
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getString(1);
                }
            }
        } catch (SQLException e) {
            throw new DatabaseException("reading the demo's secret " + name, e);
        }
    }
}
