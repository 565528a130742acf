package org.boxoffice.mapstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.boxoffice.domain.ContactRepository;
import org.boxoffice.domain.PhoneNumber;

import static org.boxoffice.mapstore.PostgresInventoryRepository.timestamp;

/**
 * Fans' phone numbers ({@code account_contacts}) and the notices of offers about to lapse
 * ({@code messages}, migration V18). Thread-safe; one pooled connection per call.
 */
public final class PostgresContactRepository implements ContactRepository {

    private final DataSource dataSource;

    public PostgresContactRepository(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource);
    }

    @Override
    public Optional<PhoneNumber> phone(String accountId) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT phone FROM account_contacts WHERE account_id = ?")) {
            ps.setString(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new PhoneNumber(rs.getString(1))) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new DatabaseException("reading the phone number of " + accountId, e);
        }
    }

    @Override
    public void setPhone(String accountId, PhoneNumber phone, long now) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                INSERT INTO account_contacts (account_id, phone, updated_at) VALUES (?, ?, ?)
                ON CONFLICT (account_id) DO UPDATE SET phone = excluded.phone, updated_at = excluded.updated_at""")) {
            ps.setString(1, accountId);
            ps.setString(2, phone.e164());
            ps.setObject(3, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new DatabaseException("saving the phone number of " + accountId, e);
        }
    }

    @Override
    public boolean removePhone(String accountId) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("DELETE FROM account_contacts WHERE account_id = ?")) {
            ps.setString(1, accountId);
            return ps.executeUpdate() > 0;
        } catch (SQLException e) {
            throw new DatabaseException("removing the phone number of " + accountId, e);
        }
    }

    @Override
    public int noteLapsingOffers(long now, long until) {
        // the offer's own address for email (the one its offer mail went to); the unique key keeps
        // the notices of an offer that every member finds to the first ones written
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                INSERT INTO messages (kind, channel, subject, show_id, account_id, recipient, expires_at, due_at)
                SELECT 'OFFER_LAPSING', ch.channel, e.hold_id, e.show_id, e.account_id, ch.recipient,
                       e.offer_expires_at, ?
                FROM waitlist_entries e
                LEFT JOIN account_contacts ac ON ac.account_id = e.account_id
                CROSS JOIN LATERAL (VALUES ('PAGE', NULL),
                                           (CASE WHEN ac.phone IS NULL THEN 'EMAIL' ELSE 'SMS' END,
                                            coalesce(ac.phone, e.recipient))) AS ch (channel, recipient)
                WHERE e.state = 'OFFERED' AND e.offer_expires_at > ? AND e.offer_expires_at <= ?
                ON CONFLICT ON CONSTRAINT messages_once DO NOTHING""")) {
            ps.setObject(1, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setObject(2, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setObject(3, timestamp(until), Types.TIMESTAMP_WITH_TIMEZONE);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new DatabaseException("noting waitlist offers about to lapse", e);
        }
    }
}
