package org.boxoffice.domain;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Tickets changing hands, decided by the referee: every step is one transaction of conditional
 * updates, so of any number of racing offers, accepts and cancellations of one ticket or booking,
 * each ticket ends with one holder and one live code version. Thread-safe.
 */
public interface TransferRepository {

    /** A ticket and who holds it now; its code is signed with {@code codeVersion}. */
    record HeldTicket(long bookingId, String showId, String seatId, String holder, int codeVersion) {
    }

    /**
     * {@code from} offers the ticket of {@code seatId} in {@code bookingId} to {@code to}: refused
     * unless {@code from} holds it, it is live and unused, its booking is CONFIRMED and not cancelling,
     * has had fewer than {@code maxPerBooking} transfers, and the ticket has no open offer.
     */
    Outcome<TicketTransfer> offer(long bookingId, String seatId, String from, String to, int maxPerBooking, long now);

    /**
     * {@code to} accepts transfer {@code transferId}: the ticket becomes theirs and its code version
     * goes up by one (the old code stops admitting), the booking's transfers by one. Refused (and the
     * transfer with it) if the booking was cancelled meanwhile or reached {@code maxPerBooking}.
     */
    Outcome<TicketTransfer> accept(long transferId, String to, int maxPerBooking, long now);

    /** The sender takes back an open offer; false if it was not open or not theirs. */
    boolean cancel(long transferId, String from, long now);

    Optional<TicketTransfer> transfer(long transferId);

    /** The booking's transfers, oldest first: its history of changing hands. */
    List<TicketTransfer> ofBooking(long bookingId);

    /** Transfers the account sent or was sent, newest first. */
    List<TicketTransfer> ofAccount(String accountId);

    /** The live tickets of the booking, with who holds each now. */
    List<HeldTicket> tickets(long bookingId);

    /**
     * The live tickets of each of the bookings, by booking (a booking with none is absent), in one
     * read whatever their number: a list of bookings costs no query per booking.
     */
    Map<Long, List<HeldTicket>> tickets(Collection<Long> bookingIds);

    /** The transfers of each of the bookings, oldest first, by booking (none: absent), in one read. */
    Map<Long, List<TicketTransfer>> ofBookings(Collection<Long> bookingIds);

    /** The live tickets the account holds by transfer (of other accounts' bookings). */
    List<HeldTicket> heldBy(String accountId);
}
