package org.boxoffice.domain;

/** Business reasons a request is turned down. Values, not exceptions. */
public enum Rejection {
    /** At least one requested seat is held, sold or blocked. */
    SEATS_UNAVAILABLE,
    /** More seats than the show allows in one hold, or none. */
    TOO_MANY_SEATS,
    /** The account would exceed its per-show limit across active holds and sales. */
    ACCOUNT_LIMIT,
    /** The show's sale has not opened or has closed. */
    SALE_NOT_OPEN,
    /** A seat id that is not part of the show's layout, or named twice. */
    UNKNOWN_SEAT,
    /** No show with that id. */
    UNKNOWN_SHOW,
    /** A section name that is not part of the show's layout. */
    UNKNOWN_SECTION,
    /** A general-admission area the show does not have. */
    UNKNOWN_AREA,
    /** Fewer admissions are left in the whole area than were asked for. */
    SOLD_OUT,
    /** No active hold with that id holds these seats. */
    HOLD_NOT_FOUND,
    /** The hold lapsed before the request reached it. */
    HOLD_EXPIRED,
    /** The hold was given back (by its owner, or by an admin's block). */
    HOLD_RELEASED,
    /** Another payment for the hold may still move money: wait for it instead of paying again. */
    PAYMENT_IN_PROGRESS,
    /** The payment provider declined the charge; the hold is kept. */
    PAYMENT_DECLINED,
    /** Best available found no adjacent seats of that size. */
    NO_ADJACENT_SEATS,
    /** A waitlist join while seats that fit are on sale: hold them instead. */
    SEATS_AVAILABLE,
    /** The account already has a live waitlist entry (or an open offer) for the show. */
    ALREADY_ON_WAITLIST,
    /** The seat is sold and cannot be blocked, or the booking does not own it. */
    NOT_ALLOWED,
    /** The caller holds no such ticket, or no such transfer is addressed to them. */
    TICKET_NOT_FOUND,
    /** The ticket has an open transfer offer already. */
    TRANSFER_PENDING,
    /** The booking's tickets were transferred as often as a booking allows. */
    TRANSFER_LIMIT,
    /** Too close to the show: tickets are no longer transferred. */
    TRANSFER_CLOSED,
    /** The ticket cannot change hands: its booking is cancelled or being cancelled, or it was used at the gate. */
    TICKET_NOT_TRANSFERABLE,
    /** The transfer was accepted, cancelled or refused already. */
    TRANSFER_DECIDED,
    /** A booking with a transferred ticket is not refunded: the ticket is someone else's now. */
    TICKET_TRANSFERRED
}
