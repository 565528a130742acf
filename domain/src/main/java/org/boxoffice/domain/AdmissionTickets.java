package org.boxoffice.domain;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The tickets of a booking of admissions: one per admission, each with its own id, so the code,
 * QR image, rotating code, transfer and gate check of a seat ticket serve it unchanged. An
 * admission ticket's id is its area, a tilde and its number in the booking ({@code FLOOR~1},
 * {@code FLOOR~2}): unique within the booking (the codes name the booking too), never a seat id
 * (seat ids have no tilde), and made of characters a URL path and a ticket code carry as they are.
 */
public final class AdmissionTickets {

    private static final char SEPARATOR = '~';

    private AdmissionTickets() {
    }

    /** The ticket ids of {@code quantity} admissions to {@code area}, numbered from 1. */
    public static List<String> ids(String area, int quantity) {
        List<String> ids = new ArrayList<>(quantity);
        for (int n = 1; n <= quantity; n++) {
            ids.add(area + SEPARATOR + n);
        }
        return ids;
    }

    /** The area an admission ticket admits to; empty for a seat ticket's id (or anything else). */
    public static Optional<String> area(String ticketId) {
        int at = ticketId == null ? -1 : ticketId.indexOf(SEPARATOR);
        if (at <= 0 || at == ticketId.length() - 1) {
            return Optional.empty();
        }
        String area = ticketId.substring(0, at);
        String number = ticketId.substring(at + 1);
        if (!area.matches(AdmissionArea.NAME_PATTERN) || !number.matches("[1-9][0-9]{0,6}")) {
            return Optional.empty();
        }
        return Optional.of(area);
    }

    /** The area a booking's tickets admit to, if they are admissions (a booking is all seats or all admissions). */
    public static Optional<String> areaOf(Booking booking) {
        return booking.seatIds().isEmpty() ? Optional.empty() : area(booking.seatIds().get(0));
    }
}
