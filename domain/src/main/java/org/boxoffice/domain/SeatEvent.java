package org.boxoffice.domain;

/**
 * One audited transition of one seat: who, when, why, which hold or booking, and the state and
 * version before and after.
 */
public record SeatEvent(long eventId, String showId, String seatId, long at, String actor, String kind, String reason,
                        String holdId, Long bookingId, String oldState, String newState, int oldVersion, int newVersion) {
}
