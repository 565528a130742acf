package org.boxoffice.mapstore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.boxoffice.domain.Rejection;
import org.boxoffice.domain.Outcome;
import org.boxoffice.domain.TicketTransfer;
import org.boxoffice.domain.TransferRepository;

import static org.boxoffice.mapstore.PostgresInventoryRepository.timestamp;

/**
 * Ticket transfers on PostgreSQL ({@code ticket_transfers}, the holder and code version of
 * {@code booking_seats}, {@code bookings.transfers}; migration V18). Races are decided here, by
 * row locks and conditional updates: one open offer per ticket (a unique index), an accept moves
 * the ticket only from the code version it was offered at, and an accept and a cancellation of
 * the booking both update the booking's row, so whichever commits first decides the other.
 * Thread-safe; one pooled connection per call.
 */
public final class PostgresTransferRepository implements TransferRepository {

    private static final String COLUMNS = """
            t.transfer_id, t.booking_id, b.show_id, t.seat_id, t.from_account, t.to_account, t.status, t.reason,
            epoch_ms(t.created_at), coalesce(epoch_ms(t.decided_at), 0)""";
    private static final String FROM = " FROM ticket_transfers t JOIN bookings b ON b.booking_id = t.booking_id ";

    private final DataSource dataSource;

    public PostgresTransferRepository(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource);
    }

    @Override
    public Outcome<TicketTransfer> offer(long bookingId, String seatId, String from, String to, int maxPerBooking, long now) {
        return Transactions.inTransaction(dataSource, "offering a ticket of booking " + bookingId, c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT coalesce(bs.holder, b.account_id), bs.live AND bs.used_at IS NULL,
                           b.status = 'CONFIRMED' AND NOT b.cancelling, b.transfers, bs.code_version
                    FROM booking_seats bs JOIN bookings b ON b.booking_id = bs.booking_id
                    WHERE bs.booking_id = ? AND bs.seat_id = ? FOR UPDATE OF bs""")) {
                ps.setLong(1, bookingId);
                ps.setString(2, seatId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next() || !rs.getString(1).equals(from)) {
                        return refused(Rejection.TICKET_NOT_FOUND, "you hold no ticket " + seatId + " of booking " + bookingId);
                    }
                    if (!rs.getBoolean(2) || !rs.getBoolean(3)) {
                        return refused(Rejection.TICKET_NOT_TRANSFERABLE,
                                "the ticket was used, or its booking is cancelled or being cancelled");
                    }
                    if (rs.getInt(4) >= maxPerBooking) {
                        return refused(Rejection.TRANSFER_LIMIT, "a booking's tickets change hands at most "
                                + maxPerBooking + " times");
                    }
                    int version = rs.getInt(5);
                    try (PreparedStatement insert = c.prepareStatement("""
                            INSERT INTO ticket_transfers (booking_id, seat_id, from_account, to_account, code_version,
                                                          status, created_at)
                            VALUES (?, ?, ?, ?, ?, 'OFFERED', ?)
                            ON CONFLICT (booking_id, seat_id) WHERE status = 'OFFERED' DO NOTHING
                            RETURNING transfer_id""")) {
                        insert.setLong(1, bookingId);
                        insert.setString(2, seatId);
                        insert.setString(3, from);
                        insert.setString(4, to);
                        insert.setInt(5, version);
                        insert.setObject(6, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
                        try (ResultSet id = insert.executeQuery()) {
                            if (!id.next()) {
                                return refused(Rejection.TRANSFER_PENDING, "the ticket is offered to someone already; "
                                        + "cancel that offer first");
                            }
                            return new Outcome.Done<>(read(c, id.getLong(1)).orElseThrow());
                        }
                    }
                }
            }
        });
    }

    @Override
    public Outcome<TicketTransfer> accept(long transferId, String to, int maxPerBooking, long now) {
        return Transactions.inTransaction(dataSource, "accepting transfer " + transferId, c -> {
            int version;
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT status, code_version FROM ticket_transfers WHERE transfer_id = ? AND to_account = ?
                    FOR UPDATE""")) {
                ps.setLong(1, transferId);
                ps.setString(2, to);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return refused(Rejection.TICKET_NOT_FOUND, "no transfer " + transferId + " is addressed to you");
                    }
                    if (!rs.getString(1).equals("OFFERED")) {
                        return refused(Rejection.TRANSFER_DECIDED, "the transfer is " + rs.getString(1) + " already");
                    }
                    version = rs.getInt(2);
                }
            }
            TicketTransfer t = read(c, transferId).orElseThrow();
            // the booking's row first: a cancellation of the booking updates it too, so one of them waits
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE bookings SET transfers = transfers + 1
                    WHERE booking_id = ? AND status = 'CONFIRMED' AND NOT cancelling AND transfers < ?
                    RETURNING transfers""")) {
                ps.setLong(1, t.bookingId());
                ps.setInt(2, maxPerBooking);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return decline(c, transferId, now, Rejection.TICKET_NOT_TRANSFERABLE,
                                "the booking is cancelled, or its tickets changed hands as often as allowed");
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE booking_seats SET holder = ?, code_version = code_version + 1
                    WHERE booking_id = ? AND seat_id = ? AND live AND used_at IS NULL AND code_version = ?""")) {
                ps.setString(1, to);
                ps.setLong(2, t.bookingId());
                ps.setString(3, t.seatId());
                ps.setInt(4, version);
                if (ps.executeUpdate() != 1) {
                    // the ticket moved on (used, or no longer live): the booking's count goes back
                    try (PreparedStatement undo = c.prepareStatement(
                            "UPDATE bookings SET transfers = transfers - 1 WHERE booking_id = ?")) {
                        undo.setLong(1, t.bookingId());
                        undo.executeUpdate();
                    }
                    return decline(c, transferId, now, Rejection.TICKET_NOT_TRANSFERABLE,
                            "the ticket was used or is no longer live");
                }
            }
            decide(c, transferId, "ACCEPTED", null, now);
            return new Outcome.Done<>(read(c, transferId).orElseThrow());
        });
    }

    private static Outcome<TicketTransfer> decline(Connection c, long transferId, long now, Rejection reason, String message)
            throws SQLException {
        decide(c, transferId, "REFUSED", message, now);
        return refused(reason, message);
    }

    private static void decide(Connection c, long transferId, String status, String reason, long now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE ticket_transfers SET status = ?, reason = ?, decided_at = ? WHERE transfer_id = ?")) {
            ps.setString(1, status);
            ps.setString(2, reason);
            ps.setObject(3, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setLong(4, transferId);
            ps.executeUpdate();
        }
    }

    private static Outcome<TicketTransfer> refused(Rejection reason, String message) {
        return new Outcome.Refused<>(reason, message);
    }

    @Override
    public boolean cancel(long transferId, String from, long now) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                UPDATE ticket_transfers SET status = 'CANCELLED', decided_at = ?
                WHERE transfer_id = ? AND from_account = ? AND status = 'OFFERED'""")) {
            ps.setObject(1, timestamp(now), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setLong(2, transferId);
            ps.setString(3, from);
            return ps.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new DatabaseException("cancelling transfer " + transferId, e);
        }
    }

    @Override
    public Optional<TicketTransfer> transfer(long transferId) {
        try (Connection c = dataSource.getConnection()) {
            return read(c, transferId);
        } catch (SQLException e) {
            throw new DatabaseException("reading transfer " + transferId, e);
        }
    }

    @Override
    public List<TicketTransfer> ofBooking(long bookingId) {
        return transfers("WHERE t.booking_id = ? ORDER BY t.transfer_id", bookingId);
    }

    @Override
    public List<TicketTransfer> ofAccount(String accountId) {
        return transfers("WHERE t.from_account = ? OR t.to_account = ? ORDER BY t.transfer_id DESC LIMIT 200",
                accountId, accountId);
    }

    @Override
    public List<HeldTicket> tickets(long bookingId) {
        return held("bs.booking_id = ? ORDER BY bs.seat_id", bookingId);
    }

    @Override
    public Map<Long, List<HeldTicket>> tickets(Collection<Long> bookingIds) {
        if (bookingIds.isEmpty()) {
            return Map.of();
        }
        return held("bs.booking_id = ANY (?) ORDER BY bs.booking_id, bs.seat_id", ids(bookingIds)).stream()
                .collect(Collectors.groupingBy(HeldTicket::bookingId, LinkedHashMap::new, Collectors.toList()));
    }

    @Override
    public Map<Long, List<TicketTransfer>> ofBookings(Collection<Long> bookingIds) {
        if (bookingIds.isEmpty()) {
            return Map.of();
        }
        return transfers("WHERE t.booking_id = ANY (?) ORDER BY t.booking_id, t.transfer_id", (Object) ids(bookingIds)).stream()
                .collect(Collectors.groupingBy(TicketTransfer::bookingId, LinkedHashMap::new, Collectors.toList()));
    }

    /** Booking ids as one {@code bigint[]} parameter (bound by {@link #bind}). */
    private static Long[] ids(Collection<Long> bookingIds) {
        return bookingIds.stream().distinct().toArray(Long[]::new);
    }

    private static void bind(Connection c, PreparedStatement ps, int index, Object param) throws SQLException {
        if (param instanceof Long[] ids) {
            ps.setArray(index, c.createArrayOf("bigint", ids));
        } else {
            ps.setObject(index, param);
        }
    }

    @Override
    public List<HeldTicket> heldBy(String accountId) {
        return held("bs.holder = ? AND bs.holder <> b.account_id AND b.status = 'CONFIRMED' AND NOT b.cancelling "
                + "ORDER BY bs.booking_id, bs.seat_id", accountId);
    }

    private List<HeldTicket> held(String where, Object param) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                SELECT bs.booking_id, bs.show_id, bs.seat_id, coalesce(bs.holder, b.account_id), bs.code_version
                FROM booking_seats bs JOIN bookings b ON b.booking_id = bs.booking_id
                WHERE bs.live AND\s""" + where)) {
            bind(c, ps, 1, param);
            List<HeldTicket> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new HeldTicket(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getInt(5)));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new DatabaseException("reading tickets", e);
        }
    }

    private List<TicketTransfer> transfers(String where, Object... params) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + FROM + where)) {
            for (int i = 0; i < params.length; i++) {
                bind(c, ps, i + 1, params[i]);
            }
            List<TicketTransfer> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(row(rs));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new DatabaseException("reading transfers", e);
        }
    }

    private static Optional<TicketTransfer> read(Connection c, long transferId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + FROM + "WHERE t.transfer_id = ?")) {
            ps.setLong(1, transferId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    private static TicketTransfer row(ResultSet rs) throws SQLException {
        return new TicketTransfer(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), TicketTransfer.Status.valueOf(rs.getString(7)), rs.getString(8), rs.getLong(9),
                rs.getLong(10));
    }
}
