package org.boxoffice.domain;

/**
 * One performance of an event: when it starts, when its seats are on sale, its hold rules and
 * its seat layout (sections, prices, blocks).
 *
 * @param blockGroups how many partition groups the show's blocks are spread over (see the grid)
 * @param cancelHours bookings can be cancelled until this many hours before the start
 */
public record Show(String showId, String eventId, String venueId, long startsAt, SaleWindow sale,
                   HoldPolicy policy, int blockGroups, int cancelHours, ShowLayout layout) {

    public String currency() {
        return layout.currency();
    }
}
