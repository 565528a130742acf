package org.boxoffice.mapstore;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.boxoffice.domain.TicketPolicyRepository;

/**
 * How a show's tickets may be shown at the gate ({@code shows.print_at_home}; migration V20): read
 * on every printed code the gate checks and every QR image asked for, changed by an admin. Thread-safe;
 * one pooled connection per call.
 */
public final class PostgresTicketPolicies implements TicketPolicyRepository {

    private final DataSource dataSource;

    public PostgresTicketPolicies(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource);
    }

    @Override
    public Optional<Boolean> printAtHome(String showId) {
        return Transactions.inTransaction(dataSource, "reading show " + showId + "'s ticket policy", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT print_at_home FROM shows WHERE show_id = ?")) {
                ps.setString(1, showId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(rs.getBoolean(1)) : Optional.<Boolean>empty();
                }
            }
        });
    }

    @Override
    public boolean setPrintAtHome(String showId, boolean allowed) {
        return Transactions.inTransaction(dataSource, "changing show " + showId + "'s ticket policy", c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE shows SET print_at_home = ? WHERE show_id = ?")) {
                ps.setBoolean(1, allowed);
                ps.setString(2, showId);
                return ps.executeUpdate() == 1;
            }
        });
    }
}
