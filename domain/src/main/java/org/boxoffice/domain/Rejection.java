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
    NOT_ALLOWED
}
