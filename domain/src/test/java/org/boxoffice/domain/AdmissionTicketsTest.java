package org.boxoffice.domain;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AdmissionTicketsTest {

    @Test
    void ids_numberTheAdmissionsOfABookingFromOne_andNameTheirArea() {
        assertEquals(List.of("FLOOR~1", "FLOOR~2", "FLOOR~3"), AdmissionTickets.ids("FLOOR", 3));
        assertEquals(Optional.of("FLOOR"), AdmissionTickets.area("FLOOR~12"));
    }

    @Test
    void area_isEmpty_forSeatIdsAndAnythingElse() {
        for (String id : new String[] {"STALLS-1-2", "FLOOR~0", "FLOOR~", "~1", "FLOOR~1~2", "FL-OOR~1", "FLOOR~01", ""}) {
            assertEquals(Optional.empty(), AdmissionTickets.area(id), id);
        }
        assertEquals(Optional.empty(), AdmissionTickets.area(null));
    }

    @Test
    void areaOf_aBooking_isItsTicketsArea() {
        Booking admissions = new Booking(1, "h", "p", "s", "a", AdmissionTickets.ids("PIT", 2), 100, "EUR",
                Booking.Status.CONFIRMED, false, 0);
        Booking seats = new Booking(2, "h2", "p2", "s", "a", List.of("A-1-1"), 100, "EUR", Booking.Status.CONFIRMED, false, 0);

        assertEquals(Optional.of("PIT"), AdmissionTickets.areaOf(admissions));
        assertEquals(Optional.empty(), AdmissionTickets.areaOf(seats));
    }
}
